"""Fit time of `l0qsvm.smo.smo_solve` against scikit-learn's SVC (LIBSVM) on the same RBF C-SVM.

Data: white wine quality (UCI 186, `$L0QSVM_DATA_DIR/winequality-white.csv`), label quality >= 6 vs < 6,
the first m rows of a seeded permutation, standardised. Same C, gamma and tolerance for both solvers
(LIBSVM: default 200 MB cache, shrinking on). Our time includes building the `KernelQ` (cold column cache),
as SVC's includes its kernel evaluations. Medians over repeats, both measured in this run.

Objectives are compared in the dual: alpha = |dual_coef_|, obj = ½ αᵀQα − Σα with Q = yyᵀ∘K.
Then a warm start: after a small change of p (p = −1 + eps·noise) the problem is re-solved from α = 0 and from
the previous solution, with the same operator (its columns cached in both cases), so the ratio isolates the warm
start: for the RBF KernelQ and for a low-rank Q = V Vᵀ (r = 77 quadratic features) like the quadratic-surface
subproblem of the penalty loop.

Last line: `RESULT smo_vs_libsvm ratio=X target=0.5`, X = LIBSVM time / our time for m = 4000, C = 1.
Usage: python bench/smo_vs_libsvm.py [--repeats N]
"""
import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from l0qsvm.smo import KernelQ, LowRankQ, smo_solve

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("L0QSVM_DATA_DIR", ROOT.parent / "shared" / "datasets"))


def load(m, seed=0):
    df = pd.read_csv(DATA / "winequality-white.csv", sep=";")
    X = df.drop(columns="quality").to_numpy(float)
    y = np.where(df["quality"].to_numpy() >= 6, 1.0, -1.0)
    idx = np.random.default_rng(seed).permutation(len(y))[:m]
    return StandardScaler().fit_transform(X[idx]), y[idx]


def median_time(fit, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter(); out = fit(); times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    tol = 1e-3
    Xw, yw = load(200)
    smo_solve(KernelQ(Xw, yw, gamma=0.1), -np.ones(200), yw, 1.0)        # numba: load the compiled kernels
    print(f"data: {DATA / 'winequality-white.csv'}  (quality >= 6 vs < 6, standardised), RBF, tol={tol}")
    print(f"{'m':>5} {'C':>5} {'libsvm_s':>9} {'ours_s':>9} {'ratio':>6} {'libsvm_it':>9} {'ours_it':>8} "
          f"{'obj_libsvm':>16} {'obj_ours':>16} {'rel_diff':>9}")
    ratio_4000 = None
    for m in (1000, 4000):
        X, y = load(m)
        gamma = 1.0 / X.shape[1]
        K = rbf_kernel(X, gamma=gamma)
        Q = np.outer(y, y) * K
        for C in (1.0, 10.0):
            t_lib, svc = median_time(lambda: SVC(C=C, kernel="rbf", gamma=gamma, tol=tol).fit(X, y), args.repeats)
            t_our, res = median_time(lambda: smo_solve(KernelQ(X, y, gamma=gamma), -np.ones(m), y, C, tol=tol),
                                     args.repeats)
            a = np.zeros(m); a[svc.support_] = np.abs(svc.dual_coef_[0])
            obj_lib = 0.5 * a @ Q @ a - a.sum()
            rel = abs(res.obj - obj_lib) / abs(obj_lib)
            ratio = t_lib / t_our
            if m == 4000 and C == 1.0: ratio_4000 = ratio
            print(f"{m:5d} {C:5.0f} {t_lib:9.4f} {t_our:9.4f} {ratio:6.2f} {svc.n_iter_[0]:9d} {res.n_iter:8d} "
                  f"{obj_lib:16.6f} {res.obj:16.6f} {rel:9.1e}")
            assert res.converged and rel < 1e-4, "objectives differ"
    # warm start: a small change of p, re-solved from 0 and from the previous solution (same operator, so its
    # column cache is warm in both cases and the ratio isolates the warm start)
    X, y = load(4000); m = len(y); C = 1.0
    iu = np.triu_indices(X.shape[1])
    R = np.hstack([(X[:, :, None] * X[:, None, :])[:, iu[0], iu[1]], X])     # 77 quadratic features
    operators = [("KernelQ rbf", KernelQ(X, y, gamma=1.0 / X.shape[1])),
                 (f"LowRankQ r={R.shape[1]} (Y R / sqrt(m))", LowRankQ(y[:, None] * R / np.sqrt(m)))]
    for name, op in operators:
        print(f"warm start, m=4000, C=1, {name}: p = -1 + eps*N(0,1)")
        for eps in (1e-3, 1e-2):
            p2 = -np.ones(m) + eps * np.random.default_rng(1).standard_normal(m)
            cold_t, warm_t = [], []
            for _ in range(args.repeats):
                prev = smo_solve(op, -np.ones(m), y, C, tol=tol)                 # the previous solve (untimed)
                t = time.perf_counter(); warm = smo_solve(op, p2, y, C, tol=tol, alpha0=prev.alpha)
                warm_t.append(time.perf_counter() - t)
                t = time.perf_counter(); cold = smo_solve(op, p2, y, C, tol=tol); cold_t.append(time.perf_counter() - t)
            t_cold, t_warm = np.median(cold_t), np.median(warm_t)
            print(f"  eps={eps:g}: cold {t_cold:.4f} s ({cold.n_iter} it), warm {t_warm:.4f} s ({warm.n_iter} it), "
                  f"speed-up {t_cold / t_warm:.1f}x, obj rel diff {abs(cold.obj - warm.obj) / abs(cold.obj):.1e}")
    print(f"RESULT smo_vs_libsvm ratio={ratio_4000:.3f} target=0.5")


if __name__ == "__main__":
    main()
