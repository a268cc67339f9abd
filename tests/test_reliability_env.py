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
from l0qsvm.checks import FeatureScaleWarning, check_feature_scales

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


# ---------------------------------------------------------------------------------------------------------------------
# numba's cache folder, chosen at import (a subprocess with a controlled environment)


def cache_dir(tmp_path, **env):
    """`numba_cache_dir()` in a fresh process run in tmp_path/cwd, with TMPDIR = tmp_path/tmp and `env` (None: unset);
    NUMBA_CACHE_DIR, HOME and XDG_CACHE_HOME are unset unless given. (cwd, temporary folder, stderr, the folder)."""
    cwd, tmp = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir(exist_ok=True); tmp.mkdir(exist_ok=True)
    base = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "HOME", "XDG_CACHE_HOME", "TMPDIR")}
    base.update(PYTHONPATH=str(ROOT), TMPDIR=str(tmp))
    base.update({k: v for k, v in env.items() if v is not None})
    code = "from l0qsvm.smo import numba_cache_dir; print(numba_cache_dir())"
    res = subprocess.run([sys.executable, "-c", code], env=base, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return cwd, tmp, res.stderr, res.stdout.strip()


def fallback(tmp):
    return str(tmp / f"l0qsvm-numba-{os.getuid()}")


pytestmark_posix = pytest.mark.skipif(os.name == "nt", reason="POSIX environment variables and modes")


@pytestmark_posix
def test_cache_absolute_xdg_is_used(tmp_path):
    "The control: an absolute XDG_CACHE_HOME holds the cache, created private."
    xdg = tmp_path / "xdg"
    cwd, tmp, err, got = cache_dir(tmp_path, HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(xdg))
    assert got == str(xdg / "l0qsvm" / "numba"), err
    assert os.stat(got).st_mode & 0o777 == 0o700


@pytestmark_posix
def test_cache_relative_xdg_cache_home_is_ignored(tmp_path):
    "XDG_CACHE_HOME=relative: ignored (the spec), $HOME/.cache is used; nothing is created in the working folder."
    home = tmp_path / "home"; home.mkdir()
    cwd, tmp, err, got = cache_dir(tmp_path, HOME=str(home), XDG_CACHE_HOME="rel/cache")
    assert got == str(home / ".cache" / "l0qsvm" / "numba"), (got, err)
    assert not (cwd / "rel").exists()


@pytestmark_posix
def test_cache_relative_home_falls_back(tmp_path):
    "HOME=relative: no per-user folder; the private folder in the temporary folder, nothing in the working folder."
    cwd, tmp, err, got = cache_dir(tmp_path, HOME="relhome")
    assert got == fallback(tmp), (got, err)
    assert not (cwd / "relhome").exists() and "Warning" not in err


@pytestmark_posix
def test_cache_empty_home_falls_back(tmp_path):
    "HOME='': no per-user folder (not /.cache); the private folder in the temporary folder."
    cwd, tmp, err, got = cache_dir(tmp_path, HOME="")
    assert got == fallback(tmp), (got, err)
    assert "Warning" not in err


@pytestmark_posix
@pytest.mark.parametrize("mode", [0o777, 0o775])
def test_cache_world_writable_user_folder_is_not_used(tmp_path, mode):
    "A per-user folder others may write to (numba unpickles its index files) is refused, as the fallback would be."
    folder = tmp_path / "xdg" / "l0qsvm" / "numba"; folder.mkdir(parents=True); folder.chmod(mode)
    cwd, tmp, err, got = cache_dir(tmp_path, HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert got == fallback(tmp), (got, err)
    assert not list(folder.iterdir())                          # nothing written to the refused folder


# ---------------------------------------------------------------------------------------------------------------------
# subnormal features


@pytest.fixture(scope="module")
def subnormal():
    r = np.random.default_rng(0)
    X = r.standard_normal((60, 3)); X[:, 0] *= 1e-310
    return X, np.where(X[:, 1] + 0.5 * r.standard_normal(60) > 0, 1, -1)


@pytest.mark.parametrize("make", [lambda: L0QSVM(k=3, C=100.0), lambda: QSVM(C=100.0)], ids=["L0QSVM", "QSVM"])
def test_subnormal_feature_warns_once_with_a_finite_ratio(subnormal, make):
    """A column of 1e-310: only the FeatureScaleWarning, whose ratio is a number (no 'inf'), and no numpy RuntimeWarning;
    the model predicts as the one fitted with that column set to 0 (and fits the data: C = 100 for these scales)."""
    X, y = subnormal
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = make().fit(X, y)
    kinds = [w.category for w in caught]
    assert kinds == [FeatureScaleWarning], [(w.category.__name__, str(w.message)) for w in caught]
    text = str(caught[0].message)
    assert "inf" not in text and "ratio of about 1e+310" in text, text
    X0 = X.copy(); X0[:, 0] = 0.0
    with warnings.catch_warnings(): warnings.simplefilter("ignore"); ref = make().fit(X0, y)
    np.testing.assert_array_equal(est.predict(X), ref.predict(X0))
    assert est.score(X, y) > 0.8


def test_feature_scale_ratio_beyond_float_range():
    "check_feature_scales: a ratio above the float range returns inf without a numpy warning; an ordinary one its value."
    X = np.c_[np.full(4, 1e-310), np.full(4, 1.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(FeatureScaleWarning, match=r"a ratio of about 1e\+310\."):
            assert check_feature_scales(X) == np.inf
        with pytest.warns(FeatureScaleWarning, match=r"a ratio of 1e\+04\."):
            assert check_feature_scales(np.c_[np.full(4, 1e-4), np.full(4, 1.0)]) == pytest.approx(1e4)
