"""L0QSVM (Algorithm 1 as implemented in `l0qsvm.penalty`) against a straightforward implementation of the same
Algorithm 1: G rebuilt naively from the per-sample matrices H_i, and every z-subproblem solved from scratch as a
primal QP with cvxopt.

Same data (standardised scikit-learn wine, class 0 vs rest, and breast cancer, 30 features), Algorithm 1 as printed
(`refine=None`: the default swap search of L0QSVM is not part of the comparison), same
hyper-parameters (k, C, rho0, beta, eps_inner, eps_outer, caps, polish), hinge loss. The final objectives must agree
to 1e-4 relative. Prints one line per data set and ends with `RESULT l0qsvm_vs_naive ratio=X target=100`, X being
the speed-up on breast cancer.

Run: python bench/l0qsvm_vs_naive.py
"""
import time

import cvxopt
import numpy as np
from cvxopt import solvers
from scipy import sparse
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.preprocessing import StandardScaler

from l0qsvm.penalty import _RHO0_REL
from l0qsvm.swap import fit_l0qsvm

K, C = 5, 1.0
BETA, EPS_I, EPS_O, MAX_INNER, MAX_OUTER = 5.0, 1e-4, 1e-3, 100, 50
TARGET = 100


# ----------------------------------------------------------------------------------------------- the naive baseline
def duplication(n):
    "D_n with vec(A) = D_n hvec(A), hvec = column-major lower triangle."
    cols, rows = np.triu_indices(n)
    D = np.zeros((n * n, rows.size))
    for h, (i, j) in enumerate(zip(rows, cols)):
        D[i + j * n, h] = 1.0
        D[j + i * n, h] = 1.0
    return D


def naive_features_and_gram(X):
    "r_i = [1/2 D_n^T (x_i kron x_i); x_i] and G = 2 sum_i H_i^T H_i with H_i = [(I kron x_i^T) D_n, I], sample by sample."
    m, n = X.shape
    D = duplication(n)
    d = D.shape[1] + n
    R = np.zeros((m, d))
    G = np.zeros((d, d))
    for i in range(m):
        x = X[i]
        R[i] = np.concatenate([0.5 * D.T @ np.kron(x, x), x])
        H = np.hstack([np.kron(np.eye(n), x[None, :]) @ D, np.eye(n)])
        G += 2.0 * H.T @ H
    return R, G


def naive_objective(G, R, y, z, c):
    return 0.5 * z @ G @ z + C * np.maximum(0.0, 1.0 - y * (R @ z + c)).sum()


def naive_zstep(G, R, y, rho, u, J=None):
    "argmin_{z,c,xi} 1/2 z^T (G + rho I) z - rho u^T z + C 1^T xi, margins, xi >= 0; cvxopt from scratch."
    m, d = R.shape
    if J is not None:                                 # restricted to the support J (the polish)
        G, R, u = G[np.ix_(J, J)], R[:, J], u[J]
        d = len(J)
    N = d + 1 + m
    P = np.zeros((N, N)); P[:d, :d] = G + rho * np.eye(d)
    q = np.zeros(N); q[:d] = -rho * u; q[d + 1:] = C
    Gi = np.vstack([np.hstack([-y[:, None] * R, -y[:, None], -np.eye(m)]),
                    np.hstack([np.zeros((m, d + 1)), -np.eye(m)])])
    h = np.concatenate([-np.ones(m), np.zeros(m)])
    sol = solvers.qp(cvxopt.matrix(P), cvxopt.matrix(q), cvxopt.matrix(Gi), cvxopt.matrix(h),
                     options=dict(show_progress=False))
    x = np.array(sol["x"]).ravel()
    return x[:d], float(x[d])


def naive_top_k(z, k):
    J = np.sort(np.argsort(-np.abs(z), kind="stable")[:k])
    u = np.zeros_like(z); u[J] = z[J]
    return u, J


def naive_best_intercept(f, y):
    "Brute force over all kinks of the hinge sum."
    cands = y - f
    vals = [np.maximum(0.0, 1.0 - y * (f + c)).sum() for c in cands]
    return float(cands[int(np.argmin(vals))])


