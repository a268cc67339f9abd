"""Fit time of `l0qsvm.smo.smo_solve` against scikit-learn's SVC (LIBSVM) on the same C-SVM duals, timed in one run.

Kernel grid (the RESULT line): white wine quality (UCI 186, `$L0QSVM_DATA_DIR/winequality-white.csv`), label
quality >= 6 vs < 6, standardised; m in {1000, 4000, 16000} x C in {1, 10, 100}; RBF with gamma = 1/n_features for
both solvers, tol = 1e-3, shrinking on, a 200 MB column cache each (LIBSVM's default; LIBSVM stores float32, we store
float64). The file has 4,898 rows: for m = 16000 the rows beyond them are drawn with replacement and jittered by
N(0, 0.1^2) in standardised units (the same problem for both solvers). Our time includes building the `KernelQ`
(cold column cache), as SVC's includes its kernel evaluations. The two solvers alternate within each repeat and the
medians are compared. The objectives are compared in the dual, alpha = |dual_coef_|, obj = ½ αᵀQα − Σα with
Q = yyᵀ∘K computed exactly (the cell fails if they differ by more than 1e-4 relative).

Low-rank table (the quadratic-surface z-step route, `LowRankQ`, Q = VVᵀ with V = Y R / sqrt(m) and R the 77
quadratic features of 11 inputs): the same dual is LIBSVM's linear kernel on the rows y_i V_i, so SVC(kernel="linear")
is the baseline; cold solves (m = 1000, 4000; C = 1, 10), then a warm re-solve after a small change of p, as the
penalty loop does (ours from the previous solution; LIBSVM cannot warm-start).

Also printed per cell: steps (ours / LIBSVM's), our column requests, cache hit rate and kernel values computed.
Last line: `RESULT smo_vs_libsvm ratio=X target=1.0`, X = min over the kernel grid of LIBSVM time / our time.
Usage: python bench/smo_vs_libsvm.py [--repeats N] [--sizes 1000,4000,16000] [--Cs 1,10,100]
"""
import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from l0qsvm.smo import KernelQ, LowRankQ, smo_solve

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("L0QSVM_DATA_DIR", ROOT.parent / "shared" / "datasets"))


def load(m, seed=0):
    "m rows of white wine (with jittered repeats beyond the file's 4,898), standardised; labels quality >= 6."
    df = pd.read_csv(DATA / "winequality-white.csv", sep=";")
    X = StandardScaler().fit_transform(df.drop(columns="quality").to_numpy(float))
    y = np.where(df["quality"].to_numpy() >= 6, 1.0, -1.0)
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))[:m]
    X_m, y_m = X[idx], y[idx]
    if m > len(y):
        extra = rng.integers(0, len(y), m - len(y))
        X_m = np.vstack([X_m, X[extra] + 0.1 * rng.standard_normal((len(extra), X.shape[1]))])
        y_m = np.r_[y_m, y[extra]]
    return StandardScaler().fit_transform(X_m), y_m


def dual_objective(X, y, svc, kernel):
    "½ αᵀQα − Σα at LIBSVM's solution, Q = yyᵀ∘K, computed in blocks (exact float64)."
    sv, a = svc.support_, np.abs(svc.dual_coef_[0])
    Xs, ya = X[sv], a * y[sv]
    quad = 0.0
    for s in range(0, len(sv), 2000):
        quad += ya[s:s + 2000] @ kernel(Xs[s:s + 2000], Xs) @ ya
    return 0.5 * quad - a.sum()


def rbf(gamma):
    def k(A, B):
        d = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
        return np.exp(-gamma * np.maximum(d, 0))
    return k


def timed(fit):
    t = time.perf_counter(); out = fit(); return time.perf_counter() - t, out


