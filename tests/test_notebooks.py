"""Run every notebook in `nbs/` as a test, one pytest test per notebook, and compare its saved outputs with the re-run.

Each notebook runs once, in a Jupyter kernel, exactly as `python tools/build_docs.py --execute` runs it when it saves
the outputs (`build_docs.run_notebook`: the same kernel, the same skipped cells). The test fails when a cell raises,
or when the re-run's outputs differ from the saved ones: a changed value, a missing output (a cell that ends in a
value or draws a figure and has no saved output), an output that is saved but no longer produced. The comparison is
pytest-notebook's (nbdime's diff), configured in pytest.ini (`nb_diff_ignore`, `nb_diff_replace`):

- ignored: notebook and cell metadata (widget state included), execution counts;
- replaced before comparing: PNG data (a figure must be there, its pixels may differ), widget model ids, memory
  addresses, timings, progress bars, temporary and site-packages paths;
- numbers equal up to round-off count as equal: one unit of their last printed digit (0.1234 and 0.1235, 2.1e-05 and
  2.2e-05), a relative 1e-9 for a float64 printed in full, anything for two residuals below 1e-10 (a KKT residual
  is 1e-14 on one processor and 3e-15 on another); integers (counts, iterations) and numpy's whole floats (`5.`)
  must be equal (`same_but_round_off`).

Cells flagged with a word of settings.ini's `tst_flags` (`notest slow`) and `#| eval: false` cells are skipped, and
keep their saved outputs. `--slow` runs the `slow` cells too (an error fails the test), without comparing their
outputs: `--execute` never writes them. The API pages (nbs/api/, rendered by show_doc when the site is built, saved
without outputs) are run in this process, as nbdev_test runs them, and not compared. To refresh a notebook's outputs after a change:
`python tools/build_docs.py --execute --only NAME --no-site`.

The warnings a notebook prints (its stderr) are handed to pytest as `UserWarning`s that name the notebook and the
cell, so that they show in pytest's summary.
"""
import re
import sys
import warnings
from pathlib import Path

import nbformat
import pytest
from pytest_notebook.diffing import diff_notebooks, diff_to_string, filter_diff
from pytest_notebook.notebook import regex_replace_nb
from pytest_notebook.post_processors import load_processor

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_docs  # noqa: E402

NBS = build_docs.notebooks()

# a number on its own: not part of a name (x1, float64) or of a dotted version (0.11.0)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?!\w|\.\d)")


def _last_digit(s):
    """The value of one unit of the last printed digit of number `s` ('0.125' -> 0.001, '3.2e-05' -> 1e-06); None
    for an integer, and for numpy's whole floats ('5.': exactly 5)."""
    mantissa, _, exp = s.lower().partition("e")
    if ("." not in mantissa and not exp) or mantissa.endswith("."): return None
    return 10.0 ** (int(exp or 0) - len(mantissa.partition(".")[2]))


RESIDUAL, FULL_DIGITS, FULL_RTOL = 1e-10, 12, 1e-9


def _digits(s):
    "The significant digits printed in number `s`."
    return len(s.lower().partition("e")[0].lstrip("+-").replace(".", "").lstrip("0"))


def _same_number(x, y):
    """Numbers `x`, `y` (as printed) equal up to round-off: both round-off residuals (at most `RESIDUAL` in size, e.g.
    a KKT residual of 1e-14 on one processor and 3e-15 on another); float64 printed in full (at least `FULL_DIGITS`
    digits: the last ones are round-off) within a relative `FULL_RTOL`; otherwise one unit of the last printed digit
    (the coarser of the two). Integers and numpy's whole floats (`5.`) must be equal."""
    if x == y: return True
    a, b, units = float(x), float(y), [_last_digit(x), _last_digit(y)]
    if None in units: return False
    if max(abs(a), abs(b)) <= RESIDUAL: return True
    if min(_digits(x), _digits(y)) >= FULL_DIGITS: return abs(a - b) <= FULL_RTOL * max(abs(a), abs(b))
    return abs(a - b) <= max(units) * (1 + 1e-9)


