"""Hostile use, round two (issue 24), continued: items 2 (a deadline never reports converged: the ℓ1 certificate checks
every KKT condition), 4 (L1QSVM with C = 1e8 ... 1e12) and 9 (extreme C or λ). Each test failed before the fix but
the controls (no deadline, QSVM at a vanishing C, λ = 1e200, an ordinary C), which pin the right answers."""
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from l0qsvm import L0QSVM, L1QSVM, QSVM
from l0qsvm.features import gram_matrix, quadratic_features
from l0qsvm.swap import fit_l0qsvm
from l0qsvm.smo import LowRankQ, smo_solve
from l0qsvm.subproblems import qsvm_primal_cvxopt
from l0qsvm.qsvm import fit_l1qsvm, l1_optimality_residual

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
X_STD = StandardScaler().fit_transform(X_IRIS)


@pytest.fixture(scope="module")
def tall():
    "m = 2000, n = 8: the ℓ1 route of tall data (the QSVM's signs, then interior points on the support)."
    X, y = make_classification(n_samples=2000, n_features=8, n_informative=8, n_redundant=0, flip_y=0.1, random_state=0)
    return StandardScaler().fit_transform(X), 2.0 * y - 1.0


def caught(fn):
    "Run fn() and return (its value, the ConvergenceWarnings it issued)."
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [x for x in w if issubclass(x.category, ConvergenceWarning)]


# --- 2. a fit stopped by its deadline warns and is never converged ------------------------------------------------

def test_l1qsvm_stopped_by_its_deadline_is_not_converged(tall):
    X, y = tall
    fit = fit_l1qsvm(X, y, 1.0, 1.0, tol=1e-7, deadline=time.perf_counter() + 1e-6)
    assert not fit.converged and fit.status == "deadline" and "max_time" in fit.cause
    est, warned = caught(lambda: L1QSVM(max_time=1e-6).fit(X, y))
    assert warned and "max_time" in str(warned[0].message)


@pytest.mark.slow
def test_l1qsvm_without_a_deadline_is_converged_at_the_reference_optimum(tall):
    X, y = tall
    fit = fit_l1qsvm(X, y, 1.0, 1.0, tol=1e-7)
    _, _, F_ref = qsvm_primal_cvxopt(gram_matrix(X), quadratic_features(X), y, 1.0, lam=1.0, tol=1e-9)
    assert fit.converged and fit.status == "converged"
    assert abs(fit.objective - F_ref) <= 1e-6 * F_ref


def test_the_l1_certificate_checks_feasibility_and_complementarity(tall):
    X, y = tall
    X, y = X[:300], y[:300]
    R, G = quadratic_features(X), gram_matrix(X)
    fit = fit_l1qsvm(X, y, 1.0, 1.0, tol=1e-7)
    z, c, a = fit.z, fit.c, fit.alpha
    assert fit.converged and l1_optimality_residual(G, R, y, 1.0, z, a, 1.0, c) <= 1e-7
    # the stationarity alone cannot see these: it does not read c or the box
    assert l1_optimality_residual(G, R, y, 1.0, z, a, 1.0, c + 0.2) > 1e-3          # complementarity
    assert l1_optimality_residual(G, R, y, 1.0, z, a, 0.5, c) > 1e-3                # alpha outside [0, C]
    assert l1_optimality_residual(G, R, y, 1.0, z, a) == l1_optimality_residual(G, R, y, 1.0, z, a, None, c + 0.2)


# --- 4. L1QSVM(C = 1e8 ... 1e12): the warm starts of SMO are feasible -------------------------------------------------

@pytest.mark.parametrize("C", [1e8, 1e10, 1e12])
def test_l1qsvm_with_a_huge_C_fits_and_is_certified(C):
    est, warned = caught(lambda: L1QSVM(C=C).fit(X_STD, Y_IRIS))
    assert not warned, [str(w.message) for w in warned]
    qsvm = QSVM(C=C).fit(X_STD, Y_IRIS)
    assert (est.predict(X_STD) == Y_IRIS).mean() >= (qsvm.predict(X_STD) == Y_IRIS).mean() - 0.02
    R, G = quadratic_features(X_STD), gram_matrix(X_STD)
    for k in range(3):                                     # each one-vs-rest surface: certified, at the optimum
        yb = np.where(Y_IRIS == k, 1.0, -1.0)
        fit = fit_l1qsvm(X_STD, yb, C, 1.0, tol=1e-7)
        _, _, F_ref = qsvm_primal_cvxopt(G, R, yb, C, lam=1.0)
        assert fit.converged and fit.gap <= 1e-7
        assert abs(fit.objective - F_ref) <= 1e-6 * F_ref
        assert abs(est.objective_[k] - F_ref) <= 1e-6 * F_ref


