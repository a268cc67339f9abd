"""The course's lessons and their measures: what tests/test_course.py checks and the syllabus quotes.

    python tools/course.py            # one line per lesson: words, engineering words, exercises, estimated hours
    python tools/course.py --write    # (re)write nbs/syllabus.ipynb from the sidebar and the lessons' openings
    python tools/course.py --check    # exit 1 if nbs/syllabus.ipynb is not what --write would write

The lessons are the pages of the sidebar's Course section (nbs/sidebar.yml), in its order. For each:
- prose words: the markdown outside code (fenced blocks and inline `code`) and math ($...$, $$...$$);
- engineering words: the words of `ENGINEERING` in that prose (an inline code span that is one of those words, such
  as `max_time`, counts too), with the paragraph each is in;
- its opening (`**You will learn**` with 3 or 4 objectives, then `**You need**`) and its ending (`## What to remember`,
  then `## Exercises`, the last section);
- the time a careful reader needs: prose at 25 words a minute, code at 8 lines a minute (read and run), and a quarter
  of an hour per exercise (the exercises are the `**N.**` items of the Exercises section).
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
sys.path.insert(0, str(ROOT / "tools"))
import build_docs  # noqa: E402

ENGINEERING = re.compile(r"\b(numba\w*|cach\w*|BLAS|thread\w*|deadline\w*|max_time|budget\w*|compil\w*|speed-ups?|faster|"
                         r"benchmark\w*|CRC\w*|checksum\w*|joblib)\b", re.I)
ENGINEERING_CODE = re.compile(r"numba|cache|BLAS|thread|deadline|max_time|budget|compile|benchmark|CRC|checksum|joblib", re.I)
WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")
WORDS_PER_MINUTE, CODE_LINES_PER_MINUTE, MINUTES_PER_EXERCISE = 25, 8, 15


def tracks():
    "[(track title, [lesson paths relative to nbs/])] of the sidebar's Course section, in order."
    tree = build_docs.sidebar_tree(build_docs.site_config(), {})
    course = next(items for kind, title, items in tree if kind == "section" and title == "Course")
    return [(title, list(build_docs.flatten(items))) for kind, title, items in course if kind == "section"]


def lessons():
    "Every lesson path, track 1 then track 2."
    return [p for _, paths in tracks() for p in paths]


def cells(path):
    return json.loads((NBS / path).read_text(encoding="utf-8"))["cells"]


def markdown(path):
    return ["".join(c["source"]) for c in cells(path) if c["cell_type"] == "markdown"]


def strip_math_and_code(text, keep=None):
    "Markdown without fenced code blocks, math and inline code (but the inline code spans that match `keep`)."
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"(?<!\\)\$[^$\n]+?(?<!\\)\$", " ", text)
    return re.sub(r"`([^`\n]*)`", lambda m: m.group(1) if keep and keep.fullmatch(m.group(1)) else " ", text)


def prose(path, keep=None):
    return "\n\n".join(strip_math_and_code(s, keep) for s in markdown(path))


def words(path):
    return len(WORD.findall(prose(path)))


def engineering(path):
    "[(word, the paragraph it is in, with its links)] of the lesson's prose."
    out = []
    for md in markdown(path):
        for para in re.split(r"\n\s*\n", re.sub(r"```.*?```", " ", md, flags=re.S)):
            out += [(m.group(0), para) for m in ENGINEERING.finditer(strip_math_and_code(para, ENGINEERING_CODE))]
    return out


def exercises(path):
    "The number of exercises: the `**N.**` items after the `## Exercises` heading."
    md = markdown(path)
    start = next((k for k, s in enumerate(md) if re.search(r"^## Exercises", s, re.M)), None)
    if start is None: return 0
    text = re.split(r"^## Exercises", "\n".join(md[start:]), flags=re.M)[1]
    return len(re.findall(r"^\s*(?:[-*]\s*)?\*\*\d+\.", text, re.M))


def code_lines(path):
    return sum(len("".join(c["source"]).splitlines()) for c in cells(path) if c["cell_type"] == "code")


def hours(path):
    "The time estimate, to the quarter hour (at least a quarter)."
    minutes = words(path) / WORDS_PER_MINUTE + code_lines(path) / CODE_LINES_PER_MINUTE + MINUTES_PER_EXERCISE * exercises(path)
    return max(0.25, round(minutes / 15) / 4)


def opening(path):
    """(objectives, the 'You need' text) of the lesson's opening (its markdown before the first `## ` heading), or None
    where it has no such block. (The first cell holds only the title and the description: nbdev makes it the page's
    front matter and drops the rest.)"""
    md = markdown(path)
    head = []
    for s in md:
        if re.search(r"^## ", s, re.M): head.append(s.split("\n## ")[0]); break
        head.append(s)
    m = re.search(r"^\*\*You will learn\*\*\s*\n((?:\s*\n|- .*\n(?:  .*\n)*)+)\s*^\*\*You need\*\*:?\s*(.+)",
                  "\n\n".join(head) + "\n", re.M)
    if not m: return None
    return re.findall(r"^- (.*(?:\n  .*)*)", m.group(1), re.M), m.group(2).strip()


def sections(path):
    "The `## ` headings of the lesson, in order."
    return [h for s in markdown(path) for h in re.findall(r"^## (.+)$", s, re.M)]


INTRO = """# Syllabus