def same_but_round_off(saved, fresh):
    """Whether texts `saved` and `fresh` are the same but for numbers equal up to round-off (`_same_number`), and for
    whitespace around numbers (numpy pads columns to their widest entry)."""
    a, b = _NUMBER.split(saved), _NUMBER.split(fresh)
    if len(a) != len(b) or any(x.split() != y.split() for x, y in zip(a, b)): return False
    return all(_same_number(x, y) for x, y in zip(_NUMBER.findall(saved), _NUMBER.findall(fresh)))


MACHINE = "machine-dependent"   # the cell tag of outputs whose values depend on the processor (see below)


def same_but_numbers(saved, fresh):
    "Whether texts `saved` and `fresh` are the same once every number is masked (the words, keys and shapes agree)."
    mask = lambda s: " ".join(_NUMBER.sub("<n>", s).split())
    return mask(saved) == mask(fresh)


def forgive_round_off(saved, fresh):
    """Set each output text of `fresh` that differs from `saved`'s only by round-off (`same_but_round_off`) to `saved`'s.

    In a cell tagged `machine-dependent` only the numbers may differ (`same_but_numbers`): the step counts of an
    iterative solver, or a value at its tolerance, follow the round-off of the processor and of its BLAS (a run with
    `NUMBA_CPU_NAME=generic OPENBLAS_CORETYPE=Prescott` changes them), so such a cell is checked for its text, keys
    and shapes, not for its figures."""
    for cs, cf in zip(saved.cells, fresh.cells):
        same = same_but_numbers if MACHINE in cs.get("metadata", {}).get("tags", []) else same_but_round_off
        for os_, of in zip(cs.get("outputs", []), cf.get("outputs", [])):
            pairs = [(os_, of, "text")] + [(os_["data"], of["data"], k) for k in of.get("data", {})
                                           if k in os_.get("data", {})]
            for ds, df, k in pairs:
                s, f = ds.get(k), df.get(k)
                if isinstance(s, str) and isinstance(f, str) and s != f and same(s, f): df[k] = s


def _cells_named(diff, nb):
    "One line per cell that the diff touches: its index and its first line of source."
    lines = []
    for entry in diff:
        if entry["key"] != "cells": continue
        for d in entry.get("diff", []):
            i = d["key"]
            first = nb.cells[i].source.strip().splitlines()[0] if i < len(nb.cells) and nb.cells[i].source.strip() else ""
            lines.append(f"  cell {i}: {first[:100]}")
    return "\n".join(lines)


def compare(saved, fresh, nb_regression, ignore_cells=()):
    """The diff of the saved notebook and its re-run, under the pytest.ini settings that `nb_regression` (pytest-notebook's
    fixture) holds: post-processors (stream coalescing), replacements, round-off, ignored paths and `ignore_cells`.
    Returns (filtered diff, readable text)."""
    for name in nb_regression.post_processors:
        saved, _ = load_processor(name)(saved, {})
        fresh, _ = load_processor(name)(fresh, {})
    saved, fresh = regex_replace_nb(saved, nb_regression.diff_replace), regex_replace_nb(fresh, nb_regression.diff_replace)
    forgive_round_off(saved, fresh)
    ignore = set(nb_regression.diff_ignore) | {f"/cells/{i}/outputs" for i in ignore_cells}
    diff = filter_diff(diff_notebooks(saved, fresh), ignore)
    text = diff_to_string(saved, diff, use_color=nb_regression.diff_use_color) if diff else ""
    return diff, (_cells_named(diff, saved) + "\n" + text if diff else "")


_WARNING = re.compile(r"^(?:\S.*?:\d+: )?(\w*Warning): (.*)$", re.M)


