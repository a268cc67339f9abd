"""Benchmark: the package's BLAS-thread rule (one thread for small fits) against the BLAS library's default threads,
and the breast-cancer fit under CPU contention.

Every fit runs inside `l0qsvm.hinge_solvers.blas_threads(m, n)`: one BLAS thread while m * d <= _BLAS_SMALL (1e8), the
library's own setting above. The fits here are small (d x d and m x d products), so the rule gives them one thread;
extra threads add overhead and, on a busy machine, contend for the cores. Problem: L0QSVM(k=4, C=10) on standardised
breast cancer and wine, plus QSVM(C=10) and L0QSVM(k=60, C=10) on breast cancer, fitted with the rule and with `_BLAS_SMALL = 0` (the library's
default threads for every fit). Both are timed in this run, alternately, REPEATS = 7 times each; medians.

Contention (issue 11: "under a concurrent busy process on one core, L0QSVM's breast-cancer fit stays within 2x of its
quiet time"): L0QSVM(k, C=10) on the standardised training part of breast cancer (k = 5 and 60), with the package's
BLAS rule and with the library's default threads. The busy process (`while True: pass`) is pinned to one core
(`os.sched_setaffinity`) and runs for the whole measurement, but is paused (SIGSTOP) for the quiet fits and resumed
(SIGCONT) for the busy ones, which alternate: quiet, busy, quiet, busy, ... so both see the same background load from
anything else on the machine (a shared machine's load drifts over seconds; separate quiet and busy phases measured that
drift, not the contention). Medians of `--pairs` pairs; the ratio busy / quiet should stay below 2. Printed beside the
wall times: the process's CPU time per fit (quiet / busy): equal CPU times with a longer wall time mean the fit did
the same work and waited for a core (other load on the machine), more CPU time means threads that spin or contend.

Last line: `RESULT blas_threads ratio=X target=1` (X = default-threads time / rule time: 1 or more means the rule
costs nothing). Usage: python bench/blas_threads.py [--pairs N] [--skip-contention]
"""
import argparse
import os
import signal
import subprocess
import sys
import time

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_info

import l0qsvm.hinge_solvers
from l0qsvm import L0QSVM, QSVM, load_dataset

BUSY = "import os; os.sched_setaffinity(0, {%d})\nwhile True: pass"


REPEATS = 7


def fits():
    b, w = load_dataset("breast_cancer"), load_dataset("wine")
    Xb, Xw = StandardScaler().fit_transform(b.data), StandardScaler().fit_transform(w.data)
    return lambda: (L0QSVM(k=4, C=10).fit(Xb, b.target), QSVM(C=10).fit(Xb, b.target), L0QSVM(k=4, C=10).fit(Xw, w.target),
                    L0QSVM(k=60, C=10).fit(Xb, b.target))


def paired_contention(fit, pairs:int):
    "Median fit time with the busy process paused and resumed, alternately (see the module docstring)."
    core = min(os.sched_getaffinity(0))
    busy = subprocess.Popen([sys.executable, "-c", BUSY % core])
    quiet, loaded, cpu_q, cpu_b = [], [], [], []
    try:
        time.sleep(0.3)
        for _ in range(pairs):
            busy.send_signal(signal.SIGSTOP); time.sleep(0.02)
            t0, c0 = time.perf_counter(), time.process_time(); fit()
            quiet.append(time.perf_counter() - t0); cpu_q.append(time.process_time() - c0)
            busy.send_signal(signal.SIGCONT); time.sleep(0.05)
            t0, c0 = time.perf_counter(), time.process_time(); fit()
            loaded.append(time.perf_counter() - t0); cpu_b.append(time.process_time() - c0)
    finally:
        busy.kill(); busy.wait()
    return tuple(float(np.median(v)) for v in (quiet, loaded, cpu_q, cpu_b))


def contention(pairs:int, C:float=10.0, ks=(5, 60)):
    "Print the contention rows; return the worst busy/quiet ratio with the package's BLAS rule."
    X, t = load_breast_cancer(return_X_y=True)
    Xa, _, ya, _ = train_test_split(X, t, test_size=0.3, random_state=0, stratify=t)
    Xa = StandardScaler().fit_transform(Xa)
    small, worst = l0qsvm.hinge_solvers._BLAS_SMALL, 0.0
    print(f"contention: a busy process pinned to core {min(os.sched_getaffinity(0))} of {os.cpu_count()}, "
          f"paused/resumed between alternating fits, medians of {pairs} pairs; load average {os.getloadavg()[0]:.1f}")
    for k in ks:
        row = []
        for name, value in [("package rule (one BLAS thread)", small), ("BLAS default threads", 0)]:
            l0qsvm.hinge_solvers._BLAS_SMALL = value
            try:
                L0QSVM(k, C=C).fit(Xa, ya)
                q, b, cq, cb = paired_contention(lambda: L0QSVM(k, C=C).fit(Xa, ya), pairs)
            finally:
                l0qsvm.hinge_solvers._BLAS_SMALL = small
            if value == small: worst = max(worst, b / q)
            row.append(f"{name}: quiet {q*1e3:.0f} ms, busy {b*1e3:.0f} ms (x{b/q:.2f}; CPU time {cq*1e3:.0f} / "
                       f"{cb*1e3:.0f} ms)")
        print(f"contention, breast cancer L0QSVM(k={k}, C={C:g}): " + " | ".join(row), flush=True)
    print(f"contention: worst busy/quiet ratio with the package's rule x{worst:.2f} (target: below 2)")
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--skip-contention", action="store_true")
    args = ap.parse_args()
    run = fits()
    default = max([i.get("num_threads", 1) for i in threadpool_info() if i.get("user_api") == "blas"], default=1)
    small = l0qsvm.hinge_solvers._BLAS_SMALL
    run()                                                     # warm-up
    t_one, t_default = [], []
    for _ in range(REPEATS):
        t0 = time.perf_counter(); run(); t_one.append(time.perf_counter() - t0)
        l0qsvm.hinge_solvers._BLAS_SMALL = 0                     # every fit "large": the library's default threads
        try:
            t0 = time.perf_counter(); run(); t_default.append(time.perf_counter() - t0)
        finally:
            l0qsvm.hinge_solvers._BLAS_SMALL = small
    one, many = float(np.median(t_one)), float(np.median(t_default))
    print(f"BLAS threads by default: {default}")
    print(f"the package's rule (one thread here): {one:6.2f} s   default threads: {many:6.2f} s   (medians of {REPEATS})")
    if not args.skip_contention: contention(args.pairs)
    print(f"RESULT blas_threads ratio={many / one:.2f} target=1")


if __name__ == "__main__":
    main()
