"""The cost of surfaces that respect hierarchy: L0QSVM(k, C=10, hierarchy="strong") against L0QSVM(k, C=10).

Cells: those of `bench/l0qsvm_vs_abess.py` (its `datasets()`, the same stratified 70/30 split, standardised on the
training part): breast cancer (n = 30) and red wine (n = 11), k in {5, 2n}, C = 10 (`--C`). Timed: the whole fit on
the training part, median of `--repeats` runs each after one warm-up fit of each, the two models interleaved so both
see the same machine load. Reported per cell: both times, both objectives and test accuracies, whether both swap
certificates passed, and the number of quadratic terms of the unconstrained fit whose parents are absent (strong rule:
not all of x_i, x_j in the support).

Last line: `RESULT hierarchy ratio=X target=0.5`, X = the worst cell of (unconstrained time / hierarchical time), so
the hierarchical fit should take at most twice as long as the unconstrained one.
Usage: python bench/hierarchy.py [--repeats N] [--C C]
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from l0qsvm_vs_abess import cells  # noqa: E402  (the cells and their data)

from l0qsvm import L0QSVM  # noqa: E402
from l0qsvm.swap import term_parents  # noqa: E402

TARGET = 0.5


def orphans(support, n):
    "Quadratic terms of the support whose parents are not all in it (strong hierarchy)."
    P, inS = term_parents(n), np.zeros(n * (n + 3) // 2, bool)
    inS[support] = True
    return int(sum(1 for t in support if P[t, 0] >= 0 and not (inS[P[t, 0]] and inS[P[t, 1]])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--C", type=float, default=10.0)
    args = ap.parse_args()
    worst = np.inf
    for name, Xa, Xb, ya, yb, k in cells():
        n = Xa.shape[1]
        make = {"plain": lambda: L0QSVM(k, C=args.C), "strong": lambda: L0QSVM(k, C=args.C, hierarchy="strong")}
        for key in make: make[key]().fit(Xa, ya)                 # warm-up (numba, caches)
        times, models = {key: [] for key in make}, {}
        for _ in range(args.repeats):
            for key in make:
                t0 = time.perf_counter(); models[key] = make[key]().fit(Xa, ya); times[key].append(time.perf_counter() - t0)
        tp, th = float(np.median(times["plain"])), float(np.median(times["strong"]))
        worst = min(worst, tp / th)
        p, h = models["plain"], models["strong"]
        acc = {key: float(np.mean(m.predict(Xb) == yb)) for key, m in models.items()}
        print(f"{name}: m={len(ya)} n={n} k={k} | unconstrained {tp*1e3:.1f} ms F {p.objective_[0]:.4f} "
              f"acc {acc['plain']:.3f} (certified {p.swap_certificate_[0]['passed']}, "
              f"{orphans(p.support_[0], n)} quadratic terms without their parents) | strong {th*1e3:.1f} ms "
              f"F {h.objective_[0]:.4f} acc {acc['strong']:.3f} (certified {h.swap_certificate_[0]['passed']}, "
              f"{orphans(h.support_[0], n)}) | ratio {tp / th:.2f}", flush=True)
    print(f"RESULT hierarchy ratio={worst:.2f} target={TARGET}")


if __name__ == "__main__":
    main()
