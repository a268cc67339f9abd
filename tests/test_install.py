"""Installed copies of the package: the README's two commands in one environment, and a read-only install.

Regression test for issue 7: after `pip install . && l0qsvm demo`, numba's cache files used to sit in
`site-packages/l0qsvm/__pycache__/`; `pip install -e .` then removed only the files it had recorded, the folder stayed
behind without `__init__.py`, and Python imported it as a namespace package ahead of the editable install
(`ImportError: cannot import name 'QSVM' from 'l0qsvm' (unknown location)`). The package now caches compiled code in
a per-user folder (`l0qsvm.smo.numba_cache_dir`), so the installed package is never written to.

These tests build a throw-away virtual environment that sees this environment's dependencies through a `.pth` file
(no download), install a copy of the repository into it once (building it compiles the solvers), and run code there,
each test with a fresh home folder. They take minutes, so they are marked slow; `.ci/run` runs them explicitly after
the README's commands.
"""
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

FIT = ("import numpy as np; from l0qsvm import QSVM, L0QSVM; rng = np.random.default_rng(0); "
       "X = rng.uniform(-2, 2, (40, 2)); y = (X**2).sum(1) < 1.5; "
       "assert QSVM(C=100.0).fit(X, y).score(X, y) > 0.9; assert L0QSVM(k=2, C=100.0).fit(X, y).score(X, y) > 0.9; "
       "import l0qsvm; print(l0qsvm.__file__)")


def _copy_repo(dest):
    "The tracked files of the repository (what a clone holds), copied to `dest`."
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    return dest


@pytest.fixture(scope="module")
def installed():
    """(python, site-packages, base, pip) of a new venv that sees this environment's packages, with `pip install .` of
    a copy of the repository done once: building it compiles the solvers (most of these tests' time), so the tests
    below share it. The last one installs over it (`pip install -e .`)."""
    base = Path(tempfile.mkdtemp(prefix="l0qsvm-install-")); base.chmod(0o755)
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_parent_env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # dependencies, not l0qsvm itself
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")}

    def pip(*args):
        res = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                              "--no-build-isolation", "--no-index", *args], capture_output=True, text=True, env=env,
                             cwd=base)
        assert res.returncode == 0, res.stdout + res.stderr
    try:
        pip(str(_copy_repo(base / "clone")))
        yield python, site, base, pip
    finally:
        _make_writable(base)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def sandbox(installed, tmp_path):
    """(python, site-packages, env, run, pip, base): the shared install, run with a fresh home folder of its own.

    `run` executes code in the venv with that home folder, from a neutral working folder.
    """
    python, site, base, pip = installed
    home, tmp, work = tmp_path / "home", tmp_path / "tmp", tmp_path / "elsewhere"
    for folder in (home, tmp, work): folder.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(HOME=str(home), TMPDIR=str(tmp), MPLBACKEND="Agg")

    def run(*args):
        return subprocess.run([str(python), *args], capture_output=True, text=True, env=env, cwd=work)
    try:
        yield python, site, env, run, pip, base
    finally:
        _make_writable(tmp_path)


ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def _make_read_only(folder):
    "No file can be created or changed under `folder`: permission bits, or for root (whom they do not bind) `chattr +i`."
    paths = [folder, *folder.rglob("*")]
    if ROOT_USER:
        res = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
        if res.returncode: pytest.skip(f"running as root and `chattr +i` is not available: {res.stderr.strip()}")
    else:
        for p in paths: p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _make_writable(folder):
    paths = [p for p in [folder, *folder.rglob("*")] if not p.is_symlink()]
    if ROOT_USER: subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)
    else:
        for p in paths: p.chmod(p.stat().st_mode | stat.S_IWUSR)


def _numba_files(folder):
    "numba cache files under `folder`, except the compiled code a built package carries (`l0qsvm/_compiled`)."
    return sorted(p.name for p in Path(folder).rglob("*") if p.suffix in (".nbi", ".nbc") and p.parent.name != "_compiled")


