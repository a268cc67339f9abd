"""The build's requirements: setup.py compiles the solvers into the wheel (`ship_compiled`), so the isolated build
environment needs everything `import l0qsvm` needs; pyproject.toml lists settings.ini's requirements for it."""
import configparser
import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")   # (Python >= 3.11)

ROOT = Path(__file__).resolve().parents[1]


def test_build_requires_the_runtime_requirements():
    cfg = configparser.ConfigParser(delimiters=["="]); cfg.read(ROOT / "settings.ini", encoding="utf-8")
    runtime = set(cfg["DEFAULT"]["requirements"].split())
    build = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"])
    assert runtime <= build, f"missing from [build-system] requires: {sorted(runtime - build)}"
    names = lambda reqs: {re.split(r"[<>=!~\[ ]", r)[0].lower() for r in reqs}
    assert names(build) - names(runtime) == {"setuptools"}

