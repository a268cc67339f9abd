"""A reader of a tutorial in JupyterLab runs cells again, in any order: that must never raise.

After one run from the top, each tutorial runs its code cells again backwards, then once more from every cell to the
end (so each cell also runs after every earlier one has been re-run). Slow: the tutorials render their frames again.
"""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "nbs" / "tutorials").glob("*.ipynb"))


def rerun_orders(n:int)->list:
    "The orders in which the code cells 0..n-1 run: from the top, backwards, then from every cell to the end."
    return [list(range(n)), list(reversed(range(n)))] + [list(range(i, n)) for i in range(1, n)]


def test_rerun_orders_cover_every_pair():
    "Every cell runs after every other cell within one of the orders, and every cell starts an order (after a full run)."
    n = 6
    orders = rerun_orders(n)
    later = {(i, j) for order in orders for a, i in enumerate(order) for j in order[a + 1:]}
    assert later == {(i, j) for i in range(n) for j in range(n) if i != j}
    assert {order[0] for order in orders} == set(range(n)) and orders[0] == list(range(n))


@pytest.mark.slow
@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_cells_run_again_in_any_order(path):
    nb = nbformat.read(path, as_version=4)
    code = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel():
        for order in rerun_orders(len(code)):
            for k in order:
                client.execute_cell(nb.cells[code[k]], code[k])     # raises CellExecutionError on any error
