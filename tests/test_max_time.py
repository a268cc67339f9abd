"""`max_time` / `deadline` reach the O(m²) and O(d³) steps that used to run to the end whatever the budget.

* The gradient that starts an SMO solve on a kernel (one kernel column per nonzero α_j, O(m²)) looks at the clock
  between blocks of columns, and so does the final gradient refresh once the deadline has passed.
* QSVM refuses up front a fit whose d × d factorisation of G cannot fit in `max_time` or in memory.
"""
import time
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from l0qsvm import smo
from l0qsvm.smo import KernelQ, klr_dual_solve, smo_solve
from l0qsvm.sklr_estimator import SparseKLR


def _problem(m, n=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n)); y = np.where(X[:, 0] + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    return X, y


def test_klr_start_gradient_stops_at_the_deadline():
    "S-KLR starts with every α_j > 0: its first gradient needs all m columns; a passed deadline stops it after the first column."
    m = 2000
    X, y = _problem(m)
    Q = KernelQ(X, y, gamma=0.5, cache_mb=1.0)
    res = klr_dual_solve(Q, y, 1.0, 0.0, deadline=time.perf_counter())
    assert res.status == "deadline" and not res.converged and res.n_iter == 0
    assert res.gap == np.inf and res.bias == 0.0 and np.isnan(res.obj)    # no gradient: nothing is claimed about it
    assert np.all(res.alpha > 0) and abs(res.alpha @ y) < 1e-12          # the (feasible) start
    assert Q.cache_stats()["kernel_values"] == m                         # one column, not m of them


def test_final_refresh_after_the_deadline_is_bounded(monkeypatch):
    "Once late, the final refresh of the gradient gets a short grace; past it the incremental gradient is reported."
    m = 2000
    X, y = _problem(m, seed=1)
    monkeypatch.setattr(smo, "_GRACE", 0.0)
    steps = 250                                   # the deadline: how long this machine takes to 400 support vectors
    smo_solve(KernelQ(X, y, gamma=2.0, cache_mb=0.5), -np.ones(m), y, 100.0, max_iter=10, deadline=time.perf_counter() + 60,
              callback=lambda it, gap: None)      # (compiled first, so that the timing below excludes it)
    while True:
        t = time.perf_counter()
        probe = smo_solve(KernelQ(X, y, gamma=2.0, cache_mb=0.5), -np.ones(m), y, 100.0, tol=1e-12, max_iter=steps)
        took = time.perf_counter() - t
        if int((probe.alpha > 0).sum()) >= 400 or steps > 10**6: break
        steps *= 2
    Q = KernelQ(X, y, gamma=2.0, cache_mb=0.5)                          # a small cache: a refresh recomputes columns
    seen = []
    res = smo_solve(Q, -np.ones(m), y, 100.0, tol=1e-12, deadline=time.perf_counter() + took,
                    callback=lambda it, gap: seen.append(Q.cache_stats()["kernel_values"]))
    assert res.status == "deadline" and not res.converged and np.isfinite(res.gap) and np.isfinite(res.bias)
    n_support = int((res.alpha > 0).sum())
    assert n_support > 200                                               # a full refresh: > 200 columns
    after = Q.cache_stats()["kernel_values"] - seen[-1]                  # kernel values computed after the last chunk
    assert after <= 20 * m, (after, n_support)


def test_sparse_klr_max_time_returns_soon(recwarn):
    "SparseKLR(max_time=0.3) on m = 16,000: the O(m²) start alone takes seconds; the fit returns near the deadline."
    X, y = _problem(16000, seed=2)
    SparseKLR(max_time=5).fit(X[:300], y[:300])                          # compile outside the timed fit
    t = time.perf_counter()
    with pytest.warns(ConvergenceWarning, match="starting gradient"):
        est = SparseKLR(max_time=0.3).fit(X, y)
    elapsed = time.perf_counter() - t
    assert elapsed < 10, elapsed                     # (a loose bound: the warning says where it stopped, which is the point)
    assert est.status_ == ["deadline"] and np.all(np.isfinite(est.decision_function(X[:50])))


def _qsvm_data(m, n, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, n)); y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(m) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("name, rate, message", [
    ("QSVM", 1e5, r"QSVM: the eigendecomposition of the 65 x 65 matrix G and the rest of the fit take about \d+ s.*max_time.*L0QSVM"),
    ("L1QSVM", 1e4, r"L1QSVM: the Cholesky factorisations of the 65 x 65 matrix G and the rest of the fit take about \d+ s.*max_time.*L0QSVM"),
])
def test_a_factorisation_beyond_max_time_is_refused(monkeypatch, name, rate, message):
    "A machine of `rate` flop/s (patched) cannot factor G (d = 65) in 5 s: refused up front, with the estimate and a way out."
    import l0qsvm
    from l0qsvm import hinge_solvers
    monkeypatch.setattr(hinge_solvers, "_eigh_rate", lambda: rate, raising=False)
    monkeypatch.setattr(hinge_solvers, "_COST_MIN_D", 0, raising=False)
    X, y = _qsvm_data(60, 10)
    with pytest.raises(ValueError, match=message):
        getattr(l0qsvm, name)(max_time=5).fit(X, y)
    getattr(l0qsvm, name)().fit(X, y)                                    # no max_time: no clock estimate


