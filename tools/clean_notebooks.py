"""Clean the notebooks: `nbdev_clean`, then the notebook metadata that Jupyter writes when it opens a notebook.

    python tools/clean_notebooks.py              # every notebook under nbs/ (what `nbdev_clean` cleans)
    python tools/clean_notebooks.py PATH ...     # these notebooks only
    python tools/clean_notebooks.py --check      # report the notebooks whose metadata is not the canonical one

Why a second step. JupyterLab starts the notebook's kernel when it opens a notebook, then writes two things into
the notebook's metadata: the kernelspec of the kernel it started (its display name included) and the kernel's
`language_info`. If the file holds anything else, the notebook is marked modified before anyone touches it (and a
notebook without a kernelspec opens a "Select Kernel" dialog). `nbdev_clean` keeps the kernelspec but overwrites
its display name with its name ("python3"), and it drops `language_info` unless settings.ini lists it under
`allowed_metadata_keys` (it does). So, after `nbdev_clean`, every notebook gets

- `kernelspec` = KERNELSPEC, the kernelspec ipykernel installs (name "python3", display name "Python 3 (ipykernel)");
- `language_info` = LANGUAGE_INFO, what ipykernel reports for the project's Python (`IPythonKernel.language_info`).

The Python version in `language_info` is a constant, the version of the project's reference environment, so that
cleaning gives the same files on every machine. A kernel on another Python reports another version, and JupyterLab
then marks the notebook modified: Jupyter stores the version in the notebook, nothing in the file can avoid that.
`tests/test_notebook_metadata.py` checks every notebook and that `nbdev_clean` keeps both keys.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
PYTHON_VERSION = "3.11.7"       # the Python of the reference environment (CI and the project's machines)
LANGUAGE_INFO = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                 "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                 "pygments_lexer": "ipython3", "version": PYTHON_VERSION}


def jupyter_metadata(metadata:dict)->dict:
    "`metadata` with the kernelspec and language_info JupyterLab writes on opening (other keys unchanged)."
    return {**metadata, "kernelspec": dict(KERNELSPEC), "language_info": json.loads(json.dumps(LANGUAGE_INFO))}


def notebooks():
    "The notebooks `nbdev_clean` cleans: nbs/ recursively, skipping folders that start with _ or ."
    return sorted(p for p in NBS.rglob("*.ipynb") if not any(part.startswith(("_", ".")) for part in p.relative_to(NBS).parts))


def fix(path)->bool:
    "Give one notebook the canonical metadata, written as nbdev writes notebooks; True if the file changed."
    from execnb.nbio import nb2str
    path = Path(path)
    old = path.read_text(encoding="utf-8")
    nb = json.loads(old)
    nb["metadata"] = jupyter_metadata(nb.get("metadata", {}))
    new = nb2str(nb)
    if new != old: path.write_text(new, encoding="utf-8")
    return new != old


def wrong(path)->list:
    "What differs from the canonical metadata in one notebook (empty when nothing does)."
    md = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {})
    return [f"{key}: {md.get(key)!r}" for key, want in [("kernelspec", KERNELSPEC), ("language_info", LANGUAGE_INFO)]
            if md.get(key) != want]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="notebooks to clean (default: every notebook under nbs/)")
    ap.add_argument("--check", action="store_true", help="only report notebooks whose metadata is not canonical")
    args = ap.parse_args(argv)
    paths = [Path(p).resolve() for p in args.paths] or notebooks()
    if args.check:
        bad = {p: w for p in paths if (w := wrong(p))}
        for p, w in bad.items(): print(f"{p.relative_to(ROOT)}: {'; '.join(w)}")
        print(f"{len(paths)} notebooks, {len(bad)} without the canonical Jupyter metadata"
              + (": run python tools/clean_notebooks.py" if bad else ""))
        return 1 if bad else 0
    if args.paths:
        for p in paths: subprocess.run(["nbdev_clean", "--fname", str(p)], check=True, cwd=ROOT)
    else:
        subprocess.run(["nbdev_clean"], check=True, cwd=ROOT)
    changed = [p for p in paths if fix(p)]
    print(f"cleaned {len(paths)} notebooks; gave {len(changed)} the canonical Jupyter metadata")
    return 0


if __name__ == "__main__":
    sys.exit(main())
