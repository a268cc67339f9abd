"""`IVM` and `L12KLR` (notebook `05c_sparse_kernel_peers`): scikit-learn's common estimator checks, one pytest test per
check, and the facts the notebook derives, on seeded random problems.

IVM: with every point imported it reaches KLR's optimum (against `KLR`'s SMO, an independent solver; RBF and polynomial
kernels, the diagonal entries read from the candidates' columns); the bordered
(Sherman-Morrison-Woodbury) evaluation of the candidates equals a brute-force Newton step built from scratch and picks
the same point; the objective never increases along the forward path. ℓ1/2-KLR: the half-thresholding operator is
the minimiser of its 1-D problem and equals skglm's `prox_05` (λμ = 2u); the iteration decreases its objective
monotonically for a fixed λ; the k-sparse rule keeps exactly k points.
"""
import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

from l0qsvm import IVM, KLR, L12KLR
from l0qsvm.kernel_peers import (forward_values, half_threshold, irls_system, ivm_objective, ivm_path, k_sparse_level,
                                 l12_objective, l12_solve)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def _expected_failures(estimator):
    "Where a weighted fit cannot equal the repeated rows (05c_sparse_kernel_peers, Sample weights)."
    if isinstance(estimator, IVM) and (estimator.backward or estimator.n_add is not None):
        return {"check_sample_weight_equivalence_on_dense_data": "the candidate draws and the tabu list act on rows"}
    if isinstance(estimator, L12KLR) and estimator.k is not None:
        return {"check_sample_weight_equivalence_on_dense_data":
                "the k-sparse rule splits the tied copies of a point by rounding; weighted, they tie exactly"}
    return {}


@parametrize_with_checks([IVM(), IVM(backward=True, n_add=5, random_state=0), L12KLR(), L12KLR(k=None, lam=1e-3)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _problem(seed, m=50):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, 3))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] ** 2 + 0.5 * rng.standard_normal(m) > -0.3, 1.0, -1.0)
    return X, y, rbf_kernel(X, gamma=float(rng.uniform(0.2, 1.0))), float(10 ** rng.uniform(-1, 2))


@pytest.mark.parametrize("seed", range(6))
def test_ivm_all_imported_is_klr(seed):
    X, y, K, C = _problem(seed, m=40)
    run = ivm_path(lambda idx: K[:, idx], y, C, eps=0.0)
    assert sorted(run.imports) == list(range(40))
    gamma = float(-np.log(K[0, 1]) / np.sum((X[0] - X[1]) ** 2))
    klr = KLR(C, gamma=gamma, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(run.objective, -klr.objective_[0], rtol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_ivm_reads_each_kernel_diagonal_entry_from_its_column(seed):
    "A quadratic kernel on 3 features (diagonal not 1, rank 10): K_ll read from column l, the path reaches KLR's optimum."
    X, y, _, C = _problem(300 + seed, m=40)
    K = (0.5 * X @ X.T + 1.0) ** 2
    run = ivm_path(lambda idx: K[:, idx], y, C, eps=0.0)
    assert run.status == "no descent" and len(run.imports) == np.linalg.matrix_rank(K) == 10   # 10 columns span K
    klr = KLR(C, kernel="poly", gamma=0.5, degree=2, coef0=1.0, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(run.objective, -klr.objective_[0], rtol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_ivm_forward_step_is_the_brute_force_step(seed):
    X, y, K, C = _problem(100 + seed)
    rng = np.random.default_rng(seed)
    I = list(rng.choice(50, int(rng.integers(0, 6)), replace=False))
    coef, c = 0.2 * rng.standard_normal(len(I)), float(rng.normal())
    cand = np.setdiff1d(np.arange(50), I)
    S = irls_system(K[:, I], K[np.ix_(I, I)], y, coef, c, C)
    vals, thetas, new = forward_values(K[:, I], K[np.ix_(I, I)], y, C, K[:, cand], K[np.ix_(I, cand)], np.diag(K)[cand], S)
    brute = []
    for l in cand:
        J = I + [int(l)]
        T = irls_system(K[:, J], K[np.ix_(J, J)], y, np.r_[coef, 0.0], c, C)
        th = np.r_[coef, 0.0, c] - np.linalg.solve(T.hessian, T.grad)
        brute.append(ivm_objective(K[:, J], K[np.ix_(J, J)], y, th[:-1], th[-1], C))
    np.testing.assert_allclose(vals, brute, rtol=1e-9)
    assert np.argmin(vals) == np.argmin(brute)


@pytest.mark.parametrize("seed", range(4))
def test_ivm_objective_never_increases(seed):
    X, y, K, C = _problem(200 + seed, m=80)
    run = ivm_path(lambda idx: K[:, idx], y, C)
    forward = [v for e, _, v in run.path if e in ("start", "add")]
    assert np.all(np.diff(forward) < 0) and run.objective <= forward[-2] * (1 + 1e-12)


def test_half_threshold_against_skglm_and_the_1d_problem():
    prox_05 = pytest.importorskip("skglm.utils.prox_funcs").prox_05
    rng = np.random.default_rng(3)
    for lam_mu in (0.01, 0.3, 2.0, 17.0):
        level = 54 ** (1 / 3) / 4 * lam_mu ** (2 / 3)
        z = np.r_[rng.uniform(-4, 4, 400) * max(1.0, level), level * np.array([0.99, 1.01, -1.01])]
        T = half_threshold(z, lam_mu)
        np.testing.assert_allclose(T, [prox_05(float(v), lam_mu / 2) for v in z], atol=1e-12, rtol=0)
        grid = np.linspace(-2 * np.abs(z).max(), 2 * np.abs(z).max(), 20001)
        for v, t in zip(z[::20], T[::20]):
            obj = lambda a: (a - v) ** 2 + lam_mu * np.sqrt(np.abs(a))
            assert obj(t) <= obj(grid).min() + 1e-9


@pytest.mark.parametrize("step", ["adaptive", "lipschitz"])
def test_l12_decreases_monotonically(step):
    X, y, K, C = _problem(7, m=60)
    r = l12_solve(K, y, lam=3e-3, step=step, max_iter=200, tol=0.0)
    assert np.all(np.diff(r.history) <= 1e-15 * np.abs(r.history[1:]))
    np.testing.assert_allclose(r.history[-1], l12_objective(K, y, r.coef, r.c, 3e-3), rtol=1e-12)


@pytest.mark.parametrize("k", [1, 3, 10, 25])
def test_k_sparse_rule_keeps_k(k):
    X, y, K, C = _problem(8, m=60)
    kept = []
    r = l12_solve(K, y, k=k, max_iter=50, tol=0.0, callback=lambda it, J: None)
    assert np.count_nonzero(r.coef) == k
    z = np.random.default_rng(k).standard_normal(100)
    assert np.count_nonzero(half_threshold(z, k_sparse_level(z, k))) == k
    assert L12KLR(k=k, max_iter=50).fit(X, y).support_.size == k
