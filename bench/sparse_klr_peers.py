"""Fit time of `SparseKLR` against the other sparse kernel logistic models, `IVM` and `L12KLR`, at equal accuracy.

Data: the eleven data sets of the comparison in `nbs/12a_sklr_comparison.ipynb` (the ten binary UCI sets of the
project, `$L0QSVM_DATA_DIR`, and breast cancer), each split as the first outer fold of that comparison
(`protocol_splits`, seed 0): the model is fitted on the training part (4/5 of the data, standardised on it) and
scored on the test fold. RBF kernel with gamma="scale" for every model;
S-KLR with probability=False (its fit, without the five fits that calibrate predict_proba).

The four kernel models are fitted on the same data: `KLR` (C = 10) sets the accuracy to reach, its test accuracy
minus 0.01. Each sparse model runs over its grid of the comparison (S-KLR: C in {0.1, ..., 1000} times
lam / lambda_P1 in {0, 1e-4, ..., 1e-1}; IVM: the same C; L12KLR: k / m in {0.01, ..., 0.4}), one fit per setting;
among the settings that reach the accuracy it keeps the sparsest (fewest training points kept; ties: the faster), as the
comparison's selection rule does, and that setting is then timed again, the three models interleaved, the median of `--repeats` full estimator fits (input validation, kernel, solver), each on one
BLAS thread. S-KLR always has a setting that reaches it (lam = 0 is KLR); a peer that has none counts as infinitely
slow on that data set.

The table reports, per data set, the setting each model keeps, its test accuracy, the fraction of training points it
keeps and its median fit time; the last column is min(IVM time, L12KLR time) / S-KLR time.

Last line: `RESULT sparse_klr_peers ratio=X target=1.0`, X = that ratio on the worst data set (target: S-KLR at
least as fast as the fastest of its sparse peers at equal accuracy). The geometric mean over the data sets is
printed above it.
Usage: python bench/sparse_klr_peers.py [--repeats N] [--datasets NAME ...]
"""
import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from l0qsvm import KLR
from l0qsvm.experiments import paper_data, protocol_splits
from l0qsvm.sklr_comparison import COMPARISON_DATASETS, build_method, fraction_kept, method_grid

PEERS = ("sklr", "ivm", "l12klr")


def timed_fit(method, setting, X, y):
    est = build_method(method, setting)
    if method == "sklr": est.set_params(probability=False)     # the model's fit, without the calibration of predict_proba
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        t = time.perf_counter(); est.fit(X, y); seconds = time.perf_counter() - t
    return est, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--datasets", nargs="*", default=list(COMPARISON_DATASETS))
    args = ap.parse_args()
    X0, y0 = paper_data("breast_cancer")[:2]
    for m in PEERS: timed_fit(m, method_grid(m, quick=True)[0], StandardScaler().fit_transform(X0[:100]), y0[:100])  # numba
    print(f"first outer fold of the comparison (seed 0), RBF gamma='scale'; accuracy to reach: KLR(C=10)'s - 0.01; "
          f"each model's sparsest setting that reaches it; median of {args.repeats} fits, one BLAS thread")
    print(f"{'data set':<14}{'m':>5} {'target':>6} | " + " | ".join(f"{m + ' setting':<26}{'acc':>6}{'kept':>6}{'s':>8}"
                                                               for m in PEERS) + f" | {'peers/SKLR':>10}")
    ratios = {}
    for name in args.datasets:
        X, y = paper_data(name)[:2]
        train, val, test = protocol_splits(y, 5, 0, name)[0]
        part = np.sort(np.concatenate([train, val]))
        sc = StandardScaler().fit(X[part]); Xtr, Xte, ytr, yte = sc.transform(X[part]), sc.transform(X[test]), y[part], y[test]
        target = KLR(C=10.0).fit(Xtr, ytr).score(Xte, yte) - 0.01
        chosen = {}
        for m in PEERS:
            reach = []
            for s in method_grid(m):
                est, sec = timed_fit(m, s, Xtr, ytr)
                if est.score(Xte, yte) >= target - 1e-12: reach.append((fraction_kept(est, len(ytr)), sec, s))
            chosen[m] = min(reach, key=lambda t: t[:2])[2] if reach else None
        times = {m: [] for m in PEERS}
        fitted = {}
        for _ in range(args.repeats):                                   # the kept settings, interleaved
            for m in PEERS:
                if chosen[m] is None: continue
                fitted[m], sec = timed_fit(m, chosen[m], Xtr, ytr); times[m].append(sec)
        med = {m: float(np.median(times[m])) if times[m] else np.inf for m in PEERS}
        ratios[name] = min(med["ivm"], med["l12klr"]) / med["sklr"]
        cells = []
        for m in PEERS:
            if chosen[m] is None: cells.append(f"{'(none reaches it)':<26}{'':>6}{'':>6}{'inf':>8}"); continue
            est = fitted[m]
            setting = ", ".join(f"{k}={v:.4g}" for k, v in chosen[m].items())
            cells.append(f"{setting:<26}{est.score(Xte, yte):>6.3f}{fraction_kept(est, len(ytr)):>6.3f}{med[m]:>8.3f}")
        print(f"{name:<14}{len(ytr):>5} {target:>6.3f} | " + " | ".join(cells) + f" | {ratios[name]:>10.2f}")
    finite = [r for r in ratios.values() if np.isfinite(r)]
    worst = min(ratios, key=ratios.get)
    print(f"geometric mean of min(IVM, L12KLR) / S-KLR over {len(finite)} data sets: {np.exp(np.mean(np.log(finite))):.2f}; "
          f"worst: {worst} ({ratios[worst]:.2f})")
    print(f"RESULT sparse_klr_peers ratio={ratios[worst]:.3f} target=1.0")


if __name__ == "__main__":
    main()
