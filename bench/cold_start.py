"""Cold start: what a newcomer waits for before the first fit, against abess on the same terms.

numba compiles the package's loops on first use and caches the machine code on disk (a per-user folder, `numba_cache_dir`
of `03_smo`). Every figure below is a whole fresh process (`python -c ...`), timed from its start:
1. `L0QSVM(k=60, C=10).fit` on standardised breast cancer with an EMPTY numba cache (a new temporary folder), as on a
   fresh install: the package carries the machine code `setup.py` compiled into it at build time (`l0qsvm/_compiled`,
   made here as setup.py makes it, by `ship_compiled` in a copy of the package); against abess's
   `LogisticRegression(support_size=60)` on `PolynomialFeatures(2)` of the same data, also from a fresh process (abess
   ships compiled code too). Also shown: the same without shipped code (numba compiles on first use, as from a source
   checkout or with L0QSVM_NO_PRECOMPILE=1), and the time `ship_compiled` adds to the build.
2. The same L0QSVM fit in a fresh process on the WARM cache (the compiled code is loaded), against the same process's
   second fit (`--no-warm` skips 2 and 3).
3. README command 1's main job, `l0qsvm reproduce --quick`, cold (empty cache) and warm (`--no-reproduce` skips it:
   it takes a few minutes).

Each cold figure is the median of `--repeats` runs, each with its own empty cache.
Last line: `RESULT cold_start ratio=X target=0.25`, X = abess's time / ours with the empty cache (item 1).
Usage: python bench/cold_start.py [--repeats N] [--no-warm] [--no-reproduce]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

TARGET = 0.25
OURS = """
import time, warnings; t0 = time.perf_counter()
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from l0qsvm import L0QSVM
X, y = load_breast_cancer(return_X_y=True); X = StandardScaler().fit_transform(X)
t1 = time.perf_counter(); L0QSVM(k=60, C=10.0).fit(X, y); t2 = time.perf_counter()
L0QSVM(k=60, C=10.0).fit(X, y); t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""
ABESS = """
import time, warnings; t0 = time.perf_counter()
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import PolynomialFeatures, StandardScaler
from abess import LogisticRegression
X, y = load_breast_cancer(return_X_y=True); X = StandardScaler().fit_transform(X)
P = PolynomialFeatures(2, include_bias=False).fit_transform(X)
with warnings.catch_warnings():
    warnings.simplefilter("ignore"); LogisticRegression(support_size=60).fit(P, y)
print(time.perf_counter() - t0)
"""


def fresh(code, cache=None, path=None):
    "Wall time of a fresh `python -c code` and its printed numbers (`path`: the folder to import l0qsvm from)."
    env = dict(os.environ)
    if cache is not None: env["NUMBA_CACHE_DIR"] = cache
    if path is not None: env["PYTHONPATH"] = path
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir() if path is not None else None).stdout
    return time.perf_counter() - t0, [float(v) for v in out.split()]


def shipped_copy(dest):
    "A copy of the package in `dest` with its compiled code, made as `setup.py` makes it: (its parent folder, seconds)."
    import shutil
    import l0qsvm
    pkg = os.path.join(dest, "l0qsvm")
    shutil.copytree(os.path.dirname(l0qsvm.__file__), pkg, ignore=shutil.ignore_patterns("__pycache__", "_compiled"))
    env = dict(os.environ, PYTHONPATH=dest, NUMBA_CACHE_DIR=os.path.join(dest, "build-cache"))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"from l0qsvm.build import ship_compiled; ship_compiled({pkg!r})"],
                   env=env, cwd=dest, check=True, capture_output=True)
    return dest, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--no-reproduce", action="store_true")
    args = ap.parse_args()
    cold, shipped, abess = [], [], []
    build = tempfile.TemporaryDirectory()
    path, build_time = shipped_copy(build.name)
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as cache:
            shipped.append(fresh(OURS, cache, path)[0])
        with tempfile.TemporaryDirectory() as cache:
            wall, (imp, fit, second) = fresh(OURS, cache)
            cold.append(wall)
            if not args.no_warm and len(cold) == 1:
                warm_wall, (w_imp, w_fit, w_second) = fresh(OURS, cache)
        abess.append(fresh(ABESS)[0])
    ours, compiling, theirs = float(np.median(shipped)), float(np.median(cold)), float(np.median(abess))
    runs = lambda ts: ", ".join(f"{t:.1f}" for t in ts)
    print(f"empty numba cache, fresh install: first L0QSVM(k=60) fit, fresh process  {ours:7.2f} s (runs: {runs(shipped)})")
    print(f"abess LogisticRegression(support_size=60), fresh process                 {theirs:7.2f} s (runs: {runs(abess)})")
    print(f"without shipped code (compiled on first use), fresh process              {compiling:7.2f} s (runs: {runs(cold)})")
    print(f"what compiling into the package adds to the build (ship_compiled)        {build_time:7.2f} s")
    if not args.no_warm:
        print(f"warm cache: fresh process {warm_wall:.2f} s; its first fit {w_fit * 1e3:.0f} ms, its second {w_second * 1e3:.0f} ms")
    if not args.no_reproduce:
        times = {}
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            for label in ("cold", "warm"):                  # the fresh install's package (shipped code), then warm
                env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=path)
                t0 = time.perf_counter()
                cli = [sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main())"]   # `l0qsvm`, by the
                subprocess.run(cli + ["reproduce", "--quick", "--out", os.path.join(out, label), "--quiet"],  # running interpreter
                               env=env, check=True, capture_output=True, cwd=tempfile.gettempdir())
                times[label] = time.perf_counter() - t0
        print(f"l0qsvm reproduce --quick: cold {times['cold']:.1f} s, warm {times['warm']:.1f} s")
    build.cleanup()
    print(f"RESULT cold_start ratio={theirs / ours:.3f} target={TARGET}")


if __name__ == "__main__":
    main()
