"""A/B of `fit_l0qsvm` against an earlier revision of this repository, in one run, alternating processes.

Cells: 8 UCI data sets (standardised, binary labels as in `load_dataset`: the last class against the rest), k in
{5, 10, 20, 2n} (capped at d), C in {1, 10, 100}, hinge loss. Each process fits one data set's 12 cells, each the
median of 3 fits after one warm-up fit (so numba's compile or cache load is not timed); the revision under test and
the baseline alternate data set by data set, each with its own numba cache, for --reps rounds. Reported: the
geometric mean over the cells of (baseline time / our time), the worst cell, the cells whose objective is worse than
the baseline's (relative 1e-6), and the share of certified fits.

Usage: python tools/ab_revision.py [--baseline REV] [--reps N] [--datasets a,b,...]
(needs git and the data directory: L0QSVM_DATA_DIR, as for the tests.)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

CELLS = r'''
import sys, json, time, warnings
import numpy as np
warnings.simplefilter("ignore")
from sklearn.preprocessing import StandardScaler
import l0qsvm
from l0qsvm import load_dataset, fit_l0qsvm
b = load_dataset(sys.argv[1])
X = StandardScaler().fit_transform(np.asarray(b.data, float)); y = np.asarray(b.target)
y = np.where(y == np.unique(y)[-1], 1.0, -1.0); n = X.shape[1]; rows = []
for k in sorted({5, 10, 20, 2 * n}):
    for C in (1.0, 10.0, 100.0):
        f = fit_l0qsvm(X, y, k, C); ts = []
        for _ in range(3):
            t = time.perf_counter(); f = fit_l0qsvm(X, y, k, C); ts.append(time.perf_counter() - t)
        swap = getattr(f, "swap", None)
        cert = bool(f.certificate["passed"]) and (bool(swap.get("passed", True)) if isinstance(swap, dict) else True)
        rows.append(dict(k=k, C=C, t=float(np.median(ts)), obj=float(f.objective), cert=cert))
print(l0qsvm.__file__)
print(json.dumps(rows))
'''
DATASETS = "sonar,ionosphere,wdbc,heart,pima,australian,german,banknote"


def run_cells(tree, cache, name):
    """The cells of one data set, fitted by the package in `tree` (run outside the repository: `python -c` puts the working
    folder first on sys.path, before PYTHONPATH, so a run from the repository's root would import its package instead)."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache), MPLBACKEND="Agg")
    out = subprocess.run([sys.executable, "-c", CELLS, name], env=env, capture_output=True, text=True, check=True,
                         cwd=Path(cache).parent).stdout.strip().splitlines()
    where = Path(out[-2]).resolve()
    if Path(tree).resolve() not in where.parents: raise RuntimeError(f"the cells imported {where}, not the package in {tree}")
    return json.loads(out[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default="e051c88", help="git revision to compare with (default: e051c88)")
    p.add_argument("--reps", type=int, default=4, help="rounds over the data sets (default 4)")
    p.add_argument("--datasets", default=DATASETS)
    a = p.parse_args()
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"; base.mkdir()
        archive = subprocess.run(["git", "-C", str(root), "archive", a.baseline, "l0qsvm"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        times = {}; obj = {}; cert = {"ours": [], "baseline": []}
        for rep in range(a.reps):
            for name in a.datasets.split(","):
                for who, tree in (("ours", root), ("baseline", base)):
                    for r in run_cells(tree, Path(tmp) / f"numba_{who}", name):
                        key = (name, r["k"], r["C"])
                        times.setdefault(key, {"ours": [], "baseline": []})[who].append(r["t"])
                        obj[key, who] = r["obj"]; cert[who].append(r["cert"])
                print(f"round {rep + 1}/{a.reps}: {name} done", flush=True)
    ratio = {key: np.median(t["baseline"]) / np.median(t["ours"]) for key, t in times.items()}
    worse = [key for key in ratio if obj[key, "ours"] > obj[key, "baseline"] * (1 + 1e-6) + 1e-9]
    for name in a.datasets.split(","):
        r = [v for key, v in ratio.items() if key[0] == name]
        print(f"{name:12s} geometric mean {np.exp(np.mean(np.log(r))):.3f} over {len(r)} cells")
    worst = min(ratio, key=ratio.get)
    print(f"cells {len(ratio)}: geometric mean (baseline time / ours) {np.exp(np.mean(np.log(list(ratio.values())))):.3f}, "
          f"worst {ratio[worst]:.3f} at {worst}")
    print(f"objective no worse on {len(ratio) - len(worse)} of {len(ratio)} cells; worse: "
          + ", ".join(f"{k} {100 * (obj[k, 'ours'] / obj[k, 'baseline'] - 1):+.3f} %" for k in worse))
    print(f"certified: ours {np.mean(cert['ours']):.3f}, baseline {np.mean(cert['baseline']):.3f}")


if __name__ == "__main__":
    main()
