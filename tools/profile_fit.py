"""Where one `L0QSVM(k, C=10)` fit spends its time: wall time, Python calls, compiled (numba) code, BLAS/LAPACK.

Data, split and standardisation as `bench/l0qsvm_vs_abess.py` (its `datasets()` is imported from that file): red wine
quality (`$L0QSVM_DATA_DIR/winequality-red.csv`, label quality >= 6, 11 features, k = 22 = 2n) and scikit-learn's
breast cancer (30 features, k = 60 = 2n), each on the training part of a stratified 70/30 split (random_state=0),
standardised on that part. One warm-up fit of the same model on the same data comes first, so numba's compile or cache
load is not counted. Then per data set:
- time: the median wall time of `--repeats` fits without a profiler;
- calls: cProfile's call count of one fit (pstats' total_calls: every call of a Python function, of a builtin function
  or method, and of a numba dispatcher, see below; the profiler's own `disable` left out), and its primitive
  (non-recursive) calls; the median over `--repeats` profiled fits (the range is shown when the fits differ);
- compiled: the time inside compiled numba functions called from Python;
- blas: the time inside the BLAS/LAPACK-backed numpy/scipy calls that cProfile records (below);
- the top 15 functions by total (own) time, averaged over the profiled fits.
The profiled fits run slower than the timed ones (cProfile's cost per Python call); their wall time is shown.

What cProfile records, checked on numba 0.68 / Python 3.11 / numpy 2.4 / scipy 1.17 (the tool checks the numba part
when it starts and says so if it fails):
- A call of a numba dispatcher (`numba.core.registry.CPUDispatcher`) from Python: numba's C dispatcher emits the
  profiler's call and return events itself, under the code object of the dispatcher's Python function, so the pstats
  key is `(py_func.__code__.co_filename, .co_firstlineno, .co_name)`, the same key the pure-Python function would have
  (co_firstlineno is the line of the `@njit` decorator). It is not a `<built-in method ...>` entry. Its time is the
  whole compiled call, argument unboxing and result boxing included (a 0.2 s compiled loop was recorded within 0.1 ms
  of its wall time); calls from compiled code to other compiled functions are inside it and are not seen; Python that
  numba runs from inside the call (e.g. `numba.core.serialize._numba_unpickle` when boxing a result) shows as its
  sub-call and is counted in it (the outermost time is taken). Such entries are identified by collecting every numba
  `Dispatcher` in the namespaces of the loaded `l0qsvm` modules, plus any other live dispatcher found through the
  garbage collector (one made by a factory function; numba.typed's helpers; the tool's own probe), and matching
  their py_func keys against the pstats keys. BLAS calls made from compiled code (numba's `np.dot` etc.) count as
  compiled time, not as blas.
- `numpy.linalg.*` (Python wrappers around LAPACK gufuncs) and `scipy.linalg.*` (Python functions around f2py LAPACK
  and BLAS wrappers): recorded as Python functions whose time includes the LAPACK/BLAS call; counted as blas, the
  outermost such call only (the time of the calls made to them from code outside numpy/linalg and scipy/linalg), input
  checks included. Also counted: `ndarray.dot` (recorded as `<method 'dot' of 'numpy.ndarray' objects>`) and scipy's
  compiled linalg builtins (`<built-in method scipy.linalg....>`).
- NOT recorded, so NOT counted as blas: the `@` operator (no call event at all), `np.matmul` (a ufunc object),
  `np.dot` (an `_ArrayFunctionDispatcher`: only its Python dispatcher stub `multiarray.py(dot)` is recorded, taking
  no time; the number of such calls is shown), and direct f2py calls (`scipy.linalg.blas.dtrmm`,
  `scipy.linalg.lapack.dtrtri` called from package code). Their time is in the own time of the calling function; the
  own time of the package's Python functions (`package self`) is shown as the bucket that holds it, together with the
  interpreter's work and every other unrecorded C call (array arithmetic, indexing). np.einsum is not counted as
  BLAS (its C loops do not call BLAS).
So `blas_ms` is a lower bound of the time in BLAS/LAPACK outside compiled code.

Last line per data set: `PROFILE <name> time_ms=... calls=... compiled_ms=... blas_ms=...`.
Usage: python tools/profile_fit.py [--repeats N]   (needs L0QSVM_DATA_DIR for the red wine file)
"""
import argparse
import cProfile
import gc
import importlib.util
import os
import pstats
import re
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
C = 10.0
DISABLE = ("~", 0, "<method 'disable' of '_lsprof.Profiler' objects>")
NDOT = "<method 'dot' of 'numpy.ndarray' objects>"


