"""Build the documentation site without Quarto: one command, a browsable folder that works offline.

    python tools/build_docs.py              # the whole site into _site/ (serve it: python -m http.server -d _site)
    python tools/build_docs.py --execute    # first re-run the notebooks in a real kernel (fresh outputs + widgets)

Quarto cannot be installed everywhere (see the README), so this script renders the same pages Quarto would, from the
same configuration, with nbdev's own notebook processing and nbconvert:

1. writes the API reference pages nbs/api/*.ipynb (tools/make_api_pages.py: one page per module);
2. with --execute, runs notebooks in a Jupyter kernel (nbclient saves their widget state) and cleans them with
   tools/clean_notebooks.py (nbdev_clean, then the Jupyter metadata); cells flagged `#| slow`/`notest` or
   `#| eval: false` are tagged `skip-execution` and not run (`run_notebook`: tests/test_notebooks.py executes
   notebooks the same way and fails when a saved output differs from its re-run);
3. processes every notebook with nbdev's docs processors into _proc/ (show_doc entries, `#|` directives, doc
   links: exactly what `nbdev_docs` hands to Quarto). settings.ini's `procs` adds `l0qsvm.widgets.KeepJslinkState`,
   the fix for nbdev 2.4's crash on saved `jslink` widget state (so `nbdev_docs` itself works too);
4. reads the navigation from the Quarto configuration (_quarto.yml at the top of the repository, which nbdev reads
   through the link nbs/_quarto.yml, and its metadata-files nbs/nbdev.yml and nbs/sidebar.yml),
   expands its `auto` globs as Quarto does (by `order`, then file name), and writes one page per notebook, at the
   path Quarto would use (its `output-file`), with nbconvert's lab template plus a sidebar, the page title and
   previous/next links; Quarto's cell options (echo, output, include, code-fold) are honoured;
   doc links as nbdev makes them under Quarto: a backticked public name (`L0QSVM`, `smo_solve()`) links to its
   show_doc entry, through nbdev's own `NbdevLookup.linkify` (which nbdev's processing already ran on markdown
   cells; here also on the page description and on markdown outputs, which nbdev 2.4's `add_links` misses), and
   so does a backticked notebook name (`00_vech`, `tutorials/00_first_reading`, `symbols.ipynb`: see
   `notebook_names`). A link's #anchor is matched to the id its target page really has (nbconvert keeps the case
   of a heading, `#L0QSVM`, where nbdev's index, written for Quarto, has `#l0qsvm`); a doc link to a name without
   an entry of its own (a private helper) keeps its page and loses the anchor. The notebooks are not changed;
5. copies the scripts the pages load into _site/_static/, so no page loads anything from another host: require.js,
   the ipywidgets HTML manager and MathJax 2, from the npm packages pinned in NPM_ASSETS below (exact version and
   sha512 of the tarball). They are fetched once with `npm pack` into a cache folder (L0QSVM_DOCS_CACHE, default
   ~/.cache/l0qsvm-docs) and verified; later builds run offline. They are not vendored in git: MathJax alone is a
   60 MB package, and pinned hashes give the same reproducibility.

Options: --only NAME... restricts --execute to notebooks whose path contains NAME (the site is always whole);
--no-site stops after --execute; --out DIR (default _site); --force re-processes every notebook (otherwise
nbdev's cache _proc/ keeps the notebooks that did not change, unless the package's code did).
"""
import argparse
import base64
import copy
import fnmatch
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import warnings
from pathlib import Path, PurePosixPath

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
TOOLS = Path(__file__).resolve().parent


def _tst_flags():
    "settings.ini's `tst_flags`: the flags of cells that nbdev_test, the notebook tests and --execute skip."
    import configparser
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.read(ROOT / "settings.ini", encoding="utf-8")
    return frozenset(cfg["DEFAULT"].get("tst_flags", "notest slow").split())


SKIP_WORDS = _tst_flags()
os.environ.setdefault("L0QSVM_DATA_DIR", str(ROOT.parent / "shared" / "datasets"))

