"""The swap search's deciders (06a) against what the search does without them, in the same run.

Every cell where the decider applies (hinge loss, k > IP_MAX_TERMS = 15, m below PRIMAL_ROUTE_RATIO (k + 1)): seven
UCI data sets at k = 2n or near it, a few at C = 100 too. Data: standardised on the training part of a stratified
70/30 split (random_state 0 and 1), binary labels as in `tests` (first class against the rest; red wine: quality >= 6).
Timed: the whole `L0QSVM(k, C).fit`, median of `--repeats` runs each, the two variants interleaved so that both see
the same machine. With the deciders, `SwapDecider` answers the single-swap questions (in the compiled loop
`ask_swaps`), the batch exchanges (`ask`) and the warm first fit. The baseline is the same code with them switched off
(`swap.DECIDE_MAX_M = 0`): every question then goes to `dual_ascent` (06a), which may answer "no", and otherwise to
`support_fit`. (Before `dual_ascent` existed, the baseline was one `support_fit` per question: geometric mean 1.89,
worst cell 1.09 on this grid. With `dual_ascent` in the baseline and single-swap questions only for the decider: 1.41
and 0.93.) Both end with both certificates; they may end at different certified local optima (different multipliers lead
the search down different paths), so the objectives are printed beside the times.

Last line: `RESULT swap_search ratio=X target=1.0`, X = the worst cell of (baseline time / decider time).
Usage: python bench/swap_search.py [--repeats N]
"""
import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import l0qsvm.swap as swap
from l0qsvm import L0QSVM, load_dataset

TARGET = 1.0
CELLS = [("breast_cancer", 30, 10.0), ("breast_cancer", 60, 10.0), ("breast_cancer", 30, 100.0),
         ("winequality-red", 22, 10.0), ("winequality-red", 17, 100.0), ("ionosphere", 20, 10.0),
         ("ionosphere", 68, 10.0), ("ionosphere", 40, 100.0), ("german", 48, 10.0), ("australian", 28, 10.0),
         ("pima", 16, 10.0), ("heart", 26, 10.0), ("heart", 26, 100.0)]


def binary(name, target):
    t = np.asarray(target)
    return (t >= 6).astype(int) if name == "winequality-red" else (t == np.unique(t)[0]).astype(int)


def fit(X, y, k, C, decider):
    keep = swap.DECIDE_MAX_M
    swap.DECIDE_MAX_M = keep if decider else 0
    try:
        t0 = time.perf_counter(); est = L0QSVM(k, C=C).fit(X, y); dt = time.perf_counter() - t0
    finally:
        swap.DECIDE_MAX_M = keep
    cert = est.swap_certificate_[0]
    assert cert["passed"] and est.certificate_[0]["passed"], (k, C, cert)
    return dt, cert["objective"], cert["n_fits"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    L0QSVM(16, C=1.0).fit(rng.standard_normal((60, 6)), np.tile([0, 1], 30))   # numba: load the compiled code
    worst, ratios = np.inf, []
    print(f"{'cell':34s} {'support_fit':>12s} {'decider':>10s} {'ratio':>6s}  objectives (support_fit / decider), fits")
    for name, k, C in CELLS:
        data = load_dataset(name); X, y = np.asarray(data.data, float), binary(name, data.target)
        for seed in (0, 1):
            Xa, _, ya, _ = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            Xa = StandardScaler().fit_transform(Xa)
            runs = {True: [], False: []}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(args.repeats):
                    for decider in (False, True): runs[decider].append(fit(Xa, ya, k, C, decider))
            t_base, t_new = (float(np.median([r[0] for r in runs[v]])) for v in (False, True))
            ratio = t_base / t_new; worst = min(worst, ratio); ratios.append(ratio)
            (_, f_base, n_base), (_, f_new, n_new) = runs[False][0], runs[True][0]
            print(f"{name + f'/{seed} k={k} C={C:g}':34s} {t_base * 1e3:10.1f}ms {t_new * 1e3:8.1f}ms {ratio:6.2f}  "
                  f"{f_base:.4f} / {f_new:.4f}, {n_base} / {n_new}", flush=True)
    print(f"geometric mean of the ratios {np.exp(np.mean(np.log(ratios))):.2f} over {len(ratios)} cells")
    print(f"RESULT swap_search ratio={worst:.2f} target={TARGET}")


if __name__ == "__main__":
    main()
