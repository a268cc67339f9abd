"""Run every notebook in `nbs/` as a test, the way `nbdev_test` does, one pytest test per notebook.

Cells flagged with a word in `tst_flags` (settings.ini: `notest slow`) are skipped unless `--slow` is given,
which forces the `slow` cells to run as `nbdev_test --flags slow` would.

A notebook defines its classes in `__main__`, warning classes included. The warnings a notebook leaves uncaught are
handed to pytest again as `UserWarning`s that name the notebook and the class: pytest-xdist (`pytest -n`) sends a
worker's warnings to the main process by their class's module and name, and `__main__` there is pytest itself.
"""
import warnings
from pathlib import Path

import pytest
from nbdev.config import get_config
from nbdev.test import test_nb as run_notebook  # renamed so that pytest does not collect it

ROOT = Path(__file__).resolve().parents[1]
NBS = sorted(p for p in (ROOT / "nbs").rglob("*.ipynb")
             if not any(part.startswith(("_", ".")) for part in p.relative_to(ROOT / "nbs").parts))


@pytest.mark.parametrize("nb", NBS, ids=[str(p.relative_to(ROOT / "nbs")) for p in NBS])
def test_notebook(nb, request):
    skip_flags = get_config().tst_flags.split()
    force_flags = ["slow"] if request.config.getoption("--slow") else []
    with warnings.catch_warnings(record=True) as caught:
        ok, secs = run_notebook(nb, skip_flags=skip_flags, force_flags=force_flags, basepath=ROOT, showerr=True)
    for w in caught: warnings.warn(f"{nb.name}: {w.category.__name__}: {w.message}", UserWarning)
    assert ok, f"{nb.name} failed (see the traceback above)"
