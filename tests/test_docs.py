"""The documentation site's configuration and build pieces (fast; the full build + browser check is test_docs_site.py).

- every notebook is reachable from the sidebar (nbs/sidebar.yml, whose `auto:` globs are expanded as Quarto does);
- the API reference pages nbs/api/ are up to date with the package (tools/make_api_pages.py --check), and list a
  show_doc entry for every public function, class and method of l0qsvm/_modidx.py;
- the pieces of tools/build_docs.py that replace Quarto: glob semantics, cell options, link rewriting;
- the nbdev 2.4 jslink fix is configured (settings.ini `procs`) and nbdev's own processing survives saved jslinks;
- the site's configuration is _quarto.yml at the top level, nbs/_quarto.yml (what nbdev 2.4 reads) a link to it, and
  `nbdev_docs` runs Quarto (a stand-in here: Quarto cannot be installed) on that file, its metadata files and styles;
- doc links: backticked public names and notebook names become links, to the ids the pages really have.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_docs  # noqa: E402
import make_api_pages  # noqa: E402


def sidebar_pages():
    meta = {}
    return list(build_docs.flatten(build_docs.sidebar_tree(build_docs.site_config(), meta)))


def test_every_notebook_is_in_the_sidebar():
    pages = sidebar_pages()
    notebooks = [str(p.relative_to(build_docs.NBS).as_posix()) for p in build_docs.notebooks()]
    assert sorted(set(notebooks) - set(pages)) == []
    assert len(pages) == len(set(pages)), "a notebook is listed twice"
    assert pages[0] == "index.ipynb"


def test_sidebar_sections_and_order():
    tree = build_docs.sidebar_tree(build_docs.site_config(), {})
    sections = {title: list(build_docs.flatten(items)) for kind, title, items in tree if kind == "section"}
    assert list(sections) == ["Course", "Experiments", "Internals", "API"]
    pages = [p for kind, p, _ in tree if kind == "page"]
    assert pages == ["index.ipynb", "syllabus.ipynb", "symbols.ipynb"]
    assert sections["Course"][:3] == ["tutorials/00_first_reading.ipynb", "00_vech.ipynb", "01_features.ipynb"]
    assert {"internals/04b_hinge_solvers.ipynb", "internals/10a_widgets.ipynb", "internals/13_cli.ipynb"} <= set(sections["Internals"])
    assert sections["Internals"].index("internals/10_plotting.ipynb") < sections["Internals"].index("internals/10a_widgets.ipynb")
    assert all(p.startswith("experiments/") for p in sections["Experiments"]) and len(sections["Experiments"]) >= 3
    assert all(p.startswith("api/") for p in sections["API"])


@pytest.mark.parametrize("glob, path, hit", [
    ("0[0-6]*.ipynb", "05_sklr.ipynb", True), ("0[0-6]*.ipynb", "08_estimators.ipynb", False),
    ("internals/*.ipynb", "internals/12_experiments.ipynb", True), ("*.ipynb", "tutorials/a.ipynb", False),
    ("experiments/*.ipynb", "experiments/table2.ipynb", True), ("**/*.ipynb", "a/b/c.ipynb", True),
])
def test_quarto_globs(glob, path, hit):
    "Globs match as Quarto's do: a new notebook in internals/ or experiments/ joins its section."
    assert bool(build_docs._glob_regex(glob).match(path)) == hit


def test_api_pages_are_up_to_date():
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "make_api_pages.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr


def test_api_pages_document_every_public_name():
    "Each public function, class and method of l0qsvm/_modidx.py has a show_doc cell on its module's API page."
    syms = make_api_pages.modidx()
    for module, source in make_api_pages.modules():
        page = nbformat.read(build_docs.NBS / "api" / Path(source).name, as_version=4)
        shown = set(re.findall(r"^show_doc\(([\w.]+)\)$", "\n".join(c.source for c in page.cells), re.M))
        public = {s[len(module) + 1:] for s in syms[module]
                  if not any(part.startswith("_") for part in s[len(module) + 1:].split("."))}
        assert public <= shown, (module, sorted(public - shown))
    assert len(make_api_pages.modules()) == len(syms)


def test_quarto_cell_options():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("#| echo: false\n#| output: asis\nshow_doc(f)", outputs=[
            nbformat.v4.new_output("execute_result", {"text/markdown": "[source](https://x/y.py#L3){target=\"_blank\" "
                                                                       "style=\"float:right\"}\n\n### f"})]),
        nbformat.v4.new_code_cell("#| include: false\nsecret()"),
        nbformat.v4.new_code_cell("#| code-fold: show\n#| code-summary: \"Exported source\"\ndef f(): pass"),
        nbformat.v4.new_code_cell("#| output: false\nprint(1)", outputs=[nbformat.v4.new_output("stream", text="1")]),
    ])
    cells = build_docs.quarto_cells(nb).cells
    assert len(cells) == 3
    assert cells[0].metadata.tags == ["remove_input"] and cells[0].source == "show_doc(f)"
    md = cells[0].outputs[0]["data"]["text/markdown"]
    assert md.startswith('<a href="https://x/y.py#L3" class="source-link" target="_blank" style="float:right">')
    assert cells[1].metadata.code_fold == "show" and cells[1].metadata.code_summary == "Exported source"
    assert cells[2].metadata.tags == ["remove_output"]


def test_links_become_relative():
    hrefs = {"00_vech.ipynb": "vech.html", "api/00_vech.ipynb": "api/vech.html"}
    body = ('<a href="https://l0qsvm.github.io/l0qsvm/vech.html#hvec">hvec</a> <a href="../00_vech.ipynb#x">v</a> '
            '<a href="https://github.com/l0qsvm/l0qsvm">repo</a>')
    out = build_docs.rewrite_links(body, "api/vech.html", hrefs, "https://l0qsvm.github.io/l0qsvm")
    assert out == ('<a href="../vech.html#hvec">hvec</a> <a href="../vech.html#x">v</a> '
                   '<a href="https://github.com/l0qsvm/l0qsvm">repo</a>')


def test_nbdev_processing_keeps_jslink_state(tmp_path):
    "nbdev's docs processor (with settings.ini's procs) writes a notebook with saved jslink state, link intact."
    from nbdev.config import get_config
    from nbdev.processors import FilterDefaults
    from execnb.nbio import read_nb, write_nb
    assert "l0qsvm.widgets:KeepJslinkState" in get_config().get("procs", "")
    mime = "application/vnd.jupyter.widget-state+json"
    link = {"model_module": "@jupyter-widgets/controls", "model_module_version": "2.0.0", "model_name": "LinkModel",
            "state": {"source": ["IPY_MODEL_a", "index"], "target": ["IPY_MODEL_b", "selected_index"]}}
    src = tmp_path / "linked.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A title\n> with a link")])
    nb.metadata["widgets"] = {mime: {"state": {"m": link}, "version_major": 2, "version_minor": 0}}
    nbformat.write(nb, src)
    processed = read_nb(src)
    FilterDefaults()(processed)
    write_nb(processed, tmp_path / "out.ipynb")
    state = json.loads((tmp_path / "out.ipynb").read_text())["metadata"]["widgets"][mime]["state"]
    assert state["m"]["state"] == link["state"]


# ---------------------------------------------------------------------------------------------------------------
# The site's configuration: _quarto.yml at the top level, what nbdev 2.4 reads in nbs/ derived from it

def test_quarto_yml_is_at_the_top_and_nbs_links_to_it():
    "One file to edit: _quarto.yml beside nbs/, l0qsvm/, settings.ini; nbdev's nbs/_quarto.yml is a link to it."
    top, link = ROOT / "_quarto.yml", ROOT / "nbs" / "_quarto.yml"
    assert top.is_file() and not top.is_symlink()
    assert link.is_symlink() and link.readlink().as_posix() == "../_quarto.yml"
    assert link.resolve() == top.resolve() and link.read_bytes() == top.read_bytes()
    cfg = build_docs.site_config()                 # read from the top-level file, with its metadata files
    assert cfg["project"]["type"] == "website" and cfg["metadata-files"] == ["nbdev.yml", "sidebar.yml"]
    assert cfg["website"]["title"] == "l0qsvm" and cfg["website"]["sidebar"]["contents"][0] == "index.ipynb"


def test_build_refuses_a_config_copy_that_drifted(tmp_path, monkeypatch):
    "tools/build_docs.py stops if nbs/_quarto.yml is missing or no longer the top-level file."
    top, nbs_copy = tmp_path / "_quarto.yml", tmp_path / "nbs" / "_quarto.yml"
    nbs_copy.parent.mkdir()
    top.write_text("project:\n  type: website\n")
    monkeypatch.setattr(build_docs, "QUARTO_YML", top)
    monkeypatch.setattr(build_docs, "NBDEV_QUARTO_YML", nbs_copy)
    monkeypatch.setattr(build_docs, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="is missing"): build_docs.check_quarto_link()
    nbs_copy.write_text("project:\n  type: book\n")
    with pytest.raises(SystemExit, match="differs from _quarto.yml"): build_docs.check_quarto_link()
    nbs_copy.write_bytes(top.read_bytes())          # an identical copy (a checkout without symbolic links) is fine
    build_docs.check_quarto_link()


def test_nbdev_config_step_keeps_the_layout(tmp_path):
    "nbdev_docs' first step (refresh_quarto_yml) leaves the link in place and rewrites nbs/nbdev.yml as committed."
    shutil.copy(ROOT / "settings.ini", tmp_path)
    shutil.copy(ROOT / "_quarto.yml", tmp_path)
    (tmp_path / "nbs").mkdir()
    (tmp_path / "nbs" / "_quarto.yml").symlink_to("../_quarto.yml")
    res = subprocess.run([sys.executable, "-c", "from nbdev.quarto import refresh_quarto_yml; refresh_quarto_yml()"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "nbs" / "_quarto.yml").is_symlink()
    assert (tmp_path / "_quarto.yml").read_bytes() == (ROOT / "_quarto.yml").read_bytes()
    assert (tmp_path / "nbs" / "nbdev.yml").read_text() == (ROOT / "nbs" / "nbdev.yml").read_text()


# A stand-in for Quarto: checks what nbdev hands it and writes the output folder of the merged configuration.
FAKE_QUARTO = r"""#!{python}
import json, os, sys
from pathlib import Path
import yaml
cwd, args = Path.cwd(), sys.argv[1:]
cfg = yaml.safe_load((cwd / "_quarto.yml").read_text())
present = {{name: (cwd / name).is_file() for name in cfg.get("metadata-files", [])}}
for name in [n for n, ok in present.items() if ok]:
    cfg.setdefault("project", {{}}).update((yaml.safe_load((cwd / name).read_text()) or {{}}).get("project", {{}}))