FIRST_FIT_COMPILES = """
from numba.core import event
compiled = []
class Count(event.Listener):
    def on_start(self, ev): pass
    def on_end(self, ev):
        f = ev.data["dispatcher"].py_func
        if f.__module__.startswith("l0qsvm"): compiled.append(f.__qualname__)
event.register("numba:compile", Count())
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from l0qsvm import L0QSVM, QSVM, SparseKLR
X, y = load_breast_cancer(return_X_y=True); X = StandardScaler().fit_transform(X)
L0QSVM(k=60, C=10.0).fit(X, y); QSVM(C=10.0).fit(X[:, :8], y); SparseKLR(C=10.0).fit(X, y)
print(len(compiled), sorted(set(compiled)))
"""


def test_installed_package_carries_its_compiled_code(sandbox):
    "`pip install .` compiles the solvers into the package: a fresh process with an empty cache compiles nothing."
    python, site, env, run, pip, base = sandbox
    shipped = sorted(p.name for p in (site / "l0qsvm" / "_compiled").iterdir())
    assert any(n.startswith("smo._solve-") and n.endswith(".nbi") for n in shipped), shipped
    res = run("-c", FIRST_FIT_COMPILES)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[0] == "0", f"compiled on first use: {res.stdout}"
    assert _numba_files(Path(env["HOME"]) / ".cache" / "l0qsvm"), "the shipped code did not reach the user's cache"


def test_read_only_install_fits(sandbox):
    python, site, env, run, pip, base = sandbox
    package, home = site / "l0qsvm", Path(env["HOME"])
    _make_read_only(package)
    try: _read_only_fits(package, home, env, run)
    finally: _make_writable(package)


def _read_only_fits(package, home, env, run):
    res = run("-c", FIT)
    assert res.returncode == 0, res.stderr
    assert _numba_files(home / ".cache" / "l0qsvm"), "the per-user cache folder was not used"
    # nothing writable in the home folder either: the cache falls back to a temporary folder
    shutil.rmtree(home / ".cache"); _make_read_only(home)
    res = run("-c", FIT + "; from l0qsvm.smo import numba_cache_dir; print(numba_cache_dir())")
    assert res.returncode == 0, res.stderr
    assert Path(res.stdout.split()[-1]).is_relative_to(Path(env["TMPDIR"]))
    assert _numba_files(package) == []


def test_build_compiles_when_the_dependencies_come_through_pythonpath(tmp_path):
    "pip's isolated build finds its requirements through PYTHONPATH only: the compile step must keep it (it once did not)."
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    clone, out = _copy_repo(tmp_path / "clone"), tmp_path / "lib"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]            # the dependencies, as pip's build environment gives them
    res = subprocess.run([str(python), "setup.py", "-q", "build_py", "--build-lib", str(out)], cwd=clone, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    shipped = [p.name for p in (out / "l0qsvm" / "_compiled").glob("smo._solve-*.nbi")]
    assert shipped, res.stdout + res.stderr


def test_regular_install_then_editable_install_imports(sandbox):
    "The last test of the shared install: `pip install -e .` over it (the issue 7 sequence)."
    python, site, env, run, pip, base = sandbox
    clone = base / "clone"                                  # pip install . (done by the fixture)
    res = run("-c", FIT)                                    # ... && (a short main job)
    assert res.returncode == 0, res.stderr
    assert Path(res.stdout.strip()).is_relative_to(site)
    in_package, per_user = _numba_files(site / "l0qsvm"), _numba_files(Path(env["HOME"]) / ".cache" / "l0qsvm")
    pip("-e", str(clone))                                   # pip install -e . (over the regular install)
    res = run("-c", "from l0qsvm import QSVM, L0QSVM; import l0qsvm; print(l0qsvm.__file__)")
    assert res.returncode == 0, res.stderr                  # was: ImportError ... (unknown location)
    assert Path(res.stdout.strip()).is_relative_to(clone)
    assert not (site / "l0qsvm").exists(), f"left behind: {sorted(p.name for p in (site / 'l0qsvm').rglob('*'))}"
    assert in_package == [], "numba wrote its cache inside the installed package"
    assert per_user, "the per-user cache folder was not used"
