"""The swap search's accelerations (06a, appendix) against the search as derived, in the same run.

The accelerations: questions about a support one swap away answered by smo.py's engine on a rank-two update of the
current dual (`SupportDual`), many of them in one compiled loop, and a cheap "no" by projected-gradient ascent first.
The baseline is `swap_refine(..., fast=False)`: every question is its own `support_fit` (the interior point or a fresh
SMO dual, by the route rule). Both start from the same screened support and must end certified; they may end at
different certified local optima (different multipliers can lead the search down different paths), so the
objectives are printed beside the times.

Cells: seven UCI data sets at k = 2n or near it (where SMO answers the questions: k > 15, not tall), C = 10 and a few
at C = 100. Data: standardised on the training part of a stratified 70/30 split (random_state 0), binary labels as in
`tests` (first class against the rest; red wine: quality >= 6). Timed: `swap_refine` from the screen start, the
minimum of `--repeats` runs each, the two variants interleaved so that both see the same machine.

Last line: `RESULT swap_search ratio=X target=1.0`, X = the worst cell of (baseline time / accelerated time).
Usage: python bench/swap_search.py [--repeats N]
"""
import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from l0qsvm import load_dataset
from l0qsvm.features import gram_matrix, quadratic_features
from l0qsvm.hinge_solvers import blas_threads
from l0qsvm.swap import screen_terms, swap_refine
from l0qsvm.fast_swap import support_fit

TARGET = 1.0
CELLS = [("breast_cancer", 30, 10.0), ("breast_cancer", 60, 10.0), ("breast_cancer", 30, 100.0),
         ("winequality-red", 22, 10.0), ("ionosphere", 20, 10.0), ("ionosphere", 68, 10.0), ("german", 48, 10.0),
         ("australian", 28, 10.0), ("pima", 16, 10.0), ("heart", 26, 10.0), ("heart", 26, 100.0)]


def binary(name, target):
    t = np.asarray(target)
    return (t >= 6).astype(int) if name == "winequality-red" else (t == np.unique(t)[0]).astype(int)


def search(G, R, y, C, A, alpha0, fast):
    t0 = time.perf_counter(); res = swap_refine(G, R, y, C, A, alpha0=alpha0, fast=fast); dt = time.perf_counter() - t0
    cert = res.certificate
    assert cert["passed"], cert
    return dt, cert["objective"], cert["n_fits"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    worst, ratios = np.inf, []
    print(f"{'cell':30s} {'reference':>10s} {'fast':>9s} {'ratio':>6s}  objectives (reference / fast), fits")
    for name, k, C in CELLS:
        data = load_dataset(name); X, y = np.asarray(data.data, float), binary(name, data.target)
        Xa, _, ya, _ = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
        Xa = StandardScaler().fit_transform(Xa); ys = np.where(ya == 1, 1.0, -1.0)
        with blas_threads(*Xa.shape):
            R, G = quadratic_features(Xa), gram_matrix(Xa)
            A = screen_terms(G, R, ys, C, k)
            alpha0 = support_fit(G, R, ys, C, A, route="ip").alpha          # the same warm start for both
            search(G, R, ys, C, A, alpha0, True)                              # numba: load the compiled code
            runs = {True: [], False: []}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(args.repeats):
                    for fast in (False, True): runs[fast].append(search(G, R, ys, C, A, alpha0, fast))
        t_ref, t_fast = (min(r[0] for r in runs[v]) for v in (False, True))
        ratio = t_ref / t_fast; worst = min(worst, ratio); ratios.append(ratio)
        (_, f_ref, n_ref), (_, f_fast, n_fast) = runs[False][0], runs[True][0]
        print(f"{name + f' k={k} C={C:g}':30s} {t_ref * 1e3:8.1f}ms {t_fast * 1e3:7.1f}ms {ratio:6.2f}  "
              f"{f_ref:.4f} / {f_fast:.4f}, {n_ref} / {n_fast}", flush=True)
    print(f"geometric mean of the ratios {np.exp(np.mean(np.log(ratios))):.2f} over {len(ratios)} cells")
    print(f"RESULT swap_search ratio={worst:.2f} target={TARGET}")


if __name__ == "__main__":
    main()
