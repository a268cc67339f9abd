"""Check the notebooks against the package's symbol table (tools/symbol_table.py), or write its page.

    python tools/check_symbols.py            # check; exit code 1 and one line per problem if any
    python tools/check_symbols.py --write    # (re)write nbs/symbols.ipynb and CONTRIBUTING.md's retired notations
    python tools/check_symbols.py --list     # where each symbol is defined and first used, in sidebar order

The checks, on the markdown cells of every notebook of the sidebar (nbs/sidebar.yml) but the symbol page itself and
the generated API pages:

1. **definition before use**: reading the notebooks in sidebar order, the first notebook that uses a symbol is the
   one that defines it (its `where`) or a later one;
2. the defining notebook does use the symbol;
3. **local tables agree**: every symbol in a notebook's own symbol table (a markdown table whose first header is
   "symbol") is in the global table;
4. **retired notations** (the old meanings of clashing letters) appear in no notebook;
5. nbs/symbols.ipynb is what `--write` would write, and so is the list of retired notations in CONTRIBUTING.md (the
   notation's history is for the people who change the notebooks, not for their readers).

A use is a match of one of the symbol's patterns in the math of a markdown cell (`$...$`, `$$...$$`), or, for a
Greek letter, its Unicode character in the prose. Fenced code blocks and inline code are not read: a code name is
not a symbol.
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
PAGE = NBS / "symbols.ipynb"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
RETIRED_BEGIN = "<!-- retired notations: written by python tools/check_symbols.py --write -->"
RETIRED_END = "<!-- end of the retired notations -->"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_docs  # noqa: E402
import symbol_table  # noqa: E402
from clean_notebooks import jupyter_metadata  # noqa: E402

GREEK = dict(alpha="α", beta="β", gamma="γ", delta="δ", varepsilon="ε", zeta="ζ", eta="η", theta="θ", kappa="κ",
             lambda_="λ", mu="μ", nu="ν", xi="ξ", pi="π", rho="ρ", sigma="σ", tau="τ", varphi="φ", chi="χ", psi="ψ",
             omega="ω", Sigma="Σ", Phi="Φ", Upsilon="Υ")
GREEK["lambda"] = GREEK.pop("lambda_")
TYPEFACES = re.compile(r"\\(mathrm|mathcal|mathbb|mathbf|text|texttt|operatorname|textrm|mbox|rm|bar|tilde|hat)(?![A-Za-z])")


# ---------------------------------------------------------------------------------------------------------- reading
def pages():
    """The notebooks of the sidebar in reading order (paths relative to nbs/), without the symbol page, the API pages and
    the syllabus (which quotes each lesson's objectives, in that lesson's symbols)."""
    tree = build_docs.sidebar_tree(build_docs.site_config(), {})
    return [p for p in build_docs.flatten(tree) if p not in (PAGE.name, "syllabus.ipynb") and not p.startswith("api/")]


def markdown(path):
    "The markdown of a notebook, one string per cell, with code blocks, inline code and link targets removed."
    cells = json.loads((NBS / path).read_text())["cells"]
    out = []
    for c in cells:
        if c["cell_type"] != "markdown": continue
        s = "".join(c["source"])
        s = re.sub(r"```.*?```", " ", s, flags=re.S)          # fenced code (exercise solutions)
        s = re.sub(r"`[^`\n]*`", " ", s)                      # inline code: names, not symbols
        s = re.sub(r"\]\([^)]*\)", "]", s)                    # link targets
        s = re.sub(r"<[^>\n]+>", " ", s)                      # html tags (<details>, <summary>)
        out.append(s)
    return out


MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$", re.S)


def split_math(cell):
    "(math segments, prose) of one markdown cell."
    maths = [m.group(1) or m.group(2) for m in MATH.finditer(cell)]
    return maths, MATH.sub(" ", cell)


def strip_typefaces(tex):
    r"The math without the arguments of \mathrm{..}, \text{..}, \mathbb R, \mathcal C, ... (so their letters are not symbols)."
    tex = re.sub(r"\\(mathrm|text|texttt|operatorname|textrm|mbox)\s*\{[^{}]*\}", " ", tex)
    tex = re.sub(r"\\(mathrm|mathcal|mathbb|mathbf|boldsymbol)\s*(\{[^{}]*\}|[A-Za-z0-9])", " ", tex)
    tex = re.sub(r"\\(bar|tilde|hat|widetilde|overline)\s*(\{[^{}]*\}|\\?[A-Za-z0-9]+)", " ", tex)
    return re.sub(r"\\rm\s*[A-Za-z]+", " ", tex)


def views(path):
    "For each markdown cell: (math as written, math without typefaces, prose)."
    out = []
    for cell in markdown(path):
        maths, prose = split_math(cell)
        raw = "  ¦  ".join(maths)
        out.append((raw, strip_typefaces(raw), prose))
    return out


# ---------------------------------------------------------------------------------------------------------- matching
def symbols():
    return [dict(s, group=title) for title, group in symbol_table.GROUPS for s in group]


def _unicode(pattern):
    r"The Unicode letter of a pattern that is exactly one Greek command (r'\\lambda(?![A-Za-z])'), else None."
    m = re.fullmatch(r"\\\\([A-Za-z]+)\(\?!\[A-Za-z\]\)", pattern)
    return GREEK.get(m.group(1)) if m else None


def find(pattern, cells):
    "The first match of `pattern` in the cells' math (or its Unicode letter in the prose): a short excerpt, or None."
    on_raw = bool(TYPEFACES.search(pattern))
    letter = _unicode(pattern)
    for raw, stripped, prose in cells:
        text = raw if on_raw else stripped
        m = re.search(pattern, text)
        if m: return "$" + text[max(0, m.start() - 25):m.end() + 25].strip() + "$"
        if letter and letter in prose:
            i = prose.index(letter)
            return prose[max(0, i - 30):i + 30].replace("\n", " ").strip()
    return None


def _norm(s):
    "One symbol item, normalised: no spaces or braces, the left side of '=' or '\\in', no argument, no surface index."
    s = re.split(r"=|\\in(?![A-Za-z])|\\ge(?![A-Za-z])|\\le(?![A-Za-z])", s)[0]
    s = re.sub(r"\\[,;! ]|\s+|\\[lr]vert", "", s)
    s = s.replace("{", "").replace("}", "").replace("^(s)", "")
    return re.sub(r"(?<![_^])\([^()]*\)$", "", s)          # f(x) -> f, I_up(\alpha) -> I_up; not rho^(j)


def items(tex):
    "The symbol items of a table cell: each `$...$`, split at top-level commas, normalised; expressions are skipped."
    out = []
    for m in re.finditer(r"\$([^$]+)\$", tex):
        depth, part, parts = 0, "", []
        for ch in m.group(1):
            depth += ch in "([{" ; depth -= ch in ")]}"
            if ch == "," and depth == 0: parts.append(part); part = ""
            else: part += ch
        parts.append(part)
        for p in parts:
            p = _norm(p)
            if p and not re.search(r"[+\-*/]|\\lVert|\\cdot|\\top", p): out.append(p)
    return out


def known(item, registered):
    "Whether a normalised item is a registered symbol, or an indexed entry (Q_ii, z_i) of one."
    return item in registered or re.sub(r"_[a-z]{1,2}$", "", item) in registered


def local_tables(path):
    "The symbol items of the notebook's own symbol tables: [(item, row)]."
    cells = json.loads((NBS / path).read_text())["cells"]
    rows = []
    for c in cells:
        if c["cell_type"] != "markdown": continue
        lines = "".join(c["source"]).splitlines()
        for k, line in enumerate(lines):
            if re.match(r"\|\s*symbol\s*\|", line, re.I) and k + 1 < len(lines) and lines[k + 1].startswith("|-"):
                for row in lines[k + 2:]:
                    if not row.startswith("|"): break
                    first = row.split("|")[1]
                    rows += [(it, row.strip()) for it in items(first)]
    return rows


# ---------------------------------------------------------------------------------------------------------- checks
def check():
    "All problems, as strings; empty when the notebooks agree with the table."
    order = pages()
    where_ok = {s["where"] for s in symbols()} - {p.removesuffix(".ipynb") for p in order}
    problems = [f"symbol table: `where` {w!r} is not a page of the sidebar" for w in sorted(where_ok)]
    cells = {p: views(p) for p in order}
    index = {p.removesuffix(".ipynb"): i for i, p in enumerate(order)}
    for s in symbols():
        if s["where"] not in index: continue
        home = s["where"] + ".ipynb"
        if not any(find(pat, cells[home]) for pat in s["find"]):
            problems.append(f"{s['tex']}: defined in {s['where']}, which does not use it")
        for page in order[:index[s["where"]]]:
            hit = next((h for pat in s["find"] if (h := find(pat, cells[page]))), None)
            if hit:
                problems.append(f"{s['tex']}: used in {page} ({hit}) before its definition in {s['where']}")
                break
    registered = {it for s in symbols() for it in items(s["tex"])}
    for page in order:
        for it, row in local_tables(page):
            if not known(it, registered):
                problems.append(f"{page}: its symbol table lists ${it}$, which is not in the global table ({row[:80]})")
    for pattern, why in symbol_table.RETIRED:
        for page in order:
            hit = find(pattern, cells[page])
            if hit: problems.append(f"{page}: retired notation {hit}: {why}")
    if PAGE.exists():
        if [c["source"] for c in page_cells()] != ["".join(c["source"]) for c in json.loads(PAGE.read_text())["cells"]]:
            problems.append("nbs/symbols.ipynb is not up to date: run python tools/check_symbols.py --write")
    else:
        problems.append("nbs/symbols.ipynb is missing: run python tools/check_symbols.py --write")
    if contributing_text(CONTRIBUTING.read_text(encoding="utf-8")) != CONTRIBUTING.read_text(encoding="utf-8"):
        problems.append("CONTRIBUTING.md's retired notations are not up to date: run python tools/check_symbols.py --write")
    return problems


def first_uses():
    "[(symbol, where, first notebook that uses it)] in table order."
    order = pages()
    cells = {p: views(p) for p in order}
    out = []
    for s in symbols():
        first = next((p for p in order if any(find(pat, cells[p]) for pat in s["find"])), None)
        out.append((s["tex"], s["where"], first and first.removesuffix(".ipynb")))
    return out


# ---------------------------------------------------------------------------------------------------------- the page
def _link(where):
    return f"[{where}]({where}.ipynb)"


def page_cells():
    "The cells of nbs/symbols.ipynb: title, introduction, one table per group."
    cells = [dict(cell_type="markdown", source="# Symbols\n> One table for the whole package: each symbol has one "
                  "meaning, in every notebook and in the code.")]
    cells.append(dict(cell_type="markdown", source=symbol_table.INTRO))
    for title, group in symbol_table.GROUPS:
        rows = [f"## {title}", "", "| symbol | meaning | code | defined in |", "|---|---|---|---|"]
        rows += [f"| {s['tex']} | {s['meaning']} | {s['code'] or '–'} | {_link(s['where'])} |" for s in group]
        cells.append(dict(cell_type="markdown", source="\n".join(rows)))
    return cells


def retired_list()->str:
    "The retired notations as the Markdown list CONTRIBUTING.md holds (between its two markers)."
    return "\n".join([RETIRED_BEGIN, *[f"- {why}" for _, why in symbol_table.RETIRED], RETIRED_END])


def contributing_text(text:str)->str:
    "CONTRIBUTING.md's text with the current list of retired notations between the markers."
    if RETIRED_BEGIN not in text or RETIRED_END not in text: raise ValueError(f"CONTRIBUTING.md lacks the markers {RETIRED_BEGIN!r}")
    head, rest = text.split(RETIRED_BEGIN, 1)
    return head + retired_list() + rest.split(RETIRED_END, 1)[1]


def write_page():
    nb = dict(cells=[dict(c, metadata={}) for c in page_cells()], metadata=jupyter_metadata({}), nbformat=4,
              nbformat_minor=5)
    for i, c in enumerate(nb["cells"]): c["id"] = f"symbols-{i}"
    PAGE.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    CONTRIBUTING.write_text(contributing_text(CONTRIBUTING.read_text(encoding="utf-8")), encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write nbs/symbols.ipynb and CONTRIBUTING.md's retired notations from tools/symbol_table.py")
    ap.add_argument("--list", action="store_true", help="print where each symbol is defined and first used")
    args = ap.parse_args(argv)
    if args.write:
        write_page(); print(f"wrote {PAGE.relative_to(ROOT)} and the retired notations of {CONTRIBUTING.name}")
    if args.list:
        for tex, where, first in first_uses(): print(f"{tex:45s} defined in {where:24s} first used in {first}")
        return 0
    problems = check()
    for p in problems: print(p)
    print(f"{len(symbols())} symbols, {len(pages())} notebooks: "
          + ("every symbol is defined before it is used" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
