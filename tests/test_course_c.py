"The lessons 06_penalty and 06a_swap have the course's shape; their engineering lives in internals notebooks and modules."
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENG = r"\b(numba|cache[sd]?|caching|BLAS|threads?|deadlines?|max_time|budgets?|compil\w*|speed-up|faster|benchmarks?|CRC|checksums?|joblib)\b"


def markdown(name):
    return ["".join(c["source"]) for c in json.loads((ROOT / "nbs" / f"{name}.ipynb").read_text())["cells"]
            if c["cell_type"] == "markdown"]


def prose(text):
    "Markdown without math and code (the words a reader reads as prose)."
    for pattern in (r"\$\$.*?\$\$", r"\$[^$]*\$", r"```.*?```", r"`[^`]*`"): text = re.sub(pattern, "", text, flags=re.S)
    return text


@pytest.mark.parametrize("name", ["06_penalty", "06a_swap"])
def test_lesson_shape(name):
    "Objectives and prerequisites first; 'What to remember' then 'Exercises' last; at most 3,500 words of prose."
    md = markdown(name)
    first = md[0]
    assert first.startswith("# ") and "**You will learn**" in first and "**You need**:" in first
    objectives = re.findall(r"^- ", first.split("**You will learn**")[1].split("**You need**")[0], re.M)
    assert 3 <= len(objectives) <= 4
    headings = [s.splitlines()[0] for s in md]
    assert headings[-1] == "## Exercises" and headings[-2] == "## What to remember"
    assert 3 <= len(re.findall(r"^- ", md[-2], re.M)) <= 6
    words = len(re.findall(r"[A-Za-z0-9][\w'’-]*", prose("\n".join(md))))
    assert words <= 3500, words
    assert "appendix" not in "\n".join(md).lower()


@pytest.mark.parametrize("name", ["06_penalty", "06a_swap"])
def test_engineering_words_point_to_internals(name):
    "At most 5 engineering words, each in a paragraph that links to an internals notebook."
    hits = [(p, m.group()) for s in markdown(name) for p in prose(s).split("\n\n") for m in re.finditer(ENG, p, re.I)]
    assert len(hits) <= 5, hits
    links = [p for s in markdown(name) for p in s.split("\n\n") if "](internals/" in p]
    for paragraph, word in hits:
        assert any(prose(link) == paragraph for link in links), (word, paragraph)


def test_fast_swap_search_lives_in_its_internals_module():
    "The question machinery is defined in l0qsvm.fast_swap (internals/06ai) and used, not redefined, by l0qsvm.swap."
    import l0qsvm.fast_swap as fast
    import l0qsvm.swap as swap
    for name in ["support_fit", "SupportDual", "SupportFit", "point_of", "dual_ascent", "_ask_loop", "_swap_factors",
                 "_ask_swaps", "_project_dual", "_tri_inv", "_rty_at"]:
        assert getattr(fast, name).__module__ == "l0qsvm.fast_swap", name
    assert swap.support_fit is fast.support_fit and swap.dual_ascent is fast.dual_ascent
    assert (ROOT / "nbs" / "internals" / "06ai_fast_swap_search.ipynb").exists()
    assert (ROOT / "nbs" / "internals" / "06i_z_step_routes.ipynb").exists()
