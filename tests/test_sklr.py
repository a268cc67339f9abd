"""`SparseKLR` and `KLR`: scikit-learn's common estimator checks (one pytest test per check), and the S-KLR facts the
notebooks `05_sklr` / `05a_sklr_estimator` derive, on seeded random problems.

The λ = 0 problems are compared with an independent primal fit (`l0qsvm.sklr.solve_sklr_primal`: the representer-form
KLR primal by scipy's L-BFGS, which knows nothing of the dual or of SMO).
"""
import pickle

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import KLR, SparseKLR, fit_path
from l0qsvm.sklr import dual_gradient, sigmoid, solve_sklr_primal, violation
from l0qsvm.sklr_estimator import kernel_matrix


# check_sample_weight_equivalence_on_dense_data compares predict_proba to 1e-7; at the default tol=1e-3 the weighted
# and the repeated fits agree to the solver's tolerance only (tests/test_weights.py runs the check at tol=1e-10).
@parametrize_with_checks([SparseKLR(), KLR(), SparseKLR(C=100.0, lam=10.0, kernel="linear")],
                         expected_failed_checks=lambda e: {"check_sample_weight_equivalence_on_dense_data":
                                                           "equal to the solver's tolerance, not to 1e-7"})
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _problem(seed, m=40, n=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] ** 2 + 0.5 * rng.standard_normal(m) > -0.3, 1, 0)
    return X, y, rng.standard_normal((60, n))


@pytest.mark.parametrize("seed", range(12))
def test_lambda_zero_matches_primal(seed):
    "At λ = 0 (box inactive), predict_proba equals the independent primal fit to 1e-5 and the dual optimum is minus the primal's."
    X, y, Xnew = _problem(seed)
    kernel, C = [("rbf", 0.3), ("linear", 1.0), ("poly", 0.3), ("rbf", 20.0), ("linear", 10.0), ("poly", 1.0)][seed % 6]
    clf = KLR(C, kernel=kernel, tol=1e-9).fit(X, y)
    assert clf.alpha_.min() > 10 * clf.box_          # no α at the box: (22) is the unbounded dual of the primal
    coef, c, theta, primal = solve_sklr_primal(kernel_matrix(X, X, kernel, clf.gamma_), np.where(y == 1, 1.0, -1.0), C, 0.0)
    p_primal = sigmoid(kernel_matrix(Xnew, X, kernel, clf.gamma_) @ coef + c)
    assert theta == 0.0
    np.testing.assert_allclose(clf.predict_proba(Xnew)[:, 1], p_primal, atol=1e-5)
    np.testing.assert_allclose(SparseKLR(C, 0.0, kernel=kernel, tol=1e-9).fit(X, y).predict_proba(Xnew)[:, 1],
                               p_primal, atol=1e-5)
    np.testing.assert_allclose(clf.objective_[0], -primal, rtol=1e-8)


@pytest.mark.parametrize("seed", range(6))
def test_positive_lambda_is_primal_with_theta_lambda(seed):
    "At λ > 0 the dual solution is the primal S-KLR solution for ν = Σα, with θ* = λ and the same optimum."
    X, y, _ = _problem(100 + seed, m=30)
    lam, C = [0.3, 1.0, 2.5][seed % 3], [1.0, 4.0][seed % 2]
    ypm = np.where(y == 1, 1.0, -1.0)
    clf = SparseKLR(C, lam, gamma=0.5, tol=1e-10).fit(X, y)
    coef, c, theta, primal = solve_sklr_primal(rbf_kernel(X, gamma=0.5), ypm, C, clf.nu_[0])
    np.testing.assert_allclose(theta, lam, atol=1e-5)
    np.testing.assert_allclose(primal, -(clf.objective_[0] + lam * clf.nu_[0]), rtol=1e-8)


@pytest.mark.parametrize("seed", range(6))
def test_sparse_solution_is_optimal_and_drops_points(seed):
    "With large C and λ, points sit at the lower bound; the KKT conditions of (22) hold; prediction uses the kept points."
    X, y, Xnew = _problem(200 + seed, m=80)
    clf = SparseKLR(C=1000.0, lam=10.0, gamma=0.5, tol=1e-6).fit(X, y)    # (a tighter tol raises the box's floor)
    ypm = np.where(y == 1, 1.0, -1.0)
    Q = np.outer(ypm, ypm) * rbf_kernel(X, gamma=0.5)
    alpha = clf.alpha_[0]
    m_, M_ = violation(alpha, dual_gradient(Q, alpha, 1000.0, 10.0), ypm, clf.box_, 1000.0 - clf.box_)
    assert m_ - M_ < 1e-6
    assert 0 < clf.support_.size < 80 and clf.fraction_dropped_ > 0 and clf.n_bound_kept_[0] == 0
    np.testing.assert_array_equal(clf.support_, np.flatnonzero(alpha > clf.box_))
    full = rbf_kernel(Xnew, X, gamma=0.5) @ (alpha * ypm) + clf.intercept_[0]
    assert np.abs(clf.decision_function(Xnew) - full).max() <= clf.box_ * (80 - clf.support_.size) + 1e-9


def test_multiclass_probabilities():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((90, 2)) + np.repeat(np.array([[0, 0], [3, 0], [0, 3]]), 30, axis=0)
    y = np.repeat(["a", "b", "c"], 30)
    clf = SparseKLR(C=100.0, lam=5.0).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), P, atol=1e-12)
    assert (clf.predict(X) == clf.classes_[P.argmax(axis=1)]).all()
    assert clf.dual_coef_.shape == (3, clf.support_.size) and clf.n_support_.sum() == clf.support_.size
    assert clf.score(X, y) > 0.9