def test_qsvm_refuses_a_factorisation_beyond_memory(monkeypatch):
    from l0qsvm import QSVM, hinge_solvers
    monkeypatch.setattr(hinge_solvers, "_available_memory", lambda: 1e5, raising=False)
    monkeypatch.setattr(hinge_solvers, "_MEM_CHECK_FROM", 0, raising=False)   # (d = 65: below the size it checks)
    X, y = _qsvm_data(60, 10)
    with pytest.raises(ValueError, match=r"need about .* GiB, more than .* available.*fewer features"):
        QSVM().fit(X, y)


def test_qsvm_wide_data_with_max_time_returns_at_once():
    "n = 100 (d = 5150), m = 60, max_time = 2: the d x d eigendecomposition alone takes far longer: refused before G is factored."
    from l0qsvm import QSVM
    from l0qsvm import hinge_solvers
    X, y = _qsvm_data(60, 100)
    def no_eigh(*a, **k): raise AssertionError("the eigendecomposition started")
    hinge_solvers._eigh_rate()                                             # (measured once, before the patch)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hinge_solvers.np.linalg, "eigh", no_eigh)
        with pytest.raises(ValueError, match="5150 x 5150"):             # refused up front: G is never factored
            QSVM(max_time=2).fit(X, y)


def test_l1qsvm_wide_data_with_max_time_keeps_its_budget():
    "n = 150 (d = 11,475), m = 200, max_time = 2: refused, or a fit within twice max_time plus a second."
    from l0qsvm import L1QSVM
    X, y = _qsvm_data(200, 150)
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore"); L1QSVM(max_time=2).fit(X, y)
    except ValueError as e:
        assert "11475 x 11475" in str(e)
    assert time.perf_counter() - t < 2 * 2 + 1


@pytest.mark.parametrize("name", ["QSVM", "L1QSVM", "L0QSVM"])
def test_many_samples_keep_the_budget_or_are_refused(name):
    "m = 60,000, n = 20 (R: 60,000 x 230), max_time = 0.2: refused after timing R, or a fit within twice max_time plus a second."
    import l0qsvm
    from l0qsvm.build import compile_all
    compile_all()                                                        # compiled code loaded first: the clock is the fit's
    X, y = _qsvm_data(60_000, 20)
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore"); getattr(l0qsvm, name)(max_time=0.2).fit(X, y)
    except ValueError as e:
        assert "passes over the 60000 x 230 features" in str(e) and "subsample" in str(e), str(e)
    assert time.perf_counter() - t < 2 * 0.2 + 1


def test_the_lambda_bound_keeps_the_budget_or_is_refused():
    "lam_scale='bound' sums the m x m kernel (m = 40,000): refused after its first block, or done within the budget."
    from l0qsvm import SparseKLR
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40_000, 5)); y = np.where(X[:, 0] > 0, 1, -1)
    from l0qsvm.build import compile_all
    compile_all()                                                        # compiled code loaded first
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore"); SparseKLR(lam_scale="bound", max_time=0.3).fit(X, y)
    except ValueError as e:
        assert "lam_scale='bound' sums the 40000 x 40000 kernel matrix" in str(e) and "lam_scale='absolute'" in str(e), str(e)
    assert time.perf_counter() - t < 2 * 0.3 + 1