# npm packages whose files the pages load: (package, exact version, sha512 of the tarball, files to copy).
# Each file pattern is relative to the package folder; files land in _static/<folder>/ with the same relative path.
NPM_ASSETS = [
    ("requirejs", "2.3.8",
     "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
     "requirejs", ["require.js"]),
    ("@jupyter-widgets/html-manager", "1.0.15",          # 1.0.x is the manager of ipywidgets 8 (widget state 2.0)
     "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
     "html-manager", ["dist/embed-amd.js", "dist/*.woff", "dist/*.woff2", "dist/*.ttf", "dist/*.eot", "dist/*.svg"]),
    ("mathjax", "2.7.9",                                # nbconvert's templates configure MathJax 2
     "sha512-NOGEDTIM9+MrsqnjPEjVGNx4q0GQxqm61yQwSK+/5S59i26wId5IC5gNu9/bu8+CCVl5p9G2IHcAl/wJa+5+BQ==",
     "mathjax", ["MathJax.js", "config/TeX-AMS_CHTML-full.js", "config/Safe.js", "extensions/*", "extensions/*/*",
                 "jax/input/TeX/*", "jax/element/mml/*", "jax/element/mml/*/*", "jax/output/CommonHTML/*",
                 "jax/output/CommonHTML/*/*", "jax/output/CommonHTML/*/*/*", "fonts/HTML-CSS/TeX/woff/*",
                 "fonts/HTML-CSS/TeX/woff/*/*", "localization/en/*"]),
]
MATHJAX_CONFIG = "TeX-AMS_CHTML-full,Safe"


# ---------------------------------------------------------------------------------------------------------------
# 1-2. API pages and execution

def notebooks(only=()):
    "Every notebook of the site (nbs/ recursively, skipping _ and . folders), optionally filtered by substrings."
    nbs = sorted(p for p in NBS.rglob("*.ipynb")
                 if not any(part.startswith(("_", ".")) for part in p.relative_to(NBS).parts))
    return [p for p in nbs if not only or any(o in str(p.relative_to(NBS)) for o in only)]


def _directives(cell):
    return [l[2:].strip() for l in cell.source.splitlines() if l.startswith("#|")]


def skipped_cells(nb, run=()):
    """Indices of the code cells that nbdev_test skips: flagged with a word of `tst_flags` (`#| slow`, `#| notest`)
    unless the word is in `run`, `#| eval: false`, and the export cell (`nbdev_export()`)."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code": continue
        ds = _directives(cell)
        skip = any(d.split()[0] in SKIP_WORDS - set(run) for d in ds if d)
        skip = skip or any(d.replace(" ", "") == "eval:false" for d in ds) or "nbdev_export(" in cell.source
        if skip: out.append(i)
    return out


def _set_skip_tags(nb, skip):
    "Tag the cells `skip` (indices) `skip-execution`, which nbclient honours, and untag every other cell."
    for i, cell in enumerate(nb.cells):
        tags = [t for t in cell.metadata.get("tags", []) if t != "skip-execution"] + ["skip-execution"] * (i in skip)
        if tags: cell.metadata["tags"] = tags
        else: cell.metadata.pop("tags", None)


def kernel_env():
    """The environment of a notebook's kernel: this process's, with the repository first on PYTHONPATH, without
    MPLBACKEND (a backend set for scripts and tests, such as Agg, would leave every figure out of the outputs) and
    without nbdev's IN_TEST."""
    env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "IN_TEST")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return env


def run_notebook(nb, path, run=()):
    """Run notebook `nb` (read from `path`) in a Jupyter kernel, in place: the one way notebooks are executed, by
    --execute (which saves the outputs) and by tests/test_notebooks.py (which compares them with the saved ones).

    The cells of `skipped_cells(nb, run)` are not run and keep their saved outputs. The kernel is ipykernel's
    `python3`, started in the notebook's folder, with the repository first on its PYTHONPATH (the notebooks document
    this repository's code, as nbdev_test runs it) and without an inherited MPLBACKEND (CI sets `Agg` for scripts;
    a kernel then draws no inline figure), so figures are displayed as in Jupyter, nor nbdev's IN_TEST (set in a
    process that ran nbdev's test_nb). nbclient saves the widget state."""
    from nbclient import NotebookClient
    env = kernel_env()
    _set_skip_tags(nb, skipped_cells(nb, run))
    try:
        NotebookClient(nb, timeout=1800, kernel_name="python3", store_widget_state=True,
                       resources={"metadata": {"path": str(Path(path).parent)}}).execute(env=env)
    finally:
        _set_skip_tags(nb, ())                              # the tags were only for this run
    return nb


