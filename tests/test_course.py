"""The course has one path and every lesson its shape (tools/course.py measures them).

- The sidebar's Course section lists exactly the lessons of the syllabus (nbs/syllabus.ipynb), in its order, and the
  syllabus (written by `python tools/course.py --write`) quotes each lesson's objectives and prerequisites as the
  lesson states them, and its time as tools/course.py estimates it.
- Every lesson opens with what you will learn (3 or 4 objectives) and what you need, ends with a summary and its
  exercises, has at most 3,500 words of prose and at most 5 engineering words, each in a line that points to an
  Internals notebook.
- No lesson uses a module that a later lesson builds: the l0qsvm modules a lesson imports (in its code cells, and
  those its own exported module imports), followed through the imports of the package's modules, come from earlier
  lessons or from internals notebooks. The first reading alone previews the finished estimators, as black boxes.
"""
import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_docs  # noqa: E402
import course  # noqa: E402

LESSONS = course.lessons()
MAX_WORDS, MAX_ENGINEERING = 3500, 5


def syllabus_links():
    "The lessons of the syllabus, in order: the link of each `### N. [title](path)` heading."
    return re.findall(r"^### \d+\. \[[^\]]*\]\(([^)]+)\)", "\n".join(course.markdown("syllabus.ipynb")), re.M)


def test_sidebar_course_is_the_syllabus():
    assert len(LESSONS) >= 15 and LESSONS[0] == "tutorials/00_first_reading.ipynb"
    assert syllabus_links() == LESSONS


def test_syllabus_is_written_from_the_lessons():
    "Its objectives and prerequisites are the lessons' own, its times tools/course.py's (`python tools/course.py --write`)."
    assert course.markdown("syllabus.ipynb") == course.syllabus_cells()


@pytest.mark.parametrize("path", LESSONS)
def test_lesson_opens_with_objectives_and_prerequisites(path):
    got = course.opening(path)
    assert got, f"{path}: no '**You will learn**' list followed by '**You need**' in its first cell"
    objectives, need = got
    assert 3 <= len(objectives) <= 4 and need


@pytest.mark.parametrize("path", LESSONS)
def test_lesson_ends_with_summary_and_exercises(path):
    heads = course.sections(path)
    assert heads[-2:] == ["What to remember", "Exercises"], heads[-3:]
    assert course.exercises(path) >= 1


@pytest.mark.parametrize("path", LESSONS)
def test_lesson_prose_is_short(path):
    assert course.words(path) <= MAX_WORDS


@pytest.mark.parametrize("path", LESSONS)
def test_lesson_engineering_words_are_pointers(path):
    found = course.engineering(path)
    assert len(found) <= MAX_ENGINEERING, [w for w, _ in found]
    for word, para in found: assert "](internals/" in para or "](../internals/" in para, f"{word!r} in: {para[:300]}"


def test_title_cells_hold_only_title_and_description():
    """nbdev turns a notebook's first markdown cell into the page's front matter (title, description, `- key: value`
    lines) and drops the rest of it: whatever else a notebook says first must be in a cell of its own."""
    for path in sorted(build_docs.notebooks()):
        first = next((c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "markdown"), None)
        if first is None: continue
        lines = [l for l in "".join(first["source"]).splitlines() if l.strip()]
        assert lines[0].startswith("# ") and all(l.startswith(">") for l in lines[1:]), f"{path}: {lines[:4]}"


def test_engineering_words_are_counted():
    "The counter sees the words it must (a test of the test): code and math are not prose, inline code is."
    text = "Numba compiles; the cache, BLAS threads, `max_time`, faster (a speed-up)"
    assert [m.group(0) for m in course.ENGINEERING.finditer(text)] == ["Numba", "compiles", "cache", "BLAS", "threads",
                                                                      "max_time", "faster", "speed-up"]
    assert course.WORD.findall(course.strip_math_and_code("a $x^2$ b\n```python\nc d\n```\n$$e$$ `f` g")) == ["a", "b", "g"]
    assert course.ENGINEERING.findall(course.strip_math_and_code("`max_time` and `cached_eigh`", course.ENGINEERING_CODE)) == ["max_time"]


