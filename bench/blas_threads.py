"""Benchmark: the estimators' single BLAS thread against the BLAS library's default thread count.

The estimators run their fits under `threadpoolctl.threadpool_limits(1, user_api="blas")`: their dense products are
small (d x d and m x d), so extra threads add overhead, and on a busy machine they contend for the cores. Problem:
L0QSVM(k=4, C=10) on standardised breast cancer and wine, plus QSVM(C=10) on breast cancer, fitted through the
package's own (single-threaded) path and through the same fit functions under the library's default thread count.
Both are timed in this run, alternately, 3 times each; medians. Last line: `RESULT blas_threads ratio=X target=1`
(X = default-threads time / single-thread time: 1 or more means the limit costs nothing).
"""
import time

import numpy as np
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_info, threadpool_limits

from l0qsvm import L0QSVM, QSVM, load_dataset


def fits():
    b, w = load_dataset("breast_cancer"), load_dataset("wine")
    Xb, Xw = StandardScaler().fit_transform(b.data), StandardScaler().fit_transform(w.data)
    return lambda: (L0QSVM(k=4, C=10).fit(Xb, b.target), QSVM(C=10).fit(Xb, b.target), L0QSVM(k=4, C=10).fit(Xw, w.target))


def main():
    run = fits()
    default = max([i.get("num_threads", 1) for i in threadpool_info() if i.get("user_api") == "blas"], default=1)
    run()                                                     # warm-up
    t_one, t_default = [], []
    for _ in range(3):
        t0 = time.perf_counter(); run(); t_one.append(time.perf_counter() - t0)
        with threadpool_limits(limits=default, user_api="blas"):
            # the estimators set 1 thread themselves; undo that inside their fit to time the default
            import l0qsvm.estimators as est
            saved = est.threadpool_limits
            est.threadpool_limits = lambda **kw: threadpool_limits(limits=default, user_api="blas")
            try:
                t0 = time.perf_counter(); run(); t_default.append(time.perf_counter() - t0)
            finally:
                est.threadpool_limits = saved
    one, many = float(np.median(t_one)), float(np.median(t_default))
    print(f"BLAS threads by default: {default}")
    print(f"one BLAS thread (the estimators' setting): {one:6.2f} s   default threads: {many:6.2f} s   (medians of 3)")
    print(f"RESULT blas_threads ratio={many / one:.2f} target=1")


if __name__ == "__main__":
    main()