def executed_by_docs(path):
    "Whether --execute runs (and so writes the outputs of) notebook `path`: not the API pages, which show_doc renders."
    return Path(path).resolve().relative_to(NBS).parts[0] != "api"


def execute(path):
    "Run a notebook in place in a real kernel (saving outputs and widget state), then clean it (nbdev_clean + metadata)."
    nb = nbformat.read(path, as_version=4)
    run_notebook(nb, path)
    nbformat.write(nb, path)
    subprocess.run([sys.executable, str(TOOLS / "clean_notebooks.py"), str(path)], check=True, cwd=ROOT)


def process(force=False):
    "nbdev's docs processing of every notebook into _proc/ (in this process, so settings.ini `procs` is honoured)."
    from nbdev.serve import proc_nbs
    cache = ROOT / "_proc"
    # nbdev re-processes a notebook only when it is newer than its processed copy; show_doc output also depends on
    # the package's code, so any change there re-processes everything
    code = max(p.stat().st_mtime for p in (ROOT / "l0qsvm").glob("*.py"))
    force = force or not cache.exists() or cache.stat().st_mtime < code
    with warnings.catch_warnings():     # nbdev prints every cell that mixes imports and code: noise in a build log
        warnings.filterwarnings("ignore", message="Found cells containing imports and other code")
        return Path(proc_nbs(force=force, n_workers=0))


# ---------------------------------------------------------------------------------------------------------------
# 3. The navigation, from the Quarto configuration

QUARTO_YML = ROOT / "_quarto.yml"           # the site's configuration: the one file to edit
NBDEV_QUARTO_YML = NBS / "_quarto.yml"      # what nbdev 2.4 reads: a symbolic link to it


def check_quarto_link():
    "nbs/_quarto.yml must be the top-level _quarto.yml (a symbolic link, or an identical copy where links are not kept)."
    if not NBDEV_QUARTO_YML.exists():
        raise SystemExit(f"{NBDEV_QUARTO_YML} is missing: nbdev reads the site's configuration there. Restore the link: "
                         f"ln -s ../_quarto.yml {NBDEV_QUARTO_YML.relative_to(ROOT)}")
    if NBDEV_QUARTO_YML.read_bytes() != QUARTO_YML.read_bytes():
        raise SystemExit(f"{NBDEV_QUARTO_YML.relative_to(ROOT)} differs from _quarto.yml, the site's configuration: "
                         f"make it a link again (ln -sf ../_quarto.yml {NBDEV_QUARTO_YML.relative_to(ROOT)})")


def site_config():
    "_quarto.yml merged with its metadata-files (nbdev.yml, sidebar.yml, relative to nbs/), as Quarto merges them."
    def merge(a, b):
        for k, v in b.items():
            a[k] = merge(a.get(k, {}), v) if isinstance(v, dict) and isinstance(a.get(k), dict) else v
        return a
    cfg = yaml.safe_load(QUARTO_YML.read_text(encoding="utf-8"))
    for name in cfg.get("metadata-files", []):
        cfg = merge(cfg, yaml.safe_load((NBS / name).read_text(encoding="utf-8")) or {})
    return cfg


def _glob_regex(glob):
    "Quarto's glob semantics: `*` and `?` stay within a folder, `**` crosses folders, `[...]` is a class."
    out, i = "", 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i): out += "(?:.*/)?"; i += 3; continue
        if glob.startswith("**", i): out += ".*"; i += 2; continue
        if c == "*": out += "[^/]*"
        elif c == "?": out += "[^/]"
        elif c == "[":
            j = glob.index("]", i); out += glob[i:j + 1]; i = j + 1; continue
        else: out += re.escape(c)
        i += 1
    return re.compile(out + r"\Z")


def project_inputs():
    "Quarto's input files: notebooks, .qmd and .md under nbs/, skipping names that start with _ or ."
    return sorted(str(p.relative_to(NBS).as_posix()) for p in NBS.rglob("*")
                  if p.suffix in (".ipynb", ".qmd") and
                  not any(part.startswith(("_", ".")) for part in p.relative_to(NBS).parts))


