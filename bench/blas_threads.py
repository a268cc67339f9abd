"""Benchmark: the package's BLAS-thread rule (one thread for small fits) against the BLAS library's default threads.

Every fit runs inside `l0qsvm.subproblems.blas_threads(m, n)`: one BLAS thread while m * d <= BLAS_SMALL (1e8), the
library's own setting above. The fits here are small (d x d and m x d products), so the rule gives them one thread;
extra threads add overhead and, on a busy machine, contend for the cores. Problem: L0QSVM(k=4, C=10) on standardised
breast cancer and wine, plus QSVM(C=10) on breast cancer, fitted with the rule and with `BLAS_SMALL = 0` (the library's
default threads for every fit). Both are timed in this run, alternately, 3 times each; medians. Last line:
`RESULT blas_threads ratio=X target=1` (X = default-threads time / rule time: 1 or more means the rule costs nothing).
"""
import time

import numpy as np
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_info

import l0qsvm.subproblems
from l0qsvm import L0QSVM, QSVM, load_dataset


def fits():
    b, w = load_dataset("breast_cancer"), load_dataset("wine")
    Xb, Xw = StandardScaler().fit_transform(b.data), StandardScaler().fit_transform(w.data)
    return lambda: (L0QSVM(k=4, C=10).fit(Xb, b.target), QSVM(C=10).fit(Xb, b.target), L0QSVM(k=4, C=10).fit(Xw, w.target))


def main():
    run = fits()
    default = max([i.get("num_threads", 1) for i in threadpool_info() if i.get("user_api") == "blas"], default=1)
    small = l0qsvm.subproblems.BLAS_SMALL
    run()                                                     # warm-up
    t_one, t_default = [], []
    for _ in range(3):
        t0 = time.perf_counter(); run(); t_one.append(time.perf_counter() - t0)
        l0qsvm.subproblems.BLAS_SMALL = 0                     # every fit "large": the library's default threads
        try:
            t0 = time.perf_counter(); run(); t_default.append(time.perf_counter() - t0)
        finally:
            l0qsvm.subproblems.BLAS_SMALL = small
    one, many = float(np.median(t_one)), float(np.median(t_default))
    print(f"BLAS threads by default: {default}")
    print(f"the package's rule (one thread here): {one:6.2f} s   default threads: {many:6.2f} s   (medians of 3)")
    print(f"RESULT blas_threads ratio={many / one:.2f} target=1")


if __name__ == "__main__":
    main()