out = cwd / cfg["project"]["output-dir"]
out.mkdir(exist_ok=True)
if "-o" in args: (out / args[args.index("-o") + 1]).write_text("rendered by the stand-in\n")
else: (out / "index.html").write_text("<html>the site</html>")
with open(os.environ["FAKE_QUARTO_LOG"], "a") as f:
    f.write(json.dumps(dict(cwd=str(cwd), args=args, config=(cwd / "_quarto.yml").read_text(), metadata=present,
                            css=(cwd / cfg["format"]["html"]["css"]).is_file(),
                            notebooks=sorted(p.name for p in cwd.glob("*.ipynb")))) + "\n")
"""


def test_nbdev_docs_hands_quarto_the_top_level_configuration(tmp_path):
    "`nbdev_docs` in a copy of the project, with a stand-in `quarto` on PATH: it runs Quarto on the top-level file."
    proj = tmp_path / "proj"
    (proj / "nbs").mkdir(parents=True)
    for f in ["settings.ini", "_quarto.yml", "nbs/nbdev.yml", "nbs/sidebar.yml", "nbs/styles.css", "nbs/index.ipynb",
              "nbs/00_vech.ipynb"]:
        shutil.copy(ROOT / f, proj / f)
    shutil.copytree(ROOT / "l0qsvm", proj / "l0qsvm", ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "nbs" / "_quarto.yml").symlink_to("../_quarto.yml")
    (tmp_path / "bin").mkdir()
    quarto = tmp_path / "bin" / "quarto"
    quarto.write_text(FAKE_QUARTO.format(python=sys.executable)); quarto.chmod(0o755)
    log = tmp_path / "quarto.log"
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}", "FAKE_QUARTO_LOG": str(log)}
    res = subprocess.run(["nbdev_docs", "--n_workers", "0"], cwd=proj, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    site = [c for c in calls if c["args"] == ["render", "--no-cache"]]
    assert len(site) == 1 and site[0]["cwd"] == str(proj / "_proc")
    assert site[0]["config"] == (ROOT / "_quarto.yml").read_text()           # the top-level file, not a default one
    assert site[0]["metadata"] == {"nbdev.yml": True, "sidebar.yml": True} and site[0]["css"]
    assert site[0]["notebooks"] == ["00_vech.ipynb", "index.ipynb"]
    assert (proj / "_docs" / "index.html").read_text() == "<html>the site</html>"   # Quarto's output, moved by nbdev
    assert (proj / "README.md").read_text() == "rendered by the stand-in\n"          # nbdev_readme's step, too
    assert (proj / "nbs" / "_quarto.yml").is_symlink()                              # the layout survives
    assert (proj / "_quarto.yml").read_bytes() == (ROOT / "_quarto.yml").read_bytes()
    assert (proj / "nbs" / "nbdev.yml").read_text() == (ROOT / "nbs" / "nbdev.yml").read_text()


# ---------------------------------------------------------------------------------------------------------------
# Doc links

HREFS = {"index.ipynb": "index.html", "00_vech.ipynb": "vech.html", "03_smo.ipynb": "smo.html",
         "symbols.ipynb": "symbols.html", "tutorials/00_first_reading.ipynb": "tutorials/first_reading.html",
         "api/00_vech.ipynb": "api/vech.html"}


def test_notebook_names():
    names = build_docs.notebook_names(HREFS)
    assert names["00_vech"] == names["00_vech.ipynb"] == "vech.html"
    assert names["tutorials/00_first_reading"] == names["00_first_reading"] == "tutorials/first_reading.html"
    assert names["symbols"] == "symbols.html" and names["api/00_vech"] == "api/vech.html"
    assert "index" not in names and names["index.ipynb"] == "index.html"      # `index` is a common word


def test_doc_links_link_public_names_and_notebooks():
    "nbdev's linkify over the package's names and the notebooks': fenced code, links and unknown names are left alone."
    links = build_docs.DocLinks(build_docs.notebook_names(HREFS))
    md = ("`L0QSVM` and `smo_solve()` are derived in `03_smo` and `00_vech`; `not_a_name`, `index`.\n"
          "```python\nL0QSVM(k=3)  # `L0QSVM` in a fence\n```\n"
          "[`hvec`](https://l0qsvm.github.io/l0qsvm/vech.html#hvec)")
    out = links(md)
    assert "[`L0QSVM`](https://l0qsvm.github.io/l0qsvm/estimators.html#l0qsvm)" in out
    assert "[`smo_solve()`](https://l0qsvm.github.io/l0qsvm/smo.html#smo_solve)" in out
    assert "[`03_smo`](smo.html)" in out and "[`00_vech`](vech.html)" in out
    assert "`not_a_name`, `index`." in out and "# `L0QSVM` in a fence" in out
    assert out.endswith("[`hvec`](https://l0qsvm.github.io/l0qsvm/vech.html#hvec)")   # not linked twice
    assert links(out) == out


def test_doc_link_anchors_are_the_pages_ids():
    "nbdev's index has Quarto's lower-case anchors; the build links to the ids the pages have."
    ids = {"estimators.html": {"L0QSVM", "Reading-a-surface"}, "smo.html": {"smo_solve"},
           "swap.html": {"SwapBounds"}, "api/swap.html": {"SwapBounds", "SwapBounds.lb"}}
    body = ('<a href="estimators.html#l0qsvm"><code>L0QSVM</code></a> <a href="#smo_solve"><code>smo_solve</code></a> '
            '<a href="swap.html#swapbounds.lb"><code>SwapBounds.lb</code></a> '
            '<a href="smo.html#_qp_step"><code>_qp_step</code></a> <a href="estimators.html#nowhere">prose</a> '
            '<a href="https://example.org/a#b"><code>x</code></a>')
    out = build_docs.resolve_anchors(body, "smo.html", ids)
    assert out == ('<a href="estimators.html#L0QSVM"><code>L0QSVM</code></a> '
                   '<a href="#smo_solve"><code>smo_solve</code></a> '
                   '<a href="api/swap.html#SwapBounds.lb"><code>SwapBounds.lb</code></a> '
                   '<a href="smo.html"><code>_qp_step</code></a> <a href="estimators.html#nowhere">prose</a> '
                   '<a href="https://example.org/a#b"><code>x</code></a>')
