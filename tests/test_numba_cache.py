"""numba's cache of the package: a private folder, NUMBA_CACHE_DIR honoured, numba's global setting left alone.

numba unpickles the index files of its cache folder, so a folder another local user can write to (or plant) must never
be used; and importing l0qsvm must not move the cache of the other packages of the process (`numba.config.CACHE_DIR`).
"""
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import pytest

from l0qsvm import compiled, smo

ROOT = Path(__file__).resolve().parents[1]
choose = compiled._choose_cache_dir    # the choice, made afresh (reads the environment)


@pytest.fixture
def no_home_cache(tmp_path, monkeypatch):
    "No usable per-user cache folder (XDG_CACHE_HOME below a regular file: even root cannot create it), TMPDIR = tmp/t."
    (tmp_path / "file").write_text("")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file" / "cache"))
    tmp = tmp_path / "t"; tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp / f"l0qsvm-numba-{os.getuid()}"


def _private_new(path, shared):
    p = Path(path)
    st = os.lstat(p)
    return (p != shared and stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077
            and p.parent == shared.parent)


def test_fallback_created_private(no_home_cache):
    with warnings.catch_warnings(): warnings.simplefilter("error"); got = choose()
    assert Path(got) == no_home_cache
    assert stat.S_IMODE(os.lstat(got).st_mode) == 0o700
    with warnings.catch_warnings(): warnings.simplefilter("error"); again = choose()
    assert again == got                                          # the private folder is kept across processes


@pytest.mark.skipif(os.name == "nt" or os.getuid() != 0, reason="chown to another user needs root")
def test_planted_by_another_user_is_not_used(no_home_cache):
    no_home_cache.mkdir(mode=0o700)
    os.chown(no_home_cache, 12345, 12345)                        # planted by another local user
    with pytest.warns(RuntimeWarning, match="not a private folder"): got = choose()
    assert _private_new(got, no_home_cache)


def test_group_writable_is_not_used(no_home_cache):
    no_home_cache.mkdir(); os.chmod(no_home_cache, 0o777)        # ours, but anyone may drop an index file in it
    with pytest.warns(RuntimeWarning, match="not a private folder"): got = choose()
    assert _private_new(got, no_home_cache)


def test_symlink_is_not_used(no_home_cache, tmp_path):
    target = tmp_path / "elsewhere"; target.mkdir(mode=0o700)
    no_home_cache.symlink_to(target)                             # a link another user could have pointed anywhere
    with pytest.warns(RuntimeWarning, match="not a private folder"): got = choose()
    assert _private_new(got, no_home_cache)


def _python(code, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    base["PYTHONPATH"] = str(ROOT)
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env={**base, **env}, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_import_leaves_numba_config_alone(tmp_path):
    "Importing l0qsvm keeps numba.config.CACHE_DIR; another package's cache=True function keeps numba's own locator."
    (tmp_path / "other_pkg.py").write_text("from numba import njit\n@njit(cache=True)\ndef f(x): return x + 1\n")
    out = _python(f"""
        import sys; sys.path.insert(0, {str(tmp_path)!r})
        import numba
        before = numba.config.CACHE_DIR
        import l0qsvm
        from l0qsvm import smo
        import other_pkg
        assert numba.config.CACHE_DIR == before == "", numba.config.CACHE_DIR
        loc = other_pkg.f._cache._impl.locator
        assert type(loc).__module__.startswith("numba."), type(loc)
        mine = smo._init_gradient._cache.cache_path
        assert mine.startswith(smo.numba_cache_dir()) and smo.numba_cache_dir(), (mine, smo.numba_cache_dir())
        print("ok")
    """, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert out.strip() == "ok"


def test_cache_locations_across_processes(tmp_path):
    """The package's compiled code is cached in the per-user folder and loads from it in a second process, while a
    user's own `cache=True` function outside the package keeps numba's default (its `__pycache__`); with
    NUMBA_CACHE_DIR set, both follow it."""
    user = tmp_path / "user"; user.mkdir()
    (user / "my_mod.py").write_text("from numba import njit\n@njit(cache=True)\ndef g(x): return 2 * x\n")
    code = f"""
        import sys; sys.path.insert(0, {str(user)!r})
        import numpy as np
        from l0qsvm import subproblems as s
        import my_mod
        s.best_intercept(np.array([0.1, -0.2, 0.3]), np.array([1.0, -1.0, 1.0])); my_mod.g(1.0)
        st = s._hinge_intercept.stats
        print(sum(st.cache_hits.values()), sum(st.cache_misses.values()), st.cache_path, my_mod.g.stats.cache_path)
    """
    xdg = tmp_path / "xdg"
    hits, misses, path, mine = _python(code, XDG_CACHE_HOME=str(xdg)).split()
    assert Path(path).is_relative_to(xdg / "l0qsvm" / "numba") and int(misses) == 1
    assert Path(mine) == user / "__pycache__"                      # numba's in-tree default, not the package's folder
    hits, misses, _, _ = _python(code, XDG_CACHE_HOME=str(xdg)).split()
    assert int(hits) == 1 and int(misses) == 0                     # loaded from the per-user folder
    nc = tmp_path / "nc"
    _, _, path, mine = _python(code, XDG_CACHE_HOME=str(xdg), NUMBA_CACHE_DIR=str(nc)).split()
    assert Path(path).is_relative_to(nc) and Path(mine).is_relative_to(nc)


def test_compiled_module_executes_without_side_effects(tmp_path):
    "Executing l0qsvm/compiled.py on its own registers nothing with numba and creates no folder."
    code = f"""
        import importlib.util, os
        from numba.core import caching
        before = list(caching.CacheImpl._locator_classes)
        spec = importlib.util.spec_from_file_location("compiled_alone", {str(ROOT / "l0qsvm" / "compiled.py")!r})
        mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
        assert list(caching.CacheImpl._locator_classes) == before
        assert mod._CACHE_DIR is None and mod._SEEDED is None
        assert not os.path.exists({str(tmp_path / "xdg")!r})
        print("ok")
    """
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr


def test_use_package_cache_registers_once():
    from numba.core import caching
    from l0qsvm import compiled, smo
    assert smo.numba_cache_dir is compiled.numba_cache_dir and smo.package_cache_path is compiled.package_cache_path
    n = caching.CacheImpl._locator_classes.count(compiled._PackageCacheLocator)
    assert compiled.use_package_cache() == compiled.use_package_cache()
    assert caching.CacheImpl._locator_classes.count(compiled._PackageCacheLocator) == n
    assert n == 1                                                                # registered by l0qsvm.smo, once