def naive_l0qsvm(X, y, k):
    "Algorithm 1, step by step, with nothing reused between steps."
    R, G = naive_features_and_gram(X)
    m, d = R.shape
    rho = _RHO0_REL * np.trace(G) / d
    F = lambda z, c: naive_objective(G, R, y, z, c)
    z_feas = np.zeros(d); c_feas = naive_best_intercept(np.zeros(m), y)
    u = z_feas.copy(); z_prev = c_prev = None; upsilon = None; n_z = 0; J = np.arange(k)
    for j in range(MAX_OUTER):
        for l in range(MAX_INNER):
            z, c = naive_zstep(G, R, y, rho, u); n_z += 1
            if l == 0:
                q_min = F(z, c) + 0.5 * rho * np.sum((z - u) ** 2)
                if upsilon is None: upsilon = max(F(z_feas, c_feas), q_min)
                elif q_min > upsilon:
                    u = z_feas.copy(); z, c = naive_zstep(G, R, y, rho, u); n_z += 1
            u_new, J = naive_top_k(z, k)
            done = z_prev is not None and max(np.abs(z - z_prev).max() / max(np.abs(z).max(), 1.0),
                                              abs(c - c_prev) / max(abs(c), 1.0),
                                              np.abs(u_new - u).max() / max(np.abs(u_new).max(), 1.0)) <= EPS_I
            z_prev, c_prev, u = z, c, u_new
            if done: break
        if np.abs(z - u).max() <= EPS_O: break
        rho *= BETA
    c_u = naive_best_intercept(R @ u, y)
    zJ, cJ = naive_zstep(G, R, y, 0.0, np.zeros(d), J)            # polish on the support
    zp = np.zeros(d); zp[J] = zJ
    if F(zp, cJ) <= F(u, c_u): return zp, cJ, F(zp, cJ), n_z, J
    return u, c_u, F(u, c_u), n_z, J


# ----------------------------------------------------------------------------------------------------------- run
def datasets():
    Xw, tw = load_wine(return_X_y=True)
    yield "wine (class 0 vs rest)", StandardScaler().fit_transform(Xw), np.where(tw == 0, 1.0, -1.0)
    Xc, tc = load_breast_cancer(return_X_y=True)
    yield "breast cancer", StandardScaler().fit_transform(Xc), np.where(tc == 1, 1.0, -1.0)


def main():
    fit_l0qsvm(np.random.default_rng(0).standard_normal((20, 3)), np.tile([1.0, -1.0], 10), 2)   # JIT warm-up
    ratio = None
    for name, X, y in datasets():
        params = dict(loss="hinge", beta=BETA, eps_inner=EPS_I, eps_outer=EPS_O, max_inner=MAX_INNER,
                      max_outer=MAX_OUTER, polish=True, refine=None)   # Algorithm 1 as printed, like the baseline
        times = []
        for _ in range(3):
            t0 = time.perf_counter(); fit = fit_l0qsvm(X, y, K, C, **params); times.append(time.perf_counter() - t0)
        t_fast = float(np.median(times))
        t0 = time.perf_counter(); z_n, c_n, F_n, nz_n, J_n = naive_l0qsvm(X, y, K); t_naive = time.perf_counter() - t0
        rel = abs(fit.objective - F_n) / abs(F_n)
        ratio = t_naive / t_fast
        print(f"{name}: m={X.shape[0]} n={X.shape[1]} d={fit.z.size} k={K} C={C} | l0qsvm {t_fast:.3f} s "
              f"({fit.n_iter} z-steps) | naive {t_naive:.1f} s ({nz_n} z-steps) | ratio {ratio:.0f}x | "
              f"objective {fit.objective:.6f} vs {F_n:.6f} (rel {rel:.1e}) | same support {np.array_equal(fit.support, J_n)}",
              flush=True)
        assert rel <= 1e-4, f"objectives differ: {fit.objective} vs {F_n}"
    print(f"RESULT l0qsvm_vs_naive ratio={ratio:.1f} target={TARGET}")


if __name__ == "__main__":
    main()
