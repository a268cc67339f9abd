"""The process around a fit: BLAS thread limits when fits run in several threads, the folder of numba's cache under an
odd environment, and features with subnormal values.

- Every small fit runs BLAS on one thread. The limit is process-wide, so fits that overlap in several threads share
  one: the first to enter saves the limits, the last to leave restores them, and no fit leaves other limits than it
  found.
- numba's cache folder follows the XDG spec (`XDG_CACHE_HOME` only if absolute, `$HOME/.cache` only if `HOME` is
  absolute) and is used only if it is a private folder of the user, the rule of the temporary-folder fallback.
- A feature of subnormal values gives the feature-scale warning with a finite ratio in its text and no stray numpy
  warning.
"""
import os
import subprocess
import sys
import textwrap
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import threadpoolctl
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_info, threadpool_limits

from l0qsvm import L0QSVM, QSVM
from l0qsvm.hinge_solvers import blas_threads
from l0qsvm.multiclass import FeatureScaleWarning, check_feature_scales

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------------------------------
# BLAS threads


def blas_limits():
    "num_threads of every BLAS library loaded, keyed by its file."
    return {p["filepath"]: p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}


def _let_go():
    "threadpoolctl >= 3.7 gives one thread at a time the right to change OpenBLAS's limit: clear it (a test's setup)."
    clear = getattr(getattr(threadpoolctl, "OpenBLASController", None), "clear_controlling_thread", None)
    if clear is not None: clear(force=True)


@pytest.fixture
def two_blas_threads():
    "BLAS at 2 threads (not 1, so that a fit leaving 1 behind shows, on any machine), no thread holding the limit."
    _let_go()
    original = threadpool_limits(limits=2, user_api="blas")    # a plain call, not a `with`: the limit stays set
    _let_go()
    before = blas_limits()
    assert max(before.values()) == 2, before
    yield before
    original.restore_original_limits()
    _let_go()


@pytest.fixture(scope="module")
def cancer8():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X)[:, :8], y


def test_threaded_fits_restore_blas_limits(two_blas_threads, cancer8):
    """16 small fits (m d = 569 x 44: one BLAS thread) in 4 threads, three times: the BLAS limits are the ones before.
    (Without the shared limit, a round ends on one thread about 5 times in 6 here; a wrong limit stays wrong.)"""
    X, y = cancer8
    for _ in range(3):
        fits = [QSVM(C=1.0) if i % 2 else L0QSVM(k=5) for i in range(16)]
        with ThreadPoolExecutor(4) as pool: list(pool.map(lambda est: est.fit(X, y), fits))
        assert blas_limits() == two_blas_threads


@pytest.mark.parametrize("where", ["one thread", "two threads"])
def test_interleaved_fits_share_one_blas_limit(two_blas_threads, where):
    "Enter A, enter B, leave A, leave B: B still runs on one thread after A left, and the limits end as they began."
    before = two_blas_threads
    one = {path: 1 for path in before}
    a, b = blas_threads(569, 30), blas_threads(569, 30)
    if where == "one thread":
        a.__enter__(); b.__enter__()
        inside = blas_limits()
        a.__exit__(None, None, None)
        after_a = blas_limits()
        b.__exit__(None, None, None)
    else:
        entered, leave, left, done = (threading.Event() for _ in range(4))
        def fit_a():                 # a pool's thread: it stays alive after its fit, as threadpoolctl's owner of the limit
            with a:
                entered.set(); leave.wait(10)
            left.set(); done.wait(10)
        t = threading.Thread(target=fit_a); t.start()
        try:
            assert entered.wait(10)
            b.__enter__()
            inside = blas_limits()
            leave.set(); assert left.wait(10)
            after_a = blas_limits()
            b.__exit__(None, None, None)
        finally:
            leave.set(); done.set(); t.join()
    assert inside == one and after_a == one, (inside, after_a)
    assert blas_limits() == before