def expand_auto(globs, meta):
    "The pages an `auto:` entry lists: matching inputs (not index pages), by front-matter `order`, then file name."
    globs = [globs] if isinstance(globs, str) else list(globs)
    hits = {p for g in globs for p in project_inputs() if _glob_regex(g).match(p)}
    hits = [p for p in hits if not re.match(r"index\.\w+$", PurePosixPath(p).name)]
    def key(p):
        order = meta.get(p, {}).get("order")
        name = [(0 if not ch.isalnum() else 1 if ch.isdigit() else 2, ch) for ch in PurePosixPath(p).stem.upper()]
        return (0 if order is not None else 1, order if order is not None else 0, name)   # ICU: _ sorts before 0-9, A-Z
    return sorted(hits, key=key)


def sidebar_tree(cfg, meta):
    "The sidebar as a list of ('page', path, text or None) and ('section', title, [items])."
    def walk(items):
        out = []
        for item in items or []:
            if isinstance(item, str): out.append(("page", item, None))
            elif "auto" in item: out.extend(("page", p, None) for p in expand_auto(item["auto"], meta))
            elif "section" in item: out.append(("section", item["section"], walk(item.get("contents"))))
            elif "href" in item: out.append(("page", item["href"], item.get("text")))
        return out
    return walk(cfg.get("website", {}).get("sidebar", {}).get("contents", []))


def flatten(tree):
    "Pages in reading order."
    for kind, a, b in tree:
        if kind == "page": yield a
        else: yield from flatten(b)


# ---------------------------------------------------------------------------------------------------------------
# 4. Pages

def front_matter(nb):
    "The YAML front matter nbdev put in the processed notebook's first raw cell (title, description, output-file)."
    if nb.cells and nb.cells[0].cell_type == "raw" and nb.cells[0].source.lstrip().startswith("---"):
        return yaml.safe_load(nb.cells[0].source.strip().strip("-")) or {}
    return {}


def output_path(src, fm):
    "Where Quarto writes the page of notebook `src` (relative to the site root)."
    name = fm.get("output-file") or (PurePosixPath(src).stem + ".html")
    return str(PurePosixPath(src).parent / name)


_QUARTO_OPT = re.compile(r"^#\|\s*([\w-]+)\s*:\s*(.*?)\s*$")
_ATTR_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)\{([^}]*)\}")


def _attr_links(md):
    "Pandoc/Quarto `[text](url){target=... style=...}` links (show_doc's [source] links) as HTML."
    def sub(m):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(3)))
        extra = "".join(f' {k}="{html.escape(v)}"' for k, v in attrs.items() if k in ("target", "style"))
        return f'<a href="{html.escape(m.group(2))}" class="source-link"{extra}>{m.group(1)}</a>'
    return _ATTR_LINK.sub(sub, md)


def quarto_cells(nb):
    "Apply the Quarto cell options nbdev leaves in processed notebooks (echo, output, include, code-fold)."
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _attr_links(cell.source)
        if cell.cell_type != "code":
            cells.append(cell); continue
        lines, opts = cell.source.splitlines(), {}
        while lines and _QUARTO_OPT.match(lines[0]):
            k, v = _QUARTO_OPT.match(lines.pop(0)).groups(); opts[k] = v.strip('"\'')
        cell.source = "\n".join(lines).strip("\n")
        if opts.get("include") == "false": continue
        tags = set(cell.metadata.get("tags", []))
        if opts.get("echo") == "false" or not cell.source: tags.add("remove_input")
        if opts.get("output") == "false": tags.add("remove_output")
        if opts.get("code-fold") in ("true", "show"):
            cell.metadata["code_fold"] = opts["code-fold"]; cell.metadata["code_summary"] = opts.get("code-summary", "Code")
        cell.metadata["tags"] = sorted(tags)
        for out in cell.get("outputs", []):
            md = out.get("data", {}).get("text/markdown")
            if md is not None: out["data"]["text/markdown"] = _attr_links(md if isinstance(md, str) else "".join(md))
        if not cell.source and not cell.get("outputs"): continue
        cells.append(cell)
    nb.cells = cells
    return nb


def _root(page):
    "Relative URL of the site root from the page at site path `page` ('' or '../', ...)."
    return "../" * page.count("/")


def _rel(target, page):
    "URL of site path `target` from the page at site path `page`."
    return _root(page) + target


