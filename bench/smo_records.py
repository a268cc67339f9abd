"""Does grouping the solver's state into one record (`l0qsvm.smo.SMOState`) cost speed against loose arrays?

The compiled functions of `l0qsvm.smo` take two records (the state `S` and the column cache `Q`) instead of some
thirty positional arrays. This times the hottest loop, WSS3's pass over the active variables (`_select_j`), written
once reading the record (`S.y[t]`, `S.G[t]`, ...) and once, with the same body, taking the arrays as arguments,
on the state of a real solve (RBF C-SVM, m = 4000 random points, after 3000 steps), best of 15 repeats of 2000 calls
each, both measured in this run. Both must pick the same j.

Last line: `RESULT smo_records ratio=X target=0.95`, X = loose-array time / record time (1 = no cost).
Usage: python bench/smo_records.py
"""
import time

import numpy as np
from numba import njit

import l0qsvm.smo as smo

LOW = smo.LOW


@njit(inline="always")
def select_j_loose(y, G, st, Q_diag, h, i, Gmax, Q_i, n, tau):
    "`_select_j` of l0qsvm.smo with the state's arrays as arguments (same body)."
    Gmax2 = -np.inf; j = -1; gain = 0.0
    yi = y[i]; base = Q_diag[i] + h[i]
    for t in range(n):
        if (st[t] & LOW) != 0:
            v = y[t] * G[t]
            Gmax2 = max(Gmax2, v)
            b = Gmax + v
            if b > 0.0:
                a = base + Q_diag[t] + h[t] - 2.0 * yi * y[t] * Q_i[t]
                a = a if a > 0.0 else tau
                if b * b > gain * a: gain = b * b / a; j = t
    return j, Gmax2


@njit
def passes_record(S, Q, n, k):
    i, Gmax = smo._select_i(S, n); Q_i = smo.get_Q(Q, i, n); acc = 0
    for _ in range(k): j, _ = smo._select_j(S, i, Gmax, Q_i, n, 1e-12); acc += j
    return acc


@njit
def passes_loose(S, y, G, st, Q_diag, h, Q, n, k):
    i, Gmax = smo._select_i(S, n); Q_i = smo.get_Q(Q, i, n); acc = 0
    for _ in range(k): j, _ = select_j_loose(y, G, st, Q_diag, h, i, Gmax, Q_i, n, 1e-12); acc += j
    return acc


def main():
    rng = np.random.default_rng(0)
    m, C = 4000, 10.0
    X = rng.standard_normal((m, 8)); y = np.where(X[:, 0] * X[:, 1] + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    op = smo.KernelQ(X, y, gamma=0.2); Q = op._columns()
    S = smo._new_state(Q.perm, -np.ones(m), y, np.zeros(m), np.full(m, C), np.zeros(m), op.diag(), np.full(m, C))
    smo._init_gradient(S, Q, False)
    smo._solve(S, Q, False, False, 1e-3, smo.TAU, 3000)
    args_loose = (S, S.y, S.G, S.st, S.Q_diag, S.h, Q, m)
    assert passes_record(S, Q, m, 1) == passes_loose(*args_loose, 1)
    best = {"record": np.inf, "loose": np.inf}
    for _ in range(15):
        t = time.perf_counter(); passes_record(S, Q, m, 2000); best["record"] = min(best["record"], time.perf_counter() - t)
        t = time.perf_counter(); passes_loose(*args_loose, 2000); best["loose"] = min(best["loose"], time.perf_counter() - t)
    for name, t in best.items():
        print(f"{name:>7}: {t / 2000 * 1e6:.2f} us per WSS3 pass over m = {m}")
    print(f"RESULT smo_records ratio={best['loose'] / best['record']:.3f} target=0.95")


if __name__ == "__main__":
    main()
