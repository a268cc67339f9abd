"""The tutorials as a newcomer opens them: the README's command, JupyterLab, Debian's chromium (slow).

The test copies `nbs/` to a temporary folder, runs the README's `jupyter trust` on the copied tutorials (with its own
Jupyter data folder, so nothing of the user's is touched), starts JupyterLab there and opens notebooks in headless
chromium through playwright. For each it checks that no dialog asks for a kernel, that the kernel starts, that the
tab is not marked modified and that the file on disk is unchanged. For the tutorials with sliders it checks that the
saved frames show as images (not as the widgets' text) and that no frame reaches past the notebook's right edge.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions"]
OPENED = ["tutorials/00_first_reading.ipynb", "tutorials/01_sparse_surfaces.ipynb", "tutorials/02_l1_vs_l0.ipynb",
          "tutorials/03_algorithm1.ipynb", "tutorials/04_sparse_klr.ipynb", "index.ipynb", "04_subproblems.ipynb"]


def readme_lab_line()->str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [l.split("#")[0].strip() for b in re.findall(r"```sh\n(.*?)```", text, re.S) for l in b.splitlines()]
    return next(l for l in lines if "jupyter lab " in l)


def _free_port()->int:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    return port


def _api(port, token, path, method="GET"):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=10) as r: return json.loads(r.read() or b"null")


@pytest.mark.slow
def test_tutorials_open_in_jupyterlab_as_the_readme_says(tmp_path):
    if not Path(CHROMIUM).exists(): pytest.skip(f"no chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright
    shutil.copytree(ROOT / "nbs", tmp_path / "nbs", ignore=shutil.ignore_patterns("_proc", ".ipynb_checkpoints"))
    env = dict(os.environ, JUPYTER_DATA_DIR=str(tmp_path / "data"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"))
    trust, lab_cmd = [part.strip() for part in readme_lab_line().split("&&")]
    assert trust.startswith("jupyter trust ") and lab_cmd.startswith("jupyter lab ")
    subprocess.run(trust, shell=True, check=True, cwd=tmp_path, env=env, capture_output=True)   # the README's glob
    port, token = _free_port(), "l0qsvm-test"
    lab = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
                            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}", "--allow-root"],
                           env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(240):
            try: _api(port, token, "/api/status"); break
            except Exception: time.sleep(0.5)
        before = {name: (tmp_path / "nbs" / name).read_bytes() for name in OPENED}
        problems = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for name in OPENED:
                page.goto(f"http://127.0.0.1:{port}/lab/tree/nbs/{name}?token={token}&reset", timeout=180_000)
                page.wait_for_selector(".jp-NotebookPanel", timeout=180_000)
                page.wait_for_function("() => document.querySelector('.jp-NotebookPanel .jp-Notebook .jp-Cell')", timeout=60_000)
                deadline = time.time() + 120
                while time.time() < deadline and not any(s["kernel"]["execution_state"] == "idle" for s in _api(port, token, "/api/sessions")):
                    time.sleep(1)
                time.sleep(3)                                          # JupyterLab writes the kernel's metadata now
                if page.query_selector(".jp-Dialog"): problems.append(f"{name}: a dialog: {page.inner_text('.jp-Dialog')[:100]}")
                if page.query_selector(".lm-TabBar-tab.lm-mod-current.jp-mod-dirty"): problems.append(f"{name}: marked modified on open")
                if not any(s["kernel"]["execution_state"] == "idle" for s in _api(port, token, "/api/sessions")):
                    problems.append(f"{name}: no kernel started")
                state = json.loads(before[name]).get("metadata", {}).get("widgets")
                if state:                                              # a tutorial with saved sliders
                    page.wait_for_selector(".widget-image", timeout=60_000)
                    text = page.evaluate("() => [...document.querySelectorAll('.jp-OutputArea-output')].some(o => o.innerText.includes('FrameSliders('))")
                    if text: problems.append(f"{name}: sliders shown as text, not as widgets")
                    spill = page.evaluate("""() => [...document.querySelectorAll('.widget-image')].filter(i => i.offsetParent).map(i => {
                        const r = i.getBoundingClientRect(), p = i.closest('.jp-NotebookPanel').getBoundingClientRect();
                        return [i.naturalWidth, Math.round(r.width), Math.round(r.right - p.right)]; })""")
                    if not spill or any(w == 0 or over > 0 for _, w, over in spill): problems.append(f"{name}: frames {spill}")
                for s in _api(port, token, "/api/sessions"): _api(port, token, f"/api/sessions/{s['id']}", "DELETE")
            browser.close()
        changed = [name for name in OPENED if (tmp_path / "nbs" / name).read_bytes() != before[name]]
        assert not problems and not changed, (problems, changed)
    finally:
        lab.terminate()
        try: lab.wait(30)
        except subprocess.TimeoutExpired: lab.kill()
