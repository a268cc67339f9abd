"""The worked solutions of the theory notebooks' exercises run, and their asserts hold.

Each theory notebook ends with `## Exercises`: questions, each followed by a solution collapsed in
`<details><summary>Solution</summary>` (a closed `<details>` element: collapsed on the site, in Jupyter and on GitHub).
A solution's code is a fenced Python block written to run on its own (it imports what it needs); the numbers the
solution's text quotes are asserted in that block. This test runs every such block of the notebooks below in a fresh
namespace, so a solution cannot drift away from the code it describes.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ["tutorials/00_first_reading", "00_vech", "01_features", "02_smo_basics", "03_smo", "04_subproblems", "04c_qsvm", "04d_multiclass", "05_sklr", "05a_sklr_estimator", "05b_sklr_experiments", "05c_sparse_kernel_peers", "12a_sklr_comparison", "06_penalty", "06a_swap"]


def exercises(name):
    "The markdown of the notebook from its `## Exercises` heading on."
    cells = json.loads((ROOT / "nbs" / f"{name}.ipynb").read_text())["cells"]
    md = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    start = next((k for k, s in enumerate(md) if re.search(r"^## Exercises", s, re.M)), None)
    return "\n".join(md[start:]) if start is not None else ""


def solution_blocks(name):
    "The fenced Python blocks inside the `<details>` elements of the exercises."
    blocks = []
    for details in re.findall(r"<details>(.*?)</details>", exercises(name), re.S):
        blocks += re.findall(r"```python\n(.*?)```", details, re.S)
    return blocks


CASES = [(name, k) for name in NOTEBOOKS for k in range(len(solution_blocks(name)))]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_theory_notebook_has_exercises(name):
    text = exercises(name)
    questions = re.findall(r"^\*\*\d+\.", text, re.M)
    assert len(questions) >= 3, f"{name}: {len(questions)} exercises, at least 3 wanted"
    assert text.count("<details><summary>Solution</summary>") == len(questions), f"{name}: one solution per exercise"
    assert "<details open" not in text, f"{name}: solutions must start collapsed"


@pytest.mark.parametrize("name,k", CASES, ids=[f"{n}-{k + 1}" for n, k in CASES])
def test_solution_runs(name, k, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    code = solution_blocks(name)[k]
    exec(compile(code, f"{name} exercise solution {k + 1}", "exec"), {"__name__": "__exercise__"})
