"""The compiled engine (`l0qsvm.smo`) against the plain SMO of `02_smo_basics` (`l0qsvm.smo_basics`), and the
bookkeeping of the compiled engine's solver order (swaps, cache rows, float32 columns).

Same objective on seeded random problems (RBF, linear, low-rank and dense Q; scalar and vector C; both rules of the
plain version), the solver order a permutation whose cached columns stay equal to Q.
"""

import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel

from l0qsvm.smo import KernelQ, LowRankQ, max_violation, smo_solve
from l0qsvm.smo_basics import kkt_gap, plain_smo, second_order_pair


def problem(seed):
    "Seeded QP: (operator for smo_solve, dense Q, p, y, C, kind)."
    rng = np.random.default_rng(7000 + seed)
    m = int(rng.integers(4, 90)); X = rng.standard_normal((m, int(rng.integers(1, 5))))
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0); y[:2] = 1.0, -1.0
    kind = ["rbf", "linear", "lowrank", "dense", "poly"][seed % 5]
    C = 10.0 ** rng.uniform(-1, 2, m) if seed % 3 == 0 else float(10.0 ** rng.integers(-2, 3))
    p = -np.ones(m)
    if kind == "rbf": op = KernelQ(X, y, gamma=float(rng.uniform(0.1, 3)))
    elif kind == "linear": op = KernelQ(X, y, "linear")
    elif kind == "poly": op = KernelQ(X, y, "poly", gamma=0.5, degree=2, coef0=1.0)
    elif kind == "lowrank":
        op = LowRankQ(rng.standard_normal((m, int(rng.integers(1, 4))))); p = p + 0.5 * rng.standard_normal(m)
    else: op = np.outer(y, y) * rbf_kernel(X, gamma=1.0)
    Q = op if isinstance(op, np.ndarray) else op.to_dense()
    return op, Q, p, y, C, kind


@pytest.mark.parametrize("seed", range(40))
def test_compiled_equals_plain(seed):
    op, Q, p, y, C, kind = problem(seed)
    fast = smo_solve(op, p, y, C, tol=1e-9)
    plain = plain_smo(Q, p, y, C, tol=1e-9)
    assert fast.converged
    assert abs(fast.obj - plain.obj) <= 1e-9 * max(1.0, abs(plain.obj)), (kind, fast.obj, plain.obj)
    g = Q @ fast.alpha + p
    assert max_violation(fast.alpha, g, y, 0, C) < 1e-9 + 1e-13 * (np.abs(Q) @ fast.alpha + np.abs(p)).max()
    assert kkt_gap(plain.alpha, Q @ plain.alpha + p, y, C) < 1e-9


@pytest.mark.parametrize("seed", range(10))
def test_first_order_rule_same_objective(seed):
    "The first-order rule of the plain version reaches the same optimum (it only takes more steps)."
    op, Q, p, y, C, kind = problem(seed)
    first, fast = plain_smo(Q, p, y, C, rule="first", tol=1e-9), smo_solve(op, p, y, C, tol=1e-9)
    assert abs(first.obj - fast.obj) <= 1e-9 * max(1.0, abs(fast.obj))


def test_same_first_pair_as_plain():
    "From α = 0 the compiled loop's first step is the plain WSS3 pair (same α after one step)."
    for seed in range(10):
        op, Q, p, y, C, kind = problem(seed)
        one = smo_solve(op, p, y, C, max_iter=1)
        Cv = np.broadcast_to(C, p.shape)
        i, j = second_order_pair(Q, p.copy(), np.zeros(len(p)), y, Cv)
        changed = set(np.flatnonzero(one.alpha))
        assert changed <= {i, j}, (seed, changed, (i, j))


@pytest.mark.parametrize("seed", range(6))
def test_solver_order_and_cache_rows(seed):
    "After solves with shrinking, the order is a permutation and every cached column holds Q on its computed rows."
    rng = np.random.default_rng(seed)
    m = 400
    X = rng.standard_normal((m, 3)); y = np.where(X[:, 0] + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    op = KernelQ(X, y, gamma=0.5, cache_mb=0.5 if seed % 2 else 200.0)
    Q = np.outer(y, y) * rbf_kernel(X, gamma=0.5)
    for C in (0.1, 10.0):
        res = smo_solve(op, -np.ones(m), y, C, tol=1e-6)
        assert res.converged and max_violation(res.alpha, Q @ res.alpha - 1, y, 0, C) < 1e-6 + 1e-10
    cache = op._columns()
    o = cache.perm
    np.testing.assert_array_equal(np.sort(o), np.arange(m))
    for r in range(cache.clock[0]["slots"]):
        j, L = cache.owner[r], cache.length[r]
        assert cache.slot_of[j] == r
        np.testing.assert_allclose(cache.buf[r, :L], Q[o[j], o[:L]], atol=1e-14)
    for j in range(0, m, 37):
        np.testing.assert_allclose(op.column(j), Q[j], atol=1e-14)


@pytest.mark.slow
def test_float32_columns_close_to_float64():
    "float32 columns (LIBSVM's storage) give the same objective to ~1e-6 relative at LIBSVM's tolerance."
    rng = np.random.default_rng(3)
    X = rng.standard_normal((800, 4)); y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(800) > 0, 1.0, -1.0)
    r64 = smo_solve(KernelQ(X, y, gamma=0.5), -np.ones(800), y, 10.0, tol=1e-3)
    r32 = smo_solve(KernelQ(X, y, gamma=0.5, dtype=np.float32), -np.ones(800), y, 10.0, tol=1e-3)
    assert r32.converged and abs(r32.obj - r64.obj) <= 1e-5 * abs(r64.obj)
    with pytest.raises(ValueError, match="dtype"): KernelQ(X, y, dtype=np.int64)
