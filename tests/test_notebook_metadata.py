"""Every notebook opens in JupyterLab without a "Select Kernel" dialog and without being marked modified.

JupyterLab writes the kernelspec of the kernel it starts and the kernel's `language_info` into a notebook when it
opens it; a notebook that already holds exactly these is left unmodified (`tools/clean_notebooks.py` explains why).
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import clean_notebooks as cn  # noqa: E402

NOTEBOOKS = cn.notebooks()


def test_every_notebook_is_found():
    "The list covers the theory notebooks, the tutorials, the API pages and the index."
    names = {str(p.relative_to(cn.NBS)) for p in NOTEBOOKS}
    assert {"index.ipynb", "04_subproblems.ipynb", "tutorials/01_sparse_surfaces.ipynb", "api/10a_widgets.ipynb", "internals/10a_widgets.ipynb"} <= names
    assert len(NOTEBOOKS) > 40


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[str(p.relative_to(cn.NBS)) for p in NOTEBOOKS])
def test_notebook_has_the_metadata_jupyterlab_writes(nb):
    assert cn.wrong(nb) == [], f"{nb.name}: run python tools/clean_notebooks.py"


def test_canonical_metadata_is_what_the_kernel_reports():
    "The kernelspec ipykernel installs, and ipykernel's language_info (its Python version is that of the reference environment)."
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert cn.KERNELSPEC == {"display_name": spec.display_name, "language": spec.language, "name": "python3"}
    reported = dict(IPythonKernel.language_info)
    assert {k: v for k, v in cn.LANGUAGE_INFO.items() if k != "version"} == {k: v for k, v in reported.items() if k != "version"}
    assert cn.PYTHON_VERSION.count(".") == 2


def test_cleaning_gives_the_canonical_metadata_and_keeps_the_cells(tmp_path):
    "nbdev_clean alone rewrites the kernelspec's display name; tools/clean_notebooks.py puts it back and touches no cell."
    src = cn.NBS / "00_vech.ipynb"
    copy = tmp_path / "copy.ipynb"
    nb = json.loads(src.read_text(encoding="utf-8"))
    nb["metadata"] = {key: value for key, value in nb["metadata"].items() if key != "language_info"}
    nb["metadata"]["kernelspec"] = {"display_name": "python3", "language": "python", "name": "python3"}
    copy.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")
    assert cn.wrong(copy)
    subprocess.run([sys.executable, str(ROOT / "tools" / "clean_notebooks.py"), str(copy)], check=True, cwd=ROOT,
                   capture_output=True)
    assert cn.wrong(copy) == []
    assert json.loads(copy.read_text(encoding="utf-8"))["cells"] == json.loads(src.read_text(encoding="utf-8"))["cells"]
    assert copy.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")    # byte for byte what the repository holds
