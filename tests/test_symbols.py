"""The symbol table (tools/symbol_table.py, rendered as nbs/symbols.ipynb) and the notebooks agree.

`tools/check_symbols.py` reads every notebook of the sidebar in reading order: each symbol must first appear in the
notebook that defines it or later, every symbol of a notebook's own table must be in the global one, and the retired
notations (old second meanings of a letter) must not come back. The checks below also show that the checker can fail.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import check_symbols  # noqa: E402


def test_notebooks_follow_the_symbol_table():
    problems = check_symbols.check()
    assert problems == [], "\n".join(problems)


def test_every_symbol_has_a_defining_page_and_a_pattern():
    pages = {p.removesuffix(".ipynb") for p in check_symbols.pages()}
    for s in check_symbols.symbols():
        assert s["where"] in pages and s["find"] and s["meaning"], s["tex"]
    forms = [f.replace(" ", "") for s in check_symbols.symbols() for f in re.findall(r"\$([^$]+)\$", s["tex"])]
    assert len(forms) == len(set(forms)), "a symbol is listed twice"


def test_the_checker_finds_a_use_in_math_and_in_prose():
    cells = [check_symbols.split_math("the weight $\\lambda$ and the gradient $\\nabla f(\\alpha)$")]
    cells = [(" ¦ ".join(m), check_symbols.strip_typefaces(" ¦ ".join(m)), p) for m, p in cells]
    assert check_symbols.find(r"\\lambda(?![A-Za-z])", cells)
    assert check_symbols.find(check_symbols.symbol_table.RETIRED[0][0], cells)        # ∇f is retired
    prose = [("", "", "a sparsity weight λ")]
    assert check_symbols.find(r"\\lambda(?![A-Za-z])", prose)                          # Greek letters in prose too
    typeface = [check_symbols.split_math("$x \\in \\mathbb R^n$")]
    typeface = [(" ¦ ".join(m), check_symbols.strip_typefaces(" ¦ ".join(m)), p) for m, p in typeface]
    assert not check_symbols.find(r"(?<![\\A-Za-z])R(?![A-Za-z])", typeface)          # the R of ℝ is not the matrix R


def test_the_checker_reports_a_use_before_the_definition(monkeypatch):
    "Move the definition of λ to the last page of the sidebar: every earlier use is then reported."
    table = [(title, [dict(s, where=check_symbols.pages()[-1].removesuffix(".ipynb")) if s["tex"] == "$\\lambda$" else s
                      for s in group]) for title, group in check_symbols.symbol_table.GROUPS]
    monkeypatch.setattr(check_symbols.symbol_table, "GROUPS", table)
    problems = check_symbols.check()
    assert any(p.startswith("$\\lambda$: used in") for p in problems)


def test_local_table_items_are_normalised():
    assert check_symbols.items("$w = \\mathrm{hvec}(W)$, $z = [w; b]$, $d$") == ["w", "z", "d"]
    assert check_symbols.items("$I_{up}(\\alpha)$, $\\rho^{(j)}$") == ["I_up", "\\rho^(j)"]
    assert check_symbols.items("$\\lVert z - u\\rVert_\\infty$") == []                  # an expression, not a symbol
    registered = {"Q", "e_ij"}
    assert check_symbols.known("Q_ii", registered) and not check_symbols.known("q_i", registered)