def run_api_page(nb, run):
    """An API page (show_doc entries, no saved outputs: nothing to compare) runs in this process, as nbdev_test runs
    it: a kernel would cost seconds each for a page of show_doc calls."""
    from nbdev.test import test_nb
    with warnings.catch_warnings(record=True) as caught:
        ok, _ = test_nb(nb, skip_flags=sorted(build_docs.SKIP_WORDS), force_flags=list(run), basepath=ROOT, showerr=True)
    for w in caught: warnings.warn(f"{nb.name}: {w.category.__name__}: {w.message}", UserWarning)
    assert ok, f"{nb.name} failed (see the traceback above)"


@pytest.mark.parametrize("nb", NBS, ids=[str(p.relative_to(build_docs.NBS)) for p in NBS])
def test_notebook(nb, request, nb_regression):
    run = ("slow",) if request.config.getoption("--slow") else ()
    if not build_docs.executed_by_docs(nb): return run_api_page(nb, run)
    saved = nbformat.read(nb, as_version=4)
    fresh = nbformat.read(nb, as_version=4)
    build_docs.run_notebook(fresh, nb, run=run)          # raises nbclient's CellExecutionError, naming the cell
    for i, cell in enumerate(fresh.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                for m in _WARNING.finditer(out.text): warnings.warn(f"{nb.name} cell {i}: {m[1]}: {m[2]}", UserWarning)
    # cells --execute does not run keep their saved outputs: with --slow they run, and are not compared
    diff, text = compare(saved, fresh, nb_regression, ignore_cells=set(build_docs.skipped_cells(saved)))
    if diff:
        pytest.fail(f"{nb.relative_to(ROOT)}: the saved outputs differ from a re-run in these cells (refresh them: "
                    f"python tools/build_docs.py --execute --only {nb.relative_to(build_docs.NBS)} --no-site)\n{text}",
                    pytrace=False)


@pytest.mark.parametrize("saved, fresh, same", [
    ("0.1234", "0.1235", True), ("[ 0.12 -0.5 ]", "[-0.13 -0.5 ]", False), ("0.30000000000000004", "0.3", True),
    ("f = 2.1e-05", "f = 2.2e-05", True), ("array([ 1.5, -0.01])", "array([ 1.5,  0.  ])", False),
    ("array([-0.01])", "array([ 0.00])", True), ("0.1234", "0.1236", False), ("1.00", "0.99", True),
    ("186 iterations", "187 iterations", False), ("array([5., 6.])", "array([6., 6.])", False),
    ("6.598800263803891e-12", "6.61e-12", True), ("1.2e-05", "1.3e-06", False), ("5e-09", "8e-09", False),
    ("2.2322314965256678", "2.232231496525671", True), ("2.2322314965256678", "2.2322315165256678", False), ("0.5 (k=3)", "0.5 (k=4)", False), ("a 0.5", "b 0.5", False),
    ("np.float64(0.25)", "np.float64(0.26)", True), ("version 0.11.0", "version 0.11.1", False),
    ("x1 = 0.5.", "x2 = 0.5.", False), ("is 0.52.", "is 0.53.", True)])
def test_same_but_round_off(saved, fresh, same):
    assert same_but_round_off(saved, fresh) == same


@pytest.mark.parametrize("saved, fresh, same", [
    ("[(0, 'rbf', 40, 'first', 1969)]", "[(0, 'rbf', 40, 'first', 1990)]", True),
    ("{'steps': (8, 11)}", "{'steps': (8, 11, 3)}", False), ("{'worst_gap': 5.2e-10}", "{'gap': 5.2e-10}", False),
    ("f(x) = 1.03·x0² − 0.0226·x0·x1", "f(x) = 1.03·x0² − 0.0228·x0·x1", True)])
def test_machine_dependent_cells_compare_their_text(saved, fresh, same):
    assert same_but_numbers(saved, fresh) == same