def test_first_reading_is_public_and_points_to_the_syllabus():
    "The first lesson uses no private name (in its cells or its solutions) and sends the reader on by the syllabus."
    cells = course.cells("tutorials/00_first_reading.ipynb")
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    code += "\n".join(re.findall(r"```python\n(.*?)```", "\n".join(course.markdown("tutorials/00_first_reading.ipynb")), re.S))
    assert not re.findall(r"(?<![\w.])_[A-Za-z]\w*|\._[A-Za-z]\w*", code)      # no private names
    where = next(s for s in course.markdown("tutorials/00_first_reading.ipynb") if s.startswith("## Where next"))
    assert "(../syllabus.ipynb)" in where and "(../00_vech.ipynb)" in where
    assert not re.search(r"`\d\d\w*`", where)                                   # no order of its own


# ---- imports in syllabus order ------------------------------------------------------------------------------------
def exported_module(path):
    "The module a notebook exports (`#| default_exp NAME`), or None."
    for c in course.cells(path):
        m = re.search(r"^#\|\s*default_exp\s+(\S+)", "".join(c["source"]), re.M)
        if c["cell_type"] == "code" and m: return m.group(1)


def imported_modules(source):
    "The l0qsvm modules a piece of Python imports (`from l0qsvm import NAME` counts NAME's defining module)."
    import l0qsvm
    out = set()
    try: tree = ast.parse(source)
    except SyntaxError: return out
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("l0qsvm") or \
           isinstance(node, ast.ImportFrom) and node.level == 1:
            mod = (node.module or "").removeprefix("l0qsvm").lstrip(".")
            if mod: out.add(mod.split(".")[0])
            else: out |= {_home(getattr(l0qsvm, a.name)) for a in node.names if hasattr(l0qsvm, a.name)}
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("l0qsvm.")}
    return out


def _home(obj):
    "The package module that defines `obj` (or is `obj`)."
    return getattr(obj, "__module__", None) and obj.__module__.split(".")[-1] or obj.__name__.split(".")[-1]


def notebook_code(path):
    code = []
    for c in course.cells(path):
        if c["cell_type"] != "code": continue
        code.append("\n".join(l for l in "".join(c["source"]).splitlines() if not l.lstrip().startswith(("%", "!"))))
    return "\n".join(code)


INTERNALS = {m for p in (ROOT / "nbs" / "internals").glob("*.ipynb") if (m := exported_module(f"internals/{p.name}"))}


def module_closure(mods):
    """The modules `mods` import, directly or not, through the lessons' modules: an internals module counts itself but
    not what it imports (its engineering may reach any lesson's code, as the build step compiles every model)."""
    todo, seen = list(mods), set()
    while todo:
        m = todo.pop()
        if m in seen: continue
        seen.add(m)
        f = ROOT / "l0qsvm" / f"{m}.py"
        if f.exists() and m not in INTERNALS: todo += imported_modules(f.read_text(encoding="utf-8"))
    return seen


PREVIEW = "tutorials/00_first_reading.ipynb"   # the first reading previews the finished estimators, as black boxes


def test_no_lesson_uses_a_later_lesson():
    owner = {exported_module(p): k for k, p in enumerate(LESSONS) if exported_module(p)}
    problems = []
    for k, path in enumerate(LESSONS):
        if path == PREVIEW: continue
        mods = imported_modules(notebook_code(path))
        for m in sorted(module_closure(mods)):
            if owner.get(m, -1) > k: problems.append(f"{path} uses l0qsvm.{m}, built by the later lesson {LESSONS[owner[m]]}")
    assert problems == []


def test_import_order_check_sees_a_forward_use():
    "A test of the test: 00_vech's position cannot use the swap search's module."
    assert "swap" in module_closure(imported_modules("from l0qsvm import L0QSVM"))
    assert {"vech"} == module_closure(imported_modules("import l0qsvm.vech"))
