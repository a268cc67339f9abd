"""L0QSVM against best-subset logistic regression (abess) on the same quadratic terms, timed in the same run.

What a user would pick instead of L0QSVM for a sparse quadratic classifier: abess's
`LogisticRegression(support_size=k)` on `PolynomialFeatures(2)` of the standardised data (needs `pip install abess`).
Both get the same k non-zero terms (the degree-2 monomials; the intercept is free in both). Timed: the whole fit,
feature transform included (`PolynomialFeatures` for abess; L0QSVM builds its own features), on the training part of a
stratified 70/30 split, median of `--repeats` runs each, interleaved so both see the same machine load. Reported beside
the times: the test accuracy of both, and for L0QSVM whether its swap certificate and Lu-Zhang certificate passed.

Data: breast cancer (scikit-learn, 30 features), red wine quality (UCI 186, `$L0QSVM_DATA_DIR/winequality-red.csv`,
label quality >= 6, 11 features). k in {5, 2n}; L0QSVM with C = 10 (the value the examples use on standardised data;
`--C` changes it) and its defaults otherwise (hinge loss, refine="swap": for k <= 15 the swap search starts from the
k screened terms, for larger k from Algorithm 1 on a screened working set; see `06a_swap`).

Then CPU contention: the breast-cancer fits (k = 5 and k = 60) with a busy process pinned to one core, paused and
resumed between alternating quiet and busy fits (`contention` of `bench/blas_threads.py`, which documents the
measurement), with the package's BLAS setting and with the library's default threads; the busy/quiet ratio should
stay below 2 with the package's setting.

Then the per-fit overheads at this size (red wine, k = 5): the median time of each fixed piece of a fit (parameter and
data validation, the BLAS-thread limit, the features R and the matrix G, one interior-point call that stops at its
first bound, one interior-point step), beside the whole fit.

Last line: `RESULT l0qsvm_vs_abess ratio=X target=1.0`, X = the worst cell of (abess time / L0QSVM time).
Usage: python bench/l0qsvm_vs_abess.py [--repeats N] [--C C] [--skip-contention] [--skip-overheads]
"""
import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from l0qsvm import L0QSVM

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("L0QSVM_DATA_DIR", ROOT.parent / "shared" / "datasets"))
TARGET = 1.0


def datasets():
    X, t = load_breast_cancer(return_X_y=True)
    yield "breast cancer", X, np.where(t == 1, 1, 0)
    df = pd.read_csv(DATA / "winequality-red.csv", sep=";")
    yield "red wine (quality >= 6)", df.drop(columns="quality").to_numpy(float), (df["quality"].to_numpy() >= 6).astype(int)



def cells():
    "(name, Xa, Xb, ya, yb, k): each data set's stratified 70/30 split, standardised on its training part, k in {5, 2n}."
    for name, X, y in datasets():
        Xa, Xb, ya, yb = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
        sc = StandardScaler().fit(Xa); Xa, Xb = sc.transform(Xa), sc.transform(Xb)
        for k in [5, 2 * X.shape[1]]: yield name, Xa, Xb, ya, yb, k

def fit_abess(X, y, k):
    import abess
    poly = PolynomialFeatures(2, include_bias=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = abess.LogisticRegression(support_size=k).fit(poly.fit_transform(X), y)
    return lambda Xt: model.predict(poly.transform(Xt))


def fit_ours(X, y, k, C):
    model = L0QSVM(k, C=C).fit(X, y)
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--C", type=float, default=10.0)
    ap.add_argument("--skip-contention", action="store_true")
    ap.add_argument("--skip-overheads", action="store_true")
    args = ap.parse_args()
    try:
        import abess  # noqa: F401
    except ImportError:
        raise SystemExit("this benchmark needs abess: pip install abess")
    rng = np.random.default_rng(0)
    L0QSVM(2, C=1.0).fit(rng.standard_normal((40, 3)), np.tile([0, 1], 20))     # numba: load the compiled code
    worst = np.inf
    for name, Xa, Xb, ya, yb, k in cells():
        n = Xa.shape[1]
        t_ours, t_abess = [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter(); model = fit_ours(Xa, ya, k, args.C); t_ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter(); predict = fit_abess(Xa, ya, k); t_abess.append(time.perf_counter() - t0)
        to, ta = float(np.median(t_ours)), float(np.median(t_abess))
        ratio = ta / to
        worst = min(worst, ratio)
        acc_o, acc_a = float(np.mean(model.predict(Xb) == yb)), float(np.mean(predict(Xb) == yb))
        print(f"{name}: m={len(ya)} n={n} k={k} | L0QSVM(C={args.C:g}) {to*1e3:.1f} ms acc {acc_o:.3f} "
              f"(swap certificate {model.swap_certificate_[0]['passed']}, Lu-Zhang {model.certificate_[0]['passed']}, "
              f"{model.swap_certificate_[0]['n_swaps']} swaps) | abess {ta*1e3:.1f} ms acc {acc_a:.3f} | "
              f"ratio {ratio:.2f}", flush=True)
    if not args.skip_overheads: overheads(args)
    if not args.skip_contention: contention(args)
    print(f"RESULT l0qsvm_vs_abess ratio={worst:.2f} target={TARGET}")


def overheads(args):
    from sklearn.utils.validation import validate_data
    from l0qsvm.features import gram_matrix, quadratic_features
    from l0qsvm.hinge_solvers import blas_threads, solve_hinge_ip
    from l0qsvm.swap import screen_terms
    name, X, y = list(datasets())[1]
    Xa, _, ya, _ = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    Xa = StandardScaler().fit_transform(Xa); ys = np.where(ya == 1, 1.0, -1.0)
    R, G = quadratic_features(Xa), gram_matrix(Xa)
    S = screen_terms(G, R, ys, args.C, 5); RS, GS = R[:, S], G[np.ix_(S, S)]
    full = solve_hinge_ip(RS, ys, args.C, GS)
    def enter_blas():
        with blas_threads(*Xa.shape): pass
    def validate():
        est = L0QSVM(5, C=args.C); est._validate_params(); validate_data(est, Xa, ya, dtype=np.float64)
    pieces = {"parameter and data validation": validate, "BLAS-thread limit (enter and exit)": enter_blas,
              "features R (m x d)": lambda: quadratic_features(Xa), "matrix G (d x d)": lambda: gram_matrix(Xa),
              "interior-point call stopped at its first bound (5 terms)":
                  lambda: solve_hinge_ip(RS, ys, args.C, GS, stop_below=np.inf),
              f"interior-point solve (5 terms, {full.n_iter} steps)": lambda: solve_hinge_ip(RS, ys, args.C, GS),
              "whole fit L0QSVM(k=5)": lambda: L0QSVM(5, C=args.C).fit(Xa, ya)}
    print(f"per-fit overheads, {name}, m={len(ya)} d={R.shape[1]} (median of 50 calls, one BLAS thread):")
    with blas_threads(*Xa.shape):
        for label, f in pieces.items():
            f(); times = []
            for _ in range(50):
                t0 = time.perf_counter(); f(); times.append(time.perf_counter() - t0)
            print(f"  {label}: {np.median(times)*1e3:.3f} ms", flush=True)


def contention(args):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from blas_threads import contention as paired
    paired(max(args.repeats, 9), C=args.C)


if __name__ == "__main__":
    main()