def nav_html(tree, here, titles, hrefs):
    def items(tree):
        out = []
        for kind, a, b in tree:
            if kind == "page":
                if a not in hrefs: continue
                cls = ' class="active" aria-current="page"' if hrefs[a] == here else ""
                out.append(f'<li><a href="{_rel(hrefs[a], here)}"{cls}>{html.escape(b or titles[a])}</a></li>')
            else:
                inner = items(b)
                if inner:
                    out.append(f'<li class="nav-section"><span class="nav-section-title">{html.escape(a)}</span>'
                               f'<ul>{"".join(inner)}</ul></li>')
        return out
    return "<ul>" + "".join(items(tree)) + "</ul>"


def header_html(fm, links=None):
    from nbconvert.filters import markdown2html
    title = html.escape(str(fm.get("title", "")))
    desc = fm.get("description")
    if desc and links: desc = links(str(desc))
    return f'<h1 class="title">{title}</h1>' + (f'<div class="description">{markdown2html(str(desc))}</div>'
                                                 if desc else "")


def pager_html(order, i, titles, hrefs):
    here, parts = hrefs[order[i]], []
    if i > 0:
        p = order[i - 1]
        parts.append(f'<a class="prev" rel="prev" href="{_rel(hrefs[p], here)}">← {html.escape(titles[p])}</a>')
    if i + 1 < len(order):
        n = order[i + 1]
        parts.append(f'<a class="next" rel="next" href="{_rel(hrefs[n], here)}">{html.escape(titles[n])} →</a>')
    return "".join(parts)


class DocLinks:
    "nbdev's doc links (`NbdevLookup`: backticked names -> links) over the package's names plus `extra` names."
    # a code span already inside a link's text ([`x`](url)) is left alone, so linking twice changes nothing
    _unlinked = re.compile(r"(?<!\[)`([^`\s]+?)(?:\(\))?`(?!\])")

    def __init__(self, extra=None):
        from nbdev.doclinks import NbdevLookup
        self.lookup = NbdevLookup()
        self.lookup.syms = {**self.lookup.syms, **(extra or {})}
        self.lookup.link_line = lambda line: self._unlinked.sub(self.lookup._link_sym, line)

    def __call__(self, md):
        "Markdown with its backticked known names linked (outside code blocks, as `NbdevLookup.linkify` does)."
        return self.lookup.linkify(md) if md else md


def notebook_names(hrefs):
    """The names by which prose cites a notebook -> its page: its path under nbs/ with and without `.ipynb`
    (`03_smo`, `tutorials/00_first_reading`, `symbols.ipynb`; not a bare `index`, a common word) and, for a numbered
    notebook in a folder, its bare name (`00_first_reading`). API pages are cited by their path only (`api/03_smo`)."""
    names = {}
    for src, page in hrefs.items():
        path = src.removesuffix(".ipynb")
        names[src] = page
        if path != "index": names[path] = page
    for src, page in hrefs.items():
        stem = PurePosixPath(src).stem
        if "/" in src and not src.startswith("api/") and stem[:1].isdigit(): names.setdefault(stem, page)
    return names


def link_names(nb, links):
    "Apply `links` (a DocLinks) to the markdown cells and the markdown outputs of a processed notebook."
    for cell in nb.cells:
        if cell.cell_type == "markdown": cell.source = links(cell.source)
        for out in cell.get("outputs", []):
            md = out.get("data", {}).get("text/markdown")
            if md is not None: out["data"]["text/markdown"] = links(md if isinstance(md, str) else "".join(md))
    return nb


_A = re.compile(r'<a href="([^"]*)"([^>]*)>(.*?)</a>', re.S)
_IDS = re.compile(r'\sid="([^"]+)"')


def page_ids(body):
    "The ids of a page's elements (the anchors a link's #fragment can name)."
    return {html.unescape(i) for i in _IDS.findall(body)}


def resolve_anchors(body, here, ids):
    """In-site links whose #anchor names no id of their target page (ids: page -> its ids): the id that differs only
    in case, if there is one. A doc link (its text is one code span) whose page has no such id goes to the entry on
    the module's API page (a method: show_doc entries of methods are on the API pages only), else to the page."""
    def match(page, frag):
        same = [i for i in ids.get(page, ()) if i.lower() == frag.lower()]
        return same[0] if len(same) == 1 else None
    def sub(m):
        href, rest, text = m.groups()
        if ":" in href.split("#")[0] or "#" not in href: return m.group(0)
        path, frag = href.split("#", 1)
        frag = html.unescape(frag)
        target = here if not path else os.path.normpath(str(PurePosixPath(here).parent / path)).replace(os.sep, "/")
        if target not in ids or frag in ids[target]: return m.group(0)
        api = "api/" + PurePosixPath(target).name
        if (same := match(target, frag)): new = f"{path}#{same}"
        elif not re.fullmatch(r"<code>[^<]*</code>", text): return m.group(0)
        elif (same := match(api, frag)): new = f"{_rel(api, here)}#{same}"
        else: new = path or _rel(target, here)
        return f'<a href="{html.escape(new)}"{rest}>{text}</a>'
    return _A.sub(sub, body)