def bench_datasets():
    "The data sets of `bench/l0qsvm_vs_abess.py` (its own loader), as {short name: (X, y)}."
    spec = importlib.util.spec_from_file_location("_l0qsvm_vs_abess", ROOT / "bench" / "l0qsvm_vs_abess.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    names = {"breast cancer": "breast_cancer", "red wine (quality >= 6)": "red_wine"}
    return {names[name]: (X, y) for name, X, y in mod.datasets()}


def split(X, y):
    "The training part of the bench's stratified 70/30 split, standardised on itself."
    Xa, _, ya, _ = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    return StandardScaler().fit(Xa).transform(Xa), ya


def code_key(f):
    c = f.__code__
    return (c.co_filename, c.co_firstlineno, c.co_name)


def dispatcher_keys():
    "pstats keys of numba dispatchers {key: 'module.name'}, from the l0qsvm namespaces, then any other live one; their count."
    from numba.core.dispatcher import Dispatcher
    keys = {}
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "l0qsvm" or name.startswith("l0qsvm.")): continue
        for attr, v in vars(mod).items():
            if issubclass(type(v), Dispatcher): keys.setdefault(code_key(v.py_func), f"{v.py_func.__module__}.{v.py_func.__qualname__}")
    n_package = len(keys)
    for v in gc.get_objects():                           # type(), not isinstance: no dead weak proxy is touched
        if issubclass(type(v), Dispatcher): keys.setdefault(code_key(v.py_func), f"{v.py_func.__module__}.{v.py_func.__qualname__}")
    return keys, n_package


def check_numba_recorded():
    "Does cProfile record a numba dispatcher call under its py_func's code? (the premise of compiled_ms)"
    import numba
    probe = numba.njit(cache=False)(lambda a: a.sum())
    a = np.ones(3)
    probe(a)
    pr = cProfile.Profile(); pr.enable(); probe(a); pr.disable()
    return code_key(probe.py_func) in pstats.Stats(pr).stats


def is_blas(key):
    "Recorded entries whose time is a BLAS/LAPACK call (see the docstring)."
    path, _, name = key
    p = path.replace(os.sep, "/")
    return ("/numpy/linalg/" in p or "/scipy/linalg/" in p or name == NDOT
            or (path == "~" and name.startswith("<built-in method scipy.linalg.")))


def outermost(stats, member, inside=lambda key: False):
    "Time of the calls to `member` entries made from outside them (and outside `inside`), in seconds."
    total = 0.0
    for key, (cc, nc, tt, ct, callers) in stats.items():
        if not member(key): continue
        if not callers: total += ct; continue            # called from the top level of the profiled block
        total += sum(edge[3] for caller, edge in callers.items() if not member(caller) and not inside(caller))
    return total


def label(key, compiled):
    path, line, name = key
    if path == "~": return name
    p = path.replace(os.sep, "/")
    if "/site-packages/" in p: p = p.split("/site-packages/", 1)[1]
    elif re.search(r"/lib/python3\.\d+/", p): p = re.split(r"/lib/python3\.\d+/", p, maxsplit=1)[1]
    elif "/l0qsvm/" in p: p = p[p.rfind("/l0qsvm/") + 1:]
    return f"{p}:{line}({name})" + (" [compiled]" if key in compiled else " [blas]" if is_blas(key) else "")