def test_warm_start_and_path():
    X, y, _ = _problem(9, m=150)
    path = fit_path(SparseKLR(C=50.0, tol=1e-6), X, y, lams=[0.0, 2.0, 8.0], Cs=[10.0, 50.0])
    assert [(C, lam) for C, lam, _ in path] == [(10.0, 0.0), (10.0, 2.0), (10.0, 8.0), (50.0, 0.0), (50.0, 2.0), (50.0, 8.0)]
    for C, lam, est in path:
        cold = SparseKLR(C=C, lam=lam, tol=1e-6).fit(X, y)
        np.testing.assert_allclose(est.objective_, cold.objective_, rtol=1e-6)
        assert not est.warm_start and not hasattr(est, "_warm")
    est = path[-1][2]
    again = pickle.loads(pickle.dumps(SparseKLR(C=50.0, lam=8.0, warm_start=True).fit(X, y)))
    assert not hasattr(again, "_warm")
    np.testing.assert_allclose(again.decision_function(X), est.decision_function(X), atol=1e-3)


def test_default_lambda_grid():
    X, y, _ = _problem(11, m=60)
    path = fit_path(SparseKLR(C=100.0), X, y)
    lams = [lam for _, lam, _ in path]
    assert len(lams) == 8 and lams[0] == 0.0 and all(a < b for a, b in zip(lams, lams[1:]))


def test_time_budget_and_iteration_cap_warn():
    X, y, _ = _problem(12, m=200)
    with pytest.warns(ConvergenceWarning, match="max_time"):
        est = SparseKLR(C=1000.0, lam=5.0, tol=1e-12, max_time=1e-9).fit(X, y)
    assert est.status_ == ["deadline"]
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        KLR(max_iter=5).fit(X, y)


def test_errors():
    X, y, _ = _problem(13)
    with pytest.raises(ValueError, match="box must be below C/2"):
        SparseKLR(C=1.0, box=0.5).fit(X, y)
    with pytest.raises(ValueError, match="kernel callable returned shape"):
        SparseKLR(kernel=lambda A, B: np.ones((len(A), 2))).fit(X, y)
    with pytest.raises(ValueError, match="lam"):
        SparseKLR(lam=-0.1).fit(X, y)


def test_badly_scaled_features_warn_with_the_kernels_reason():
    "Issue 7's up-front scale check, for the kernel models: a feature x1e5 dominates every kernel distance."
    import warnings
    from l0qsvm.checks import FeatureScaleWarning
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 3)); y = (X[:, 0] + X[:, 1] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FeatureScaleWarning)
        SparseKLR(C=10.0, lam=1.0).fit(X, y)                      # standardised: silent
        KLR(C=10.0).fit(1e-4 * X, y)                              # one scale for all (gamma="scale" adapts): silent
    X[:, 2] *= 1e5
    for est in (SparseKLR(C=10.0, lam=1.0), KLR(C=10.0)):
        with pytest.warns(FeatureScaleWarning, match="kernel’s distances"):
            est.fit(X, y)


def _standardised(name):
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler
    from l0qsvm import load_dataset
    if name == "breast_cancer": X, y = load_breast_cancer(return_X_y=True)
    else: d = load_dataset(name); X, y = d.data, d.target
    return StandardScaler().fit_transform(np.asarray(X, dtype=float)), np.asarray(y)


@pytest.mark.parametrize("name", ["breast_cancer", "ionosphere", "sonar", "heart", "banknote", "pima"])
def test_lambda_zero_is_klr_at_every_C(name):
    "With λ = 0, SparseKLR predicts as KLR (max |f_S − f_K| / max |f_K| ≤ 1e-6) from C = 1e-3 to 1e8; a point at the box is"
    " kept only with a BoxGapWarning that names the box."
    import warnings
    from l0qsvm.sklr_estimator import BoxGapWarning
    X, y = _standardised(name)
    for C in 10.0 ** np.arange(-3, 9):
        f_klr = KLR(C).fit(X, y).decision_function(X)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", BoxGapWarning)
            sk = SparseKLR(C).fit(X, y)
        rel = np.abs(sk.decision_function(X) - f_klr).max() / np.abs(f_klr).max()
        assert rel <= 1e-6, (name, C, rel)
        named = [w for w in caught if issubclass(w.category, BoxGapWarning) and "box" in str(w.message)]
        assert (sk.n_bound_kept_.sum() > 0) == (len(named) > 0), (name, C)


def test_issue_example_large_C():
    "SparseKLR(C=1e6) on standardised breast cancer predicts as KLR; the old gap 1e-6·C keeps its points at the box, warning."
    from l0qsvm.sklr_estimator import BoxGapWarning
    X, y = _standardised("breast_cancer")
    assert KLR(C=1e6).fit(X, y).score(X, y) == 1.0
    sk = SparseKLR(C=1e6).fit(X, y)
    assert sk.score(X, y) == 1.0 and sk.fraction_dropped_ > 0.3 and sk.status_ == ["converged"]
    assert SparseKLR(C=1e6, box=1e-9).fit(X, y).score(X, y) == 1.0
    with pytest.warns(BoxGapWarning, match="box = 1 "):
        old = SparseKLR(C=1e6, box=1.0).fit(X, y)
    assert old.score(X, y) == 1.0 and old.n_bound_kept_[0] == 490