def rewrite_links(body, here, hrefs, doc_url):
    "Absolute links to the published site (nbdev's doc links) and links to notebooks -> relative links to pages."
    if doc_url:
        body = body.replace(doc_url.rstrip("/") + "/", _root(here))
    def sub(m):
        target, anchor = m.group(2), m.group(3) or ""
        src = os.path.normpath(str(PurePosixPath(here).parent / target)).replace(os.sep, "/")
        src = src[2:] if src.startswith("./") else src
        for cand in (src, target):
            if cand in hrefs: return f'{m.group(1)}"{_rel(hrefs[cand], here)}{anchor}"'
        return m.group(0)
    return re.sub(r'(href=)"([^"#:]+\.ipynb)(#[^"]*)?"', sub, body)


def exporter():
    from traitlets.config import Config
    from nbconvert import HTMLExporter
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    c.TagRemovePreprocessor.remove_all_outputs_tags = {"remove_output"}
    c.HTMLExporter.exclude_input_prompt = True
    c.HTMLExporter.exclude_output_prompt = True
    return HTMLExporter(config=c, template_name="site", extra_template_basedirs=[str(TOOLS / "docs_template")])


_EXPORTER = None


def render_page(job):
    "nbconvert's HTML for one page: `job` is (notebook, the site's parts of the page, title). Runs in a worker."
    global _EXPORTER
    nb, site, title = job
    if _EXPORTER is None: _EXPORTER = exporter()
    root = site["root"]
    _EXPORTER.require_js_url = f"{root}_static/requirejs/require.js"
    _EXPORTER.widget_renderer_url = f"{root}_static/html-manager/dist/embed-amd.js"
    _EXPORTER.mathjax_url = f"{root}_static/mathjax/MathJax.js?config={MATHJAX_CONFIG}"
    body, _ = _EXPORTER.from_notebook_node(nb, resources={"site": site, "metadata": {"name": title}})
    return body


def build_site(cache, out):
    cfg = site_config()
    procd = {src: nbformat.read(cache / src, as_version=4) for src in project_inputs() if (cache / src).exists()}
    meta = {src: front_matter(nb) for src, nb in procd.items()}
    tree = sidebar_tree(cfg, meta)
    order = [p for p in dict.fromkeys(flatten(tree)) if p in procd]
    missing = sorted(set(procd) - set(order))
    if missing: print("warning: not in the sidebar (nbs/sidebar.yml), so not on the site: " + ", ".join(missing))
    hrefs = {src: output_path(src, meta[src]) for src in order}
    titles = {src: str(meta[src].get("title") or PurePosixPath(src).stem) for src in order}
    doc_url = cfg.get("website", {}).get("site-url", "")
    site_title = cfg.get("website", {}).get("title", "")
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    names = notebook_names(hrefs)
    jobs = []
    for i, src in enumerate(order):
        here = hrefs[src]
        root = _root(here)
        links = DocLinks({name: _rel(page, here) for name, page in names.items()})
        nb = copy.deepcopy(procd[src])
        if front_matter(nb): nb.cells = nb.cells[1:]
        nb.metadata["title"] = f"{titles[src]} – {site_title}" if site_title and titles[src] != site_title else titles[src]
        link_names(nb, links)
        quarto_cells(nb)
        site = dict(root=root, nav=nav_html(tree, here, titles, hrefs), header=header_html(meta[src], links),
                    pager=pager_html(order, i, titles, hrefs), site_title=html.escape(site_title),
                    home=_rel(hrefs[order[0]], here))
        jobs.append((nb, site, titles[src]))
    # nbconvert's rendering is most of the build and each page is independent: one worker process per core. (The
    # workers import this file as the module build_docs, on the sys.path main() set: nbdev's processing above ran an
    # IPython shell, which replaced __main__.)
    import concurrent.futures, multiprocessing
    from build_docs import render_page
    with concurrent.futures.ProcessPoolExecutor(min(len(jobs), os.cpu_count() or 1) or 1,
                                                mp_context=multiprocessing.get_context("spawn")) as pool:
        bodies = {}
        for src, body in zip(order, pool.map(render_page, jobs)):
            here = hrefs[src]
            bodies[here] = rewrite_links(body, here, hrefs, doc_url)
            print(f"{src} -> {out.name}/{here}", flush=True)
    ids = {here: page_ids(body) for here, body in bodies.items()}
    for here, body in bodies.items():
        dest = out / here
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(resolve_anchors(body, here, ids), encoding="utf-8")
    shutil.copy(TOOLS / "docs_template" / "site.css", out / "site.css")
    (out / "pages.json").write_text(json.dumps([{"source": s, "page": hrefs[s], "title": titles[s]} for s in order],
                                               indent=1), encoding="utf-8")
    return order