> The path through the course: two tracks, lesson by lesson, with what each needs, what it teaches and how long it takes.

The course teaches sparse kernel-free classifiers from their algebra to their solvers, one idea per lesson. Every
lesson states what you will learn and what you need, derives the method one step per cell and checks each step
numerically, and ends with what to remember and exercises whose worked solutions are collapsed (click *Solution*).
Read the lessons in this order, which is the sidebar's: no lesson uses what a later one derives.

**Track 1, sparse quadratic surfaces**, goes from a first reading to the L0-QSVM estimators and their
cross-validation. **Track 2, sparse kernel logistic regression**, derives S-KLR and compares it with its peers; it
uses the SMO lesson of track 1 (and its first four lessons for the notation of duals), so take it after track 1, or
after `03_smo` if S-KLR is what you came for.

The times are estimates for a careful reader who runs the cells and does the exercises: prose at {wpm} words a
minute, code at {lpm} lines a minute, {mpe} minutes per exercise (`python tools/course.py` computes them). The engineering that
makes the solvers fast and robust is in the *Internals* notebooks, which no lesson needs; *Experiments* reproduces the
papers' tables and figures; *Symbols* gives every symbol its one meaning.

The shortest path to the L0-QSVM estimator: the first reading, `00_vech`, `01_features`, `04_subproblems`,
`02_smo_basics`, `03_smo`, `04c_qsvm`, `06_penalty`, `06a_swap`, `08_estimators` ({short:.1f} hours)."""

SHORT = ["tutorials/00_first_reading.ipynb", "00_vech.ipynb", "01_features.ipynb", "04_subproblems.ipynb", "03_smo.ipynb",
         "02_smo_basics.ipynb", "04c_qsvm.ipynb", "06_penalty.ipynb", "06a_swap.ipynb", "08_estimators.ipynb"]


def title(path):
    return markdown(path)[0].splitlines()[0].lstrip("# ").strip()


def from_nbs(link, path):
    "A relative link written in the lesson at `path`, as seen from nbs/ (where the syllabus is)."
    import posixpath
    if re.match(r"[a-z]+:|#|/", link): return link
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), link))


def syllabus_cells():
    "The markdown of nbs/syllabus.ipynb: the introduction, then one section per track with one entry per lesson."
    intro = INTRO.format(wpm=WORDS_PER_MINUTE, lpm=CODE_LINES_PER_MINUTE, mpe=MINUTES_PER_EXERCISE,
                         short=sum(hours(p) for p in SHORT))
    head, body = intro.split("\n\nThe course teaches", 1)
    out = [head, "The course teaches" + body]
    k = 0
    for track, paths in tracks():
        rows = [f"## {track}\n\n{len(paths)} lessons, about {sum(hours(p) for p in paths):.1f} hours."]
        for p in paths:
            k += 1
            objectives, need = opening(p)
            need = re.sub(r"\]\(([^)]+)\)", lambda m: f"]({from_nbs(m.group(1), p)})", need)
            rows.append(f"### {k}. [{title(p)}]({p})\n\n*About {hours(p):g} h; you need:* {need}\n\n"
                        + "\n".join(f"- {' '.join(o.split())}" for o in objectives))
        out.append("\n\n".join(rows))
    return out


def syllabus_notebook():
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(s) for s in syllabus_cells()]
    for i, c in enumerate(nb.cells): c.id = f"syllabus-{i}"
    nb.metadata = {"kernelspec": {"display_name": "python3", "language": "python", "name": "python3"}}
    return nbformat.writes(nb) + "\n"


def main():
    if "--write" in sys.argv[1:] or "--check" in sys.argv[1:]:
        path = NBS / "syllabus.ipynb"
        text = syllabus_notebook()
        if "--check" in sys.argv[1:]:
            same = path.exists() and markdown("syllabus.ipynb") == syllabus_cells()
            print("nbs/syllabus.ipynb is up to date" if same else "nbs/syllabus.ipynb is out of date: run python tools/course.py --write")
            sys.exit(0 if same else 1)
        path.write_text(text, encoding="utf-8"); print(f"wrote {path}")
        import subprocess
        subprocess.run([sys.executable, str(ROOT / "tools" / "clean_notebooks.py"), str(path)], check=True, cwd=ROOT)
        return
    total = {}
    print(f"{'lesson':42s} {'words':>6s} {'eng':>4s} {'ex':>3s} {'hours':>6s}")
    for title, paths in tracks():
        for p in paths:
            print(f"{p:42s} {words(p):6d} {len(engineering(p)):4d} {exercises(p):3d} {hours(p):6.2f}")
        total[title] = sum(hours(p) for p in paths)
    for title, h in total.items(): print(f"{title}: {h:.1f} hours")


if __name__ == "__main__":
    main()
