"""The README is generated from nbs/index.ipynb and opens with the two commands a newcomer needs; CI runs the second."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    return [line.split("#")[0].strip() for line in block.strip().splitlines()]


def test_readme_opens_with_install_and_test_commands():
    install, test = readme_commands()
    assert install.startswith("pip install .") and "l0qsvm " in install
    assert test.startswith('pip install -e ".[dev]"') and test.endswith("pytest")


def test_ci_runs_both_readme_commands_in_order():
    "CI runs the README's two commands, main job first, as a newcomer would (one environment, in that order)."
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    at = []
    for command in readme_commands():
        found = [i for i, line in enumerate(lines) if line.startswith(command)]
        assert found, f"{command!r} not run by .ci/run"
        at.append(found[0])
    assert at == sorted(at), "the README's commands must run in the order written"
    assert sum(line.startswith("python3 -m venv") for line in lines) == 1, "both commands run in one new environment"


def test_readme_says_how_to_open_the_tutorials_in_jupyterlab():
    "One command trusts the tutorials and opens one that exists in JupyterLab (installed by the dev extras)."
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()]
    lab = [line for line in lines if "jupyter lab " in line]
    assert len(lab) == 1, lines
    trust, opens = [part.strip() for part in lab[0].split("&&")]
    assert trust == "jupyter trust nbs/tutorials/*.ipynb" and opens.startswith("jupyter lab ")
    target = ROOT / opens.split()[-1]
    assert target.suffix == ".ipynb" and target.parent == ROOT / "nbs" / "tutorials" and target.exists()
    assert "jupyter" in (ROOT / "settings.ini").read_text(encoding="utf-8").split("dev_requirements", 1)[1].splitlines()[0]


def test_readme_is_generated_from_index():
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "make_readme.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow                  # (CI runs README command 1 itself, just before the tests)
def test_console_command_runs_main_job(tmp_path):
    "The README's main job runs (in a scratch folder: it writes its results where it is run)."
    install = readme_commands()[0]
    job = install.split("&&")[1].split()
    res = subprocess.run([sys.executable, "-c", "import sys; from l0qsvm.cli import main; sys.exit(main(sys.argv[1:]))", *job[1:], "--quiet"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
