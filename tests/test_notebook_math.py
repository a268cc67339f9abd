"""Every TeX command in the notebooks' math is one MathJax knows, so no formula shows up as red source text.

A typo such as `\\lec` (for `\\le c`) renders as an error box in JupyterLab and on the site; nothing else would catch it.
The list below holds the commands the notebooks use plus common ones; a new command goes here after a look at how
it renders.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "nbs").rglob("*.ipynb")
                   if not any(part.startswith(("_", ".")) for part in p.relative_to(ROOT / "nbs").parts))

GREEK = """alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho sigma
varsigma varrho varpi tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega""".split()
KNOWN = set(GREEK) | set("""
Big Bigl Bigr big bigl bigr bigg Bigg left right middle langle rangle lVert rVert lvert rvert lfloor rfloor lceil rceil
frac tfrac dfrac binom sqrt sum prod int lim sup inf max min arg det log ln exp sin cos arccos tanh Pr
approx sim simeq equiv propto ne neq le leq ge geq ll gg prec preceq succ succeq subset subseteq supset supseteq in
notin ni cup cap setminus emptyset forall exists mid perp parallel to mapsto leftarrow rightarrow Rightarrow
Leftarrow Longrightarrow Longleftrightarrow iff implies infty partial nabla prime star circ cdot cdots ldots dots
vdots ddots times otimes oplus odot pm mp top ell Re Im
bar hat tilde widehat widetilde overline underline dot ddot vec underbrace overbrace
mathbb mathbf mathcal mathrm mathit mathsf mathtt boldsymbol operatorname text textrm texttt textbf textit rm mbox
quad qquad textstyle displaystyle scriptstyle substack begin end tag label not colon
""".split())


def commands(path:Path)->dict:
    "{TeX command: first formula using it} over the math of the notebook's markdown cells (code is not read)."
    found = {}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown": continue
        text = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", "".join(cell["source"]), flags=re.S))
        for a, b in re.findall(r"\$\$(.+?)\$\$|\$(.+?)\$", text, re.S):
            for cmd in re.findall(r"\\([A-Za-z]+)", a or b): found.setdefault(cmd, (a or b)[:80])
    return found


def test_an_undefined_command_is_found():
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        nb = Path(tmp) / "x.ipynb"
        nb.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["needs $-y_t\\nabla_t\\Phi\\lec$"]}]}))
        assert set(commands(nb)) - KNOWN == {"lec"}


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "nbs")) for p in NOTEBOOKS])
def test_every_math_command_is_known(nb):
    unknown = {cmd: formula for cmd, formula in commands(nb).items() if cmd not in KNOWN}
    assert not unknown, f"{nb.name}: unknown TeX commands {unknown}"
