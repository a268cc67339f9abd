"""The course shape of the first lessons of track 1, and the compiled SMO's internals module.

Lessons: tutorials/00_first_reading, 00_vech, 01_features, 04_subproblems, 02_smo_basics, 03_smo. Each opens with its
objectives and what it needs, ends with what to remember and exercises, keeps its prose short and its engineering words
in sentences that point to an internals notebook. `l0qsvm.compiled` (nbs/internals/03i_compiled_smo) holds the numba
cache-folder machinery that `l0qsvm.smo` calls explicitly; executing the module itself changes nothing.
"""
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ["tutorials/00_first_reading", "00_vech", "01_features", "04_subproblems", "02_smo_basics", "03_smo"]
ENG = (r"\b(numba|cache[sd]?|caching|BLAS|threads?|deadlines?|max_time|budgets?|compil\w*|speed-up|faster|benchmarks?"
       r"|CRC|checksums?|joblib)\b")


def markdown(name):
    cells = json.loads((ROOT / "nbs" / f"{name}.ipynb").read_text())["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def prose(text):
    "Markdown without math and code (inline code too), as the course's word count reads it."
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S); text = re.sub(r"\$[^$]*\$", "", text)
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`]*`", "", text)


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_opens_with_objectives_and_needs(name):
    first = markdown(name)[0]
    assert first.startswith("# "), first[:80]
    learn = re.search(r"\*\*You will learn\*\*\n\n((?:- .+\n)+)\n\*\*You need\*\*: \S", first)
    assert learn, f"{name}: no 'You will learn' list followed by 'You need'"
    assert 3 <= len(learn.group(1).strip().splitlines()) <= 4


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_ends_with_remember_and_exercises(name):
    md = markdown(name)
    heads = [h for s in md for h in re.findall(r"^## .+", s, re.M)]
    assert heads[-2:] == ["## What to remember", "## Exercises"], heads[-3:]
    remember = next(s for s in md if s.startswith("## What to remember"))
    assert 3 <= len(re.findall(r"^- ", remember, re.M)) <= 6
    exercises = next(s for s in md if s.startswith("## Exercises"))
    assert exercises.count("<details><summary>Solution</summary>") >= 2 and "```python" in exercises


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_prose_and_engineering_words(name):
    paragraphs = [p for s in markdown(name) for p in prose(s).split("\n\n")]
    words = sum(len(re.findall(r"[A-Za-z0-9][\w'’-]*", p)) for p in paragraphs)
    eng = [(m, p) for p in paragraphs for m in re.findall(ENG, p, flags=re.I)]
    assert words <= 3500, words
    assert len(eng) <= 5, [m for m, _ in eng]
    assert all("internals/" in p for _, p in eng), [p[:100] for _, p in eng if "internals/" not in p]


def test_first_reading_is_public_and_points_to_the_syllabus():
    cells = json.loads((ROOT / "nbs/tutorials/00_first_reading.ipynb").read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    code += "\n".join(re.findall(r"```python\n(.*?)```", "\n".join(markdown("tutorials/00_first_reading")), re.S))
    assert not re.findall(r"(?<![\w.])_[A-Za-z]\w*|\._[A-Za-z]\w*", code)      # no private names
    where = next(s for s in markdown("tutorials/00_first_reading") if s.startswith("## Where next"))
    assert "(../syllabus.ipynb)" in where and "(../00_vech.ipynb)" in where
    assert not re.search(r"`\d\d\w*`", where)                                   # no order of its own


def test_03_smo_leaves_the_sklr_demonstration_to_track_2():
    text = "\n".join(markdown("03_smo"))
    assert "S-KLR" not in text and "Proposition 1" not in text and "primal KLR" not in text
    cells = json.loads((ROOT / "nbs/03_smo.ipynb").read_text())["cells"]
    assert "internals/03i_compiled_smo.ipynb" in text
    assert not any("_choose_cache_dir" in "".join(c["source"]) for c in cells)   # the folder code lives in internals


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
