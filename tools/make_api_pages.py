"""Write the API reference pages nbs/api/NN_MODULE.ipynb: one per module of the package, a `show_doc` entry per name.

Each page lists, in the module's `__all__` order, every public function and class (`show_doc`), the public methods a
class defines itself (`show_doc(Class.method)`), and the module's constants, and links to the notebook that derives
them. The pages are generated (do not edit them): `python tools/build_docs.py` rewrites them before every build, and
`python tools/make_api_pages.py --check` (run by tests/test_docs.py) fails when the committed ones are out of date,
e.g. after a function was added to a module. The pages are kept in git so that `nbdev_docs` (Quarto) builds them too.

Usage, from the repository root:  python tools/make_api_pages.py [--check]
"""
import argparse
import importlib
import inspect
import re
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clean_notebooks import jupyter_metadata  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NBS, LIB = ROOT / "nbs", ROOT / "l0qsvm"
API = NBS / "api"
_SOURCE = re.compile(r"File to edit: \.\./nbs/(\S+\.ipynb)")


def modidx():
    "nbdev's index of the package (l0qsvm/_modidx.py): {module: {symbol: (doc link, source file)}}."
    ns = {}
    exec((LIB / "_modidx.py").read_text(encoding="utf-8"), ns)
    return ns["d"]["syms"]


def modules():
    "[(module name, source notebook path relative to nbs/)] of the package's modules (from _modidx), in notebook order."
    found = []
    for module in modidx():
        head = (LIB / f"{module.split('.', 1)[1]}.py").read_text(encoding="utf-8").split("\n", 5)
        m = next((_SOURCE.search(line) for line in head if _SOURCE.search(line)), None)
        if m: found.append((module, m.group(1)))
    return sorted(found, key=lambda mn: mn[1])


def notebook_title(path):
    "The H1 title and `>` subtitle of a notebook."
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("# "):
            lines = cell.source.strip().splitlines()
            sub = next((l[1:].strip() for l in lines[1:] if l.startswith(">")), "")
            return lines[0][2:].strip(), sub
    return path.stem, ""


def public_names(module):
    "(callables, constants): the names of `module.__all__` that show_doc documents, and the others."
    mod = importlib.import_module(module)
    names = list(getattr(mod, "__all__", []))
    docs = [n for n in names if inspect.isclass(getattr(mod, n)) or inspect.isroutine(getattr(mod, n))]
    return docs, [n for n in names if n not in docs]


def own_methods(cls):
    "Public methods a class defines itself (not inherited), in definition order."
    return [n for n, v in vars(cls).items() if not n.startswith("_")
            and (inspect.isfunction(v) or inspect.isfunction(getattr(v, "fn", None)))]   # fn: scikit-learn's available_if


def api_page(module, source):
    "The reference notebook of one module."
    title, sub = notebook_title(NBS / source)
    docs, consts = public_names(module)
    short = module.split(".", 1)[1]
    cells = [new_markdown_cell(f"# {module}\n> Reference: every public name of `{module}`."),   # (nbdev's front matter)
             new_markdown_cell(f"Derived, checked and illustrated in [{title}](../{source})"
                               f"{': ' + sub if sub else '.'}"),
             new_code_cell(f"#| hide\nfrom nbdev.showdoc import show_doc\nfrom {module} import *\nimport {module}")]
    if consts:
        cells.append(new_markdown_cell("Constants: " + ", ".join(f"`{short}.{c}`" for c in consts) + "."))
    mod = importlib.import_module(module)
    for name in docs:
        cells.append(new_code_cell(f"show_doc({name})"))
        obj = getattr(mod, name)
        if inspect.isclass(obj):
            cells.extend(new_code_cell(f"show_doc({name}.{m})") for m in own_methods(obj))
    nb = new_notebook(cells=cells, metadata=jupyter_metadata({}))   # what JupyterLab writes on opening
    for i, cell in enumerate(nb.cells): cell.id = f"api{i:03d}"
    return nb


def pages():
    "{path: notebook JSON text} of every API page."
    out = {}
    for module, source in modules():
        stem = Path(source).stem
        out[API / f"{stem}.ipynb"] = nbformat.writes(api_page(module, source)) + "\n"
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if nbs/api/ differs from what would be written")
    args = ap.parse_args(argv)
    want = pages()
    have = {p: p.read_text(encoding="utf-8") for p in API.glob("*.ipynb")}
    stale = sorted(str(p.relative_to(ROOT)) for p in set(want) | set(have) if want.get(p) != have.get(p))
    if args.check:
        print("nbs/api/ is up to date" if not stale else
              "nbs/api/ is out of date (run python tools/make_api_pages.py): " + ", ".join(stale))
        return 1 if stale else 0
    API.mkdir(exist_ok=True)
    for p in have:
        if p not in want: p.unlink()
    for p, text in want.items():
        if have.get(p) != text: p.write_text(text, encoding="utf-8")
    if stale: print("wrote " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