def kernel_grid(sizes, Cs, repeats):
    print(f"data: {DATA / 'winequality-white.csv'} (quality >= 6 vs < 6, standardised), RBF, gamma = 1/11, tol = 1e-3")
    print(f"{'m':>6} {'C':>4} {'libsvm_s':>9} {'ours_s':>8} {'ratio':>6} {'lib_it':>7} {'our_it':>7} "
          f"{'requests':>9} {'hit_rate':>8} {'kernel_vals':>12} {'rel_obj_diff':>12}")
    ratios = []
    for m in sizes:
        X, y = load(m)
        gamma = 1.0 / X.shape[1]
        reps = repeats if m <= 4000 else max(1, repeats // 2)
        for C in Cs:
            t_lib, t_our = [], []
            for _ in range(reps):                       # alternate the two solvers
                t, svc = timed(lambda: SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-3).fit(X, y)); t_lib.append(t)
                op = None
                def ours():
                    nonlocal op
                    op = KernelQ(X, y, gamma=gamma)
                    return smo_solve(op, -np.ones(m), y, C, tol=1e-3)
                t, res = timed(ours); t_our.append(t)
            obj_lib = dual_objective(X, y, svc, rbf(gamma))
            obj_our = 0.5 * (res.alpha * y) @ sum_kernel(X, res.alpha * y, gamma) - res.alpha.sum()
            rel = abs(obj_our - obj_lib) / abs(obj_lib)
            lib, our = float(np.median(t_lib)), float(np.median(t_our))
            ratios.append(lib / our)
            st = op.cache_stats()
            print(f"{m:6d} {C:4.0f} {lib:9.3f} {our:8.3f} {lib / our:6.2f} {svc.n_iter_[0]:7d} {res.n_iter:7d} "
                  f"{st['requests']:9d} {st['hit_rate']:8.3f} {st['kernel_values']:12d} {rel:12.1e}", flush=True)
            assert res.converged and rel < 1e-4, "objectives differ"
    return min(ratios)


def sum_kernel(X, v, gamma):
    "K v for the RBF kernel, in blocks (exact float64, independent of both solvers)."
    k = rbf(gamma)
    return np.concatenate([k(X[s:s + 2000], X) @ v for s in range(0, len(X), 2000)])


def lowrank_table(repeats):
    print("\nlow-rank route: LowRankQ(V), V = Y R / sqrt(m), R = 77 quadratic features; LIBSVM: linear kernel on y_i V_i")
    print(f"{'m':>6} {'C':>4} {'libsvm_s':>9} {'ours_s':>8} {'ratio':>6} {'warm_s':>8} {'warm_it':>7} {'cold_it':>7} "
          f"{'rel_obj_diff':>12}")
    ratios = []
    for m in (1000, 4000):
        X, y = load(m)
        iu = np.triu_indices(X.shape[1])
        R = np.hstack([(X[:, :, None] * X[:, None, :])[:, iu[0], iu[1]], X])
        V = y[:, None] * R / np.sqrt(m)
        for C in (1.0, 10.0):
            t_lib, t_our, t_warm = [], [], []
            p2 = -np.ones(m) + 1e-3 * np.random.default_rng(1).standard_normal(m)
            for _ in range(repeats):
                t, svc = timed(lambda: SVC(C=C, kernel="linear", tol=1e-3).fit(y[:, None] * V, y)); t_lib.append(t)
                op = LowRankQ(V)
                t, res = timed(lambda: smo_solve(op, -np.ones(m), y, C, tol=1e-3)); t_our.append(t)
                t, warm = timed(lambda: smo_solve(op, p2, y, C, tol=1e-3, alpha0=res.alpha)); t_warm.append(t)
            a = np.zeros(m); a[svc.support_] = np.abs(svc.dual_coef_[0])
            obj_lib = 0.5 * np.sum((V.T @ a) ** 2) - a.sum()
            rel = abs(res.obj - obj_lib) / abs(obj_lib)
            lib, our, wrm = (float(np.median(t)) for t in (t_lib, t_our, t_warm))
            ratios.append(lib / our)
            print(f"{m:6d} {C:4.0f} {lib:9.3f} {our:8.3f} {lib / our:6.2f} {wrm:8.4f} {warm.n_iter:7d} {res.n_iter:7d} "
                  f"{rel:12.1e}", flush=True)
            assert res.converged and warm.converged and rel < 1e-4, "objectives differ"
    return min(ratios)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sizes", default="1000,4000,16000")
    ap.add_argument("--Cs", default="1,10,100")
    ap.add_argument("--no-lowrank", action="store_true")
    args = ap.parse_args()
    Xw, yw = load(300)
    smo_solve(KernelQ(Xw, yw, gamma=0.1), -np.ones(300), yw, 1.0)          # numba: load the compiled code
    smo_solve(LowRankQ(Xw), -np.ones(300), yw, 1.0)
    worst = kernel_grid([int(s) for s in args.sizes.split(",")], [float(c) for c in args.Cs.split(",")], args.repeats)
    if not args.no_lowrank:
        low = lowrank_table(args.repeats)
        print(f"low-rank route: worst ratio {low:.2f} (LIBSVM linear kernel time / ours)")
    print(f"RESULT smo_vs_libsvm ratio={worst:.3f} target=1.0")


if __name__ == "__main__":
    main()