# ---------------------------------------------------------------------------------------------------------------
# 5. Scripts served by the site itself

def cache_dir():
    return Path(os.environ.get("L0QSVM_DOCS_CACHE", Path.home() / ".cache" / "l0qsvm-docs"))


def npm_tarball(package, version, integrity):
    "The package's npm tarball, from the cache or fetched once with `npm pack`, checked against its sha512."
    cache = cache_dir(); cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"{package.lstrip('@').replace('/', '-')}-{version}.tgz"
    def ok(p): return p.exists() and "sha512-" + base64.b64encode(hashlib.sha512(p.read_bytes()).digest()).decode() == integrity
    if not ok(path):
        npm = shutil.which("npm")
        if npm is None: raise SystemExit(f"npm is needed once to fetch {package}@{version} (then cached in {cache})")
        res = subprocess.run([npm, "pack", f"{package}@{version}", "--pack-destination", str(cache), "--json",
                              "--silent"], capture_output=True, text=True)
        if res.returncode: raise SystemExit(f"npm pack {package}@{version} failed:\n{res.stderr}")
        path = cache / json.loads(res.stdout)[0]["filename"].split("/")[-1]
        if not ok(path): raise SystemExit(f"{path}: sha512 differs from the pinned {integrity}")
    return path


def copy_assets(out):
    static = out / "_static"
    for package, version, integrity, folder, patterns in NPM_ASSETS:
        with tarfile.open(npm_tarball(package, version, integrity)) as tar:
            for member in tar.getmembers():
                rel = member.name.split("/", 1)[1] if "/" in member.name else member.name
                if member.isfile() and any(fnmatch.fnmatchcase(rel, p) and rel.count("/") == p.count("/")
                                           for p in patterns):
                    dest = static / folder / rel
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(tar.extractfile(member).read())
        lic = [m for m in tarfile.open(npm_tarball(package, version, integrity)).getnames()
               if re.search(r"^[^/]+/LICEN[SC]E", m)]
        if lic:
            with tarfile.open(npm_tarball(package, version, integrity)) as tar:
                (static / folder / "LICENSE").write_bytes(tar.extractfile(lic[0]).read())
    (static / "VERSIONS.json").write_text(json.dumps({p: v for p, v, *_ in NPM_ASSETS}, indent=1), encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--execute", action="store_true", help="re-execute the notebooks in place first")
    ap.add_argument("--only", nargs="*", default=(), help="with --execute: substrings of the notebooks to run")
    ap.add_argument("--out", default=str(ROOT / "_site"), help="output folder (default _site)")
    ap.add_argument("--force", action="store_true", help="re-process every notebook (ignore nbdev's _proc cache)")
    ap.add_argument("--no-site", action="store_true", help="with --execute: only refresh the notebooks, build nothing")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    sys.path.insert(0, str(TOOLS))
    import make_api_pages
    make_api_pages.main([])
    if args.execute:
        for p in notebooks(args.only):
            if not executed_by_docs(p): continue              # show_doc pages: the processing renders them
            print(f"executing {p.relative_to(NBS)}", flush=True)
            execute(p)
        if args.no_site: return 0
    check_quarto_link()
    cache = process(force=args.force)
    out = Path(args.out).resolve()
    pages = build_site(cache, out)
    copy_assets(out)
    print(f"{len(pages)} pages in {out} ({time.perf_counter() - t0:.0f} s); "
          f"serve with: python -m http.server --bind 127.0.0.1 --directory {out} 8000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
