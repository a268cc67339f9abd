"""Build the documentation pages without Quarto, and (optionally) refresh the notebooks' saved outputs.

Quarto cannot be installed on every machine (see the README). The Quarto site (`nbdev_docs`) renders the
notebooks' *saved* outputs, so the notebooks are committed executed. This script:

  --execute   runs every notebook in nbs/ in a real Jupyter kernel (saving outputs and widget state) and cleans it
              with nbdev_clean; cells flagged `#| slow` or `#| eval: false` are tagged `skip-execution` and not run;
  (always)    processes the notebooks with nbdev's own doc processors (show_doc, #| directives: what nbdev_docs
              hands to Quarto) into _proc/, then writes one HTML page per notebook to _html/ with nbconvert.

Usage, from the repository root:  python tools/build_docs.py [--execute] [--only NAME ...]
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
SKIP_WORDS = {"slow", "notest"}
os.environ.setdefault("L0QSVM_DATA_DIR", str(ROOT.parent / "shared" / "datasets"))


def notebooks(only=()):
    nbs = sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith(("_", ".")))
    return [p for p in nbs if not only or any(o in p.stem for o in only)]


def _directives(cell):
    return [l[2:].strip() for l in cell.source.splitlines() if l.startswith("#|")]


def tag_skipped_cells(nb):
    "Tag cells that nbdev_test skips (slow, eval: false) so that nbclient skips them too."
    for cell in nb.cells:
        if cell.cell_type != "code": continue
        ds = _directives(cell)
        skip = any(d.split()[0] in SKIP_WORDS for d in ds if d) or any(d.replace(" ", "") == "eval:false" for d in ds)
        skip = skip or "nbdev_export(" in cell.source
        tags = [t for t in cell.metadata.get("tags", []) if t != "skip-execution"]
        if skip: tags.append("skip-execution")
        if tags: cell.metadata["tags"] = tags
        else: cell.metadata.pop("tags", None)


def execute(path):
    nb = nbformat.read(path, as_version=4)
    tag_skipped_cells(nb)
    NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(NBS)}}).execute()
    nbformat.write(nb, path)
    subprocess.run(["nbdev_clean", "--fname", str(path)], check=True, cwd=ROOT)


def build_html(only=()):
    from nbdev.serve import proc_nbs
    from nbconvert import HTMLExporter
    cache = Path(proc_nbs(force=True, n_workers=0))
    out = ROOT / "_html"; out.mkdir(exist_ok=True)
    exporter = HTMLExporter()
    for src in notebooks(only):
        proc = cache / src.name
        body, _ = exporter.from_notebook_node(nbformat.read(proc, as_version=4))
        (out / f"{src.stem}.html").write_text(body, encoding="utf-8")
        print(f"{src.name} -> _html/{src.stem}.html")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--execute", action="store_true", help="re-execute the notebooks in place first")
    ap.add_argument("--only", nargs="*", default=(), help="substrings of notebook names to restrict to")
    args = ap.parse_args()
    if args.execute:
        for p in notebooks(args.only):
            print(f"executing {p.name}", flush=True)
            execute(p)
    build_html(args.only)


if __name__ == "__main__":
    sys.exit(main())
