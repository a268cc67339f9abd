"""Fit time of `SparseKLR` against scikit-learn's `SVC` (LIBSVM) and against `KLR`, same kernel, C and gamma.

Data: wine quality, red and white together (UCI 186, `$L0QSVM_DATA_DIR/winequality-{red,white}.csv`, 6497 rows),
label quality >= 6 vs < 6, the first m rows of a seeded permutation, standardised. RBF kernel with gamma="scale"
(1/(n Var X) = 1/11 here) for all three; C in {1, 10, 100}; SparseKLR with lam = C/2 (so C/lam = 2, the regime in
which S-KLR drops points once C is large enough); KLR is lam = 0 keeping every point; SparseKLR with probability=False, as SVC (no
cross-validated calibration of predict_proba). Every fit is a full estimator
`fit` (input validation, kernel columns from a cold cache, the solver) at its default tol = 1e-3 (LIBSVM: default
200 MB cache, shrinking on; ours: 200 MB column cache). Times are medians over repeats, all measured in this run,
the three methods interleaved.

The table also reports SMO steps, the fraction of training points each model keeps (SVC: support vectors) and the
training accuracy, for context.

Last line: `RESULT sklr_vs_svc ratio=X target=0.33`, X = SVC time / SparseKLR time in the worst cell of the grid
(target: SparseKLR at most 3x LIBSVM's time).
Usage: python bench/sklr_vs_svc.py [--repeats N] [--sizes 2000 5000] [--Cs 1 10 100]
"""
import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from l0qsvm import KLR, SparseKLR

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("L0QSVM_DATA_DIR", ROOT.parent / "shared" / "datasets"))


def load(m, seed=0):
    frames = [pd.read_csv(DATA / f"winequality-{c}.csv", sep=";") for c in ("red", "white")]
    df = pd.concat(frames, ignore_index=True)
    X = df.drop(columns="quality").to_numpy(float)
    y = np.where(df["quality"].to_numpy() >= 6, 1, 0)
    if m > len(y): raise ValueError(f"only {len(y)} rows available, asked for m={m}")
    idx = np.random.default_rng(seed).permutation(len(y))[:m]
    return StandardScaler().fit_transform(X[idx]), y[idx]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="*", default=[2000, 5000])
    ap.add_argument("--Cs", type=float, nargs="*", default=[1.0, 10.0, 100.0])
    args = ap.parse_args()
    Xw, yw = load(200)
    SparseKLR(lam=0.5, probability=False).fit(Xw, yw); KLR().fit(Xw, yw)                   # numba: load the compiled code
    print("data: wine quality red+white (quality >= 6 vs < 6, standardised), RBF gamma='scale', tol=1e-3; "
          f"median of {args.repeats}")
    print(f"{'m':>5} {'C':>5} {'lam':>5} | {'SVC_s':>7} {'KLR_s':>7} {'SKLR_s':>7} | {'SVC/SKLR':>8} {'SVC/KLR':>8} | "
          f"{'SVC_it':>7} {'KLR_it':>7} {'SKLR_it':>7} | {'SVC_kept':>8} {'SKLR_kept':>9} | "
          f"{'SVC_acc':>7} {'KLR_acc':>7} {'SKLR_acc':>8}")
    worst = np.inf
    for m in args.sizes:
        X, y = load(m)
        for C in args.Cs:
            lam = C / 2
            makers = {"SVC": lambda: SVC(C=C, kernel="rbf", gamma="scale"),
                      "KLR": lambda: KLR(C, kernel="rbf", gamma="scale"),
                      "SKLR": lambda: SparseKLR(C, lam, kernel="rbf", gamma="scale", probability=False)}
            times = {k: [] for k in makers}
            fitted = {}
            for _ in range(args.repeats):
                for name, make in makers.items():
                    est = make()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", ConvergenceWarning)
                        t = time.perf_counter(); est.fit(X, y); times[name].append(time.perf_counter() - t)
                    fitted[name] = est
            t = {k: float(np.median(v)) for k, v in times.items()}
            svc, klr, sk = fitted["SVC"], fitted["KLR"], fitted["SKLR"]
            assert klr.status_ == ["converged"] and sk.status_ == ["converged"], (klr.status_, sk.status_)
            ratio = t["SVC"] / t["SKLR"]
            worst = min(worst, ratio)
            print(f"{m:5d} {C:5g} {lam:5g} | {t['SVC']:7.3f} {t['KLR']:7.3f} {t['SKLR']:7.3f} | {ratio:8.2f} "
                  f"{t['SVC'] / t['KLR']:8.2f} | {int(svc.n_iter_[0]):7d} {int(klr.n_iter_[0]):7d} {int(sk.n_iter_[0]):7d} | "
                  f"{svc.n_support_.sum() / m:8.3f} {1 - sk.fraction_dropped_:9.3f} | "
                  f"{svc.score(X, y):7.3f} {klr.score(X, y):7.3f} {sk.score(X, y):8.3f}", flush=True)
    print(f"RESULT sklr_vs_svc ratio={worst:.3f} target=0.33")


if __name__ == "__main__":
    main()
