"""The whole documentation site, built and opened in a real browser (slow: `pytest --slow tests/test_docs_site.py`).

Builds the site with `python tools/build_docs.py --out TMP` (offline once the npm tarballs are cached), then runs
`python tools/check_site.py TMP`: headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) opens every
page from 127.0.0.1 and checks requests, JavaScript errors, MathJax, images, widgets and sliders, doc links (every
public name and notebook the text names is a link to its entry), and that every public name has its show_doc entry. .ci/run runs the same two commands at its end.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_site_builds_and_passes_the_browser_check(tmp_path):
    chromium = Path("/usr/bin/chromium")
    assert chromium.exists(), "install Debian's browser first: apt-get update && apt-get install -y chromium"
    site = tmp_path / "site"
    build = subprocess.run([sys.executable, "tools/build_docs.py", "--out", str(site)], cwd=ROOT,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    check = subprocess.run([sys.executable, "tools/check_site.py", str(site), "--screenshots",
                            str(tmp_path / "screenshots")], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-5000:] + check.stderr[-3000:]
    assert "site OK" in check.stdout
    # nbdev's processing copied the top-level configuration (through the link nbs/_quarto.yml) for Quarto
    assert (ROOT / "_proc" / "_quarto.yml").read_bytes() == (ROOT / "_quarto.yml").read_bytes()
    # doc links: the pages that name public functions and notebooks link them
    lines = {l.split(":")[0]: l for l in check.stdout.splitlines()}
    assert " 0 doc links" not in lines["estimators.html"] and " 0 doc links" not in lines["index.html"]
    assert 'href="estimators.html#L0QSVM"><code>L0QSVM</code>' in (site / "index.html").read_text(encoding="utf-8")
    assert 'href="vech.html"><code>00_vech</code>' in (site / "index.html").read_text(encoding="utf-8")

    # the check can fail: break a copy of three pages and require each fault to be reported
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    def edit(page, old, new):
        path = broken / page
        text = path.read_text(encoding="utf-8"); assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    edit("vech.html", "MathJax.js?config", "MathJaxX.js?config")
    edit("widgets.html", '"model_name": "LinkModel"', '"model_name": "HTMLModel"')      # no links: sliders idle
    edit("features.html", "</main>", '<img src="http://example.com/x.png"><script>undefinedFunction()</script>'
                                     '<a href="nowhere.html">a dead link</a></main>')
    # doc links: a public name left as plain code, one linked to the wrong entry, a notebook to the wrong page, and
    # an anchor that is no id of its page
    edit("index.html", '<a href="cv.html#L0QSVMCV"><code>L0QSVMCV</code></a>', "<code>L0QSVMCV</code>")
    edit("index.html", '<a href="smo.html#smo_solve"><code>smo_solve</code></a>',
         '<a href="smo.html#max_violation"><code>smo_solve</code></a>')
    edit("index.html", '<a href="vech.html"><code>00_vech</code></a>', '<a href="smo.html"><code>00_vech</code></a>')
    edit("index.html", '<a href="estimators.html#L1QSVM"><code>L1QSVM</code></a>',
         '<a href="estimators.html#L1QSVM"><code>L1QSVM</code></a> <a href="vech.html#no-such-heading">x</a>')
    bad = subprocess.run([sys.executable, "tools/check_site.py", str(broken), "--only", "vech", "widgets",
                          "features", "index", "--screenshots", str(tmp_path / "broken-shots")], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 1
    for message in ["vech.html: raw $$ left", "vech.html: the page has formulas but MathJax typeset none",
                    "vech.html: request failed", "features.html: request left 127.0.0.1: http://example.com/x.png",
                    "features.html: image not loaded", "features.html: JavaScript error: undefinedFunction",
                    "features.html: broken link to nowhere.html",
                    "widgets.html: moving slider 0 from one end to the other did not change its figure",
                    "index.html: `L0QSVMCV` is not linked", "index.html: `smo_solve` links to smo.html#max_violation, "
                    "not to its entry #smo_solve", "index.html: `00_vech` links to smo.html, not to vech.html",
                    "index.html: link to vech.html#no-such-heading: no such anchor"]:
        assert message in bad.stdout, (message, bad.stdout[-3000:])