def profile_once(fit, compiled, package_dirs):
    pr = cProfile.Profile()
    t0 = time.perf_counter(); pr.enable(); fit(); pr.disable(); wall = time.perf_counter() - t0
    st = pstats.Stats(pr)
    st.stats.pop(DISABLE, None)
    stats = st.stats
    in_compiled = lambda key: key in compiled
    own = lambda key: key[0] != "~" and any(key[0].startswith(d) for d in package_dirs) and key not in compiled
    return st, {
        "wall": wall,
        "calls": sum(v[1] for v in stats.values()), "prim": sum(v[0] for v in stats.values()),
        "compiled": outermost(stats, in_compiled),
        "compiled_calls": sum(v[1] for k, v in stats.items() if k in compiled),
        "blas": outermost(stats, is_blas, in_compiled),
        "blas_calls": sum(v[1] for k, v in stats.items() if is_blas(k)),
        "npdot_calls": sum(v[1] for k, v in stats.items() if k[2] == "dot" and k[0].replace(os.sep, "/").endswith("numpy/_core/multiarray.py")),
        "self": sum(v[2] for k, v in stats.items() if own(k)),
    }


def report(name, X, y, k, repeats, numba_ok):
    from l0qsvm import L0QSVM
    import l0qsvm
    fit = lambda: L0QSVM(k, C=C).fit(X, y)
    t0 = time.perf_counter(); fit(); warm = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); fit(); times.append(time.perf_counter() - t0)
    compiled, n_package = dispatcher_keys() if numba_ok else ({}, 0)
    package_dirs = [os.path.dirname(l0qsvm.__file__) + os.sep]
    runs = [profile_once(fit, compiled, package_dirs) for _ in range(repeats)]
    med = {f: float(np.median([r[1][f] for r in runs])) for f in runs[0][1]}
    lo, hi = min(r[1]["calls"] for r in runs), max(r[1]["calls"] for r in runs)
    ms = lambda s: f"{s * 1e3:.1f}"
    print(f"== {name}: m={X.shape[0]} n={X.shape[1]} k={k} C={C:g}, {repeats} fits (warm-up fit {ms(warm)} ms)")
    print(f"  wall time per fit (no profiler): median {ms(np.median(times))} ms (runs: {', '.join(ms(t) for t in times)})")
    print(f"  wall time per profiled fit:      median {ms(med['wall'])} ms")
    print(f"  Python calls per fit: {med['calls']:.0f} (primitive {med['prim']:.0f})"
          + (f", range {lo}..{hi} over the profiled fits" if lo != hi else ""))
    if numba_ok:
        print(f"  compiled (numba) time: {ms(med['compiled'])} ms in {med['compiled_calls']:.0f} dispatcher calls "
              f"({n_package} dispatchers in l0qsvm's modules, {len(compiled) - n_package} other live ones)")
    else:
        print("  compiled (numba) time: n/a (cProfile does not record numba dispatcher calls under their code here)")
    print(f"  BLAS/LAPACK (recorded numpy.linalg, scipy.linalg, ndarray.dot): {ms(med['blas'])} ms in "
          f"{med['blas_calls']:.0f} recorded calls; np.dot calls (time not recorded): {med['npdot_calls']:.0f}")
    print(f"  package self (own time of l0qsvm's Python functions: interpreter work, `@`, np.dot, array arithmetic): "
          f"{ms(med['self'])} ms")
    agg = runs[0][0]                                     # the profiled fits summed (their figures are taken)
    for st, _ in runs[1:]: agg.add(st)
    top = sorted(agg.stats.items(), key=lambda kv: -kv[1][2])[:15]
    print(f"  top 15 by own time (per fit, averaged over the profiled fits):")
    print(f"  {'ncalls':>8} {'own ms':>9} {'cum ms':>9}  function")
    for key, (cc, nc, tt, ct, _) in top:
        print(f"  {nc / repeats:>8.0f} {tt / repeats * 1e3:>9.2f} {ct / repeats * 1e3:>9.2f}  {label(key, compiled)}")
    return (f"PROFILE {name} time_ms={ms(np.median(times))} calls={med['calls']:.0f} "
            f"compiled_ms={ms(med['compiled']) if numba_ok else 'n/a'} blas_ms={ms(med['blas'])}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    if args.repeats < 1: ap.error("--repeats must be >= 1")
    import l0qsvm
    numba_ok = check_numba_recorded()
    print(f"l0qsvm from {os.path.dirname(l0qsvm.__file__)}; numba dispatcher calls recorded by cProfile: {numba_ok}")
    data = bench_datasets()
    lines = []
    for name in ("red_wine", "breast_cancer"):
        X, y = split(*data[name])
        lines.append(report(name, X, y, 2 * X.shape[1], args.repeats, numba_ok))
        print(flush=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