def test_smo_balances_a_warm_start_off_by_round_off_of_its_box():
    rng = np.random.default_rng(0)
    V = rng.standard_normal((40, 5)); y = np.where(V[:, 0] > 0, 1.0, -1.0)
    C = 1e10
    a0 = np.zeros(40); a0[np.flatnonzero(y > 0)[0]] = 2.0**-22       # an ulp of 1e9 left on one multiplier
    res = smo_solve(LowRankQ(y[:, None] * V), -np.ones(40), y, C, alpha0=a0, tol=1e-6)
    assert res.converged and abs(y @ res.alpha) <= 1e-10 * max(1.0, res.alpha.sum())
    with pytest.raises(ValueError, match="infeasible"):              # a real imbalance is still refused
        smo_solve(LowRankQ(y[:, None] * V), -np.ones(40), y, 1.0, alpha0=np.where(y > 0, 0.5, 0.0))


# --- 9. extreme C or λ: the right answer, or a clear refusal -------------------------------------------------------------

@pytest.mark.parametrize("C", [1e20, 1e50])
def test_l0qsvm_with_a_C_float64_cannot_honour_warns(C):
    # the swap certificate passed on restricted fits that missed their optimum; the Lu-Zhang certificate sees it
    est, warned = caught(lambda: L0QSVM(k=3, C=C).fit(X_STD, Y_IRIS))
    assert warned and "not optimal on its own support" in str(warned[0].message)
    fit = fit_l0qsvm(X_STD, np.where(Y_IRIS == 1, 1.0, -1.0), 3, C)
    assert not fit.converged and not fit.certificate["passed"] and fit.status == "certificate"


def test_l0qsvm_at_an_ordinary_C_is_still_certified():
    est, warned = caught(lambda: L0QSVM(k=3, C=1.0).fit(X_STD, Y_IRIS))
    assert not warned and all(cert["passed"] for cert in est.certificate_)
    sq = L0QSVM(k=3, C=1e50, loss="squared").fit(X_STD, Y_IRIS)    # the squared loss is a closed form: no limit
    assert (sq.predict(X_STD) == Y_IRIS).mean() >= 0.9


@pytest.mark.parametrize("C", [1e-12, 1e-20, 1e-30])
@pytest.mark.parametrize("make", [lambda C: QSVM(C=C), lambda C: L1QSVM(C=C), lambda C: L0QSVM(k=3, C=C)],
                         ids=["QSVM", "L1QSVM", "L0QSVM"])
def test_a_vanishing_C_picks_the_majority_class(make, C):
    y = (Y_IRIS != 0).astype(int)                    # 100 of class 1, 50 of class 0
    est = make(C).fit(X_STD, y)
    # C -> 0: z -> 0 and c minimises the hinge sum, c = 1 (the majority), whose loss is 2 C per minority point
    assert np.all(est.predict(X_STD) == 1)
    np.testing.assert_allclose(est.c_, [1.0], atol=1e-6)
    np.testing.assert_allclose(est.objective_, [100 * C], rtol=1e-6)


@pytest.mark.parametrize("y", [Y_IRIS, (Y_IRIS != 0).astype(int)], ids=["ovr", "binary"])
def test_an_infinite_lambda_leaves_the_intercept_where_it_was(y):
    ref = L1QSVM(lam=1e6).fit(X_STD, y)              # already large enough that W = 0
    for lam in (1e200, 1e300):
        est = L1QSVM(lam=lam).fit(X_STD, y)
        assert np.all(est.W_ == 0)
        np.testing.assert_allclose(est.c_, ref.c_, atol=1e-7)
        np.testing.assert_allclose(est.b_, ref.b_, atol=1e-7)
        np.testing.assert_allclose(est.objective_, ref.objective_, rtol=1e-9)


def test_flat_intercept_interval_is_not_moved_by_rounding_of_C():
    "Loss weights 0.1 + 0.2 against 0.3: in exact arithmetic every c in [-1, 1] is optimal; the midpoint, not an end."
    from l0qsvm.subproblems import best_intercept
    y = np.array([1.0, -1.0, -1.0])
    for w in ([0.3, 0.1, 0.2], [0.3, 0.2, 0.1], [0.9 / 3, 0.1, 0.2]):
        assert best_intercept(np.zeros(3), y, np.array(w)) == pytest.approx(0.0, abs=1e-12)
