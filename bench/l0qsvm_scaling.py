"""How L0QSVM scales with the number of samples, beside the l1-regularised linear SVM on the same quadratic terms.

Data: x ~ N(0, I_n), labels from a planted sparse quadratic surface (a square, a product, a linear term) with 10 %
flipped, m from 2,000 to 200,000, n = 10 (d = 65 terms) and n = 30 (d = 495). L0QSVM: k = n (the default), C = 1,
defaults otherwise. Baseline: scikit-learn's `LinearSVC(penalty="l1", dual=False, C=1)` (LIBLINEAR) on
`PolynomialFeatures(2)` of the same data, transform included. Each fit runs in a fresh subprocess, which reports its
fit time and its peak memory (the growth of the peak resident set size during the fit, `ru_maxrss`), so the two
methods and the sizes do not share caches or allocator state.

Printed per cell: both times and peak memories, and the memory per sample. Target: at m = 50,000, n = 10, L0QSVM
within 2x of LinearSVC's time (RESULT ratio = LinearSVC time / L0QSVM time at that cell, target 0.5), and memory
linear in m (the per-sample peak memory of the largest m is checked against the smallest one that is large enough
to measure, within a factor 2).

Usage: python bench/l0qsvm_scaling.py [--max-m M] [--n 10 30]
"""
import argparse
import json
import subprocess
import sys

SIZES = [2_000, 5_000, 20_000, 50_000, 200_000]
TARGET = 0.5

CHILD = r"""
import json, resource, sys, time, warnings
import numpy as np
method, m, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(m + n)
X = rng.standard_normal((m, n))
s = X[:, 0]**2 + 1.5 * X[:, 1] * X[:, 2] + X[:, 3] - 0.5
y = np.where(s > 0, 1, 0); flip = rng.random(m) < 0.1; y[flip] = 1 - y[flip]
if method == "l0qsvm":
    from l0qsvm import L0QSVM
    L0QSVM(2).fit(rng.standard_normal((60, 3)), np.tile([0, 1], 30))        # numba: load the compiled code
    fit = lambda: L0QSVM(n, C=1.0).fit(X, y)
else:
    from sklearn.svm import LinearSVC
    from sklearn.preprocessing import PolynomialFeatures
    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return LinearSVC(penalty="l1", dual=False, C=1.0).fit(PolynomialFeatures(2, include_bias=False).fit_transform(X), y)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter(); model = fit(); t = time.perf_counter() - t0
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
extra = {}
if method == "l0qsvm":
    extra = dict(swap_certified=bool(model.swap_certificate_[0]["passed"]), nnz=int(np.count_nonzero(model.z_)))
else:
    extra = dict(nnz=int(np.count_nonzero(model.coef_)))
print(json.dumps(dict(time=t, peak_mb=(after - before) / 1024, **extra)))
"""


def run(method, m, n):
    out = subprocess.run([sys.executable, "-c", CHILD, method, str(m), str(n)], capture_output=True, text=True)
    if out.returncode != 0: raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-m", type=int, default=200_000)
    ap.add_argument("--n", type=int, nargs="+", default=[10, 30])
    args = ap.parse_args()
    ratio, linear = None, True
    for n in args.n:
        per_sample = []
        for m in [s for s in SIZES if s <= args.max_m]:
            ours, base = run("l0qsvm", m, n), run("linearsvc", m, n)
            per_sample.append((m, ours["peak_mb"] / m * 1e6))
            r = base["time"] / ours["time"]
            if m == 50_000 and n == 10: ratio = r
            print(f"n={n} m={m}: L0QSVM {ours['time']:.2f} s, peak {ours['peak_mb']:.0f} MB "
                  f"({ours['peak_mb'] / m * 1e6:.0f} B/sample), swap certificate {ours['swap_certified']}, "
                  f"{ours['nnz']} terms | LinearSVC(l1) {base['time']:.2f} s, peak {base['peak_mb']:.0f} MB, "
                  f"{base['nnz']} terms | LinearSVC time / L0QSVM time {r:.2f}", flush=True)
        big = [(m, b) for m, b in per_sample if m >= 20_000]
        if len(big) >= 2:
            lo, hi = big[0][1], big[-1][1]
            ok = hi <= 2 * lo
            linear &= ok
            print(f"n={n}: peak memory per sample {lo:.0f} B at m={big[0][0]} and {hi:.0f} B at m={big[-1][0]}: "
                  f"{'linear in m' if ok else 'NOT linear in m'}", flush=True)
    if ratio is not None:
        print(f"memory linear in m: {linear}")
        print(f"RESULT l0qsvm_scaling ratio={ratio:.2f} target={TARGET}")


if __name__ == "__main__":
    main()
