"""Check the built documentation site in a real browser: headless Chromium (Debian's), driven by Playwright.

    python tools/check_site.py [SITE]        # SITE defaults to _site (build it with python tools/build_docs.py)

Serves SITE on 127.0.0.1 (an http.server on a free port), opens every page listed in SITE/pages.json and checks:
- no request failed (network error or HTTP status >= 400) and no request left 127.0.0.1 (others are blocked and
  reported; `data:` and `blob:` URLs, which never leave the page, are allowed);
- no JavaScript error (uncaught exceptions and console errors);
- MathJax ran and no raw `$$` is left in the text outside code;
- every image loaded (complete, with a natural width), and every link within the site leads to a file of the site;
- every widget rendered, and every slider changes the figure it drives: the slider is moved with the keyboard to
  its last position (End) and to its first (Home), and the two screenshots of its figure must differ;
- a full-page screenshot per page (JPEG) goes to SCREENSHOTS (default _site_screenshots/);
- every public function and class of the package (each module's `__all__`, the modules listed in l0qsvm/_modidx.py)
  has its show_doc entry (a heading with its name as id) on the module's API reference page;
- doc links: wherever the text names a public function, class or method of the package (the public names of
  l0qsvm/_modidx.py, bare or qualified) or a notebook (`00_vech`, `tutorials/00_first_reading`: the names
  tools/build_docs.py's `notebook_names` gives) in inline code, that code is a link, to the page nbdev's index
  gives the name (or the notebook's page), and a public name's link lands on its show_doc entry (its anchor is an
  id of that page, the one nbdev's index names, up to case); every in-site link's #anchor is an id of its page.
  Each page's line reports how many doc links it has.
Exits 1 and lists the problems if any check fails; prints one line per page otherwise.

Needs `pip install playwright` (in the dev extra) and Debian's chromium (`apt-get install chromium`); the browser is
launched from CHROMIUM (default /usr/bin/chromium). Never run `playwright install`: it downloads a browser.
"""
import argparse
import contextlib
import functools
import http.server
import json
import os
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions"]

# Raw display math: the page text outside code, formulas and scripts, after MathJax has typeset.
RAW_MATH_JS = """() => {
  const body = document.querySelector('.site-main') || document.body;
  const copy = body.cloneNode(true);
  copy.querySelectorAll('pre, code, script, style, .MathJax, .MathJax_Preview, .mjx-chtml, .MJX_Assistive_MathML')
      .forEach(e => e.remove());
  const text = copy.textContent;
  const i = text.indexOf('$$');
  return i < 0 ? null : text.slice(Math.max(0, i - 60), i + 60);
}"""

BROKEN_IMAGES_JS = """() => Array.from(document.images)
  .filter(img => !(img.complete && img.naturalWidth > 0))
  .map(img => (img.currentSrc || img.src || '').slice(0, 80) + ` in ${img.closest('[class]')?.className || '?'}`)"""

WIDGETS_JS = """() => ({
  views: document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length,
  rendered: document.querySelectorAll('.jupyter-widgets, .widget-vbox, .widget-hbox, .widget-slider').length,
  errors: Array.from(document.querySelectorAll('.jupyter-widgets-error-widget, .widget-error'))
               .map(e => e.textContent.slice(0, 200)),
})"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


@contextlib.contextmanager
def serve(site):
    "An HTTP server for `site` on 127.0.0.1 and a free port, in a thread: yields its base URL."
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try: yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown(); httpd.server_close()


def local(url):
    u = urlparse(url)
    return u.scheme in ("data", "blob", "about") or (u.scheme in ("http", "https") and u.hostname == "127.0.0.1")


def has_math(path):
    "Does the page's HTML hold $...$ math outside code and scripts (so MathJax must typeset something)?"
    import re
    text = re.sub(r"<(pre|code|script|style)\b.*?</\1>", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.search(r"\$[^$<>]+\$", text) is not None


def wait_ready(page, timeout=30.0):
    "Wait for MathJax's queue to drain and for every saved widget view to be rendered."
    page.wait_for_load_state("load")
    page.evaluate("""() => new Promise(resolve => {
        if (!window.MathJax || !MathJax.Hub) return resolve();
        MathJax.Hub.Queue(resolve); })""")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate("""() => Array.from(document.querySelectorAll(
                'script[type="application/vnd.jupyter.widget-view+json"]'))
                .every(s => s.parentElement.querySelector('.jupyter-widgets'))"""):
            break
        time.sleep(0.2)
    page.wait_for_load_state("networkidle")


def settle(page, figure):
    "After a slider moved: let the widgets update, then wait until the images shown have been decoded."
    page.wait_for_timeout(200)
    figure.evaluate("""el => Promise.all(Array.from(el.querySelectorAll('img')).map(img =>
        img.complete && img.naturalWidth ? img.decode().catch(() => null)
                                         : new Promise(r => { img.onload = r; img.onerror = r; })))""")


def check_sliders(page, name, problems):
    "Move every slider (keyboard: End, then Home) and require its figure to change. Returns the number checked."
    handles = page.locator(".widget-slider .noUi-handle, .widget-hslider .noUi-handle")
    count = handles.count()
    for i in range(count):
        handle = handles.nth(i)
        # the figure a slider drives: in the nearest box around the slider that holds images, its child holding them
        # (FrameSliders: VBox[HBox[sliders], Stack[Image...]])
        box = handle.locator("xpath=ancestor::div[contains(@class,'widget-box')][.//img][1]")
        if box.count() == 0:
            problems.append(f"{name}: slider {i} drives no figure (no image beside it)"); continue
        figure = box.locator("xpath=./div[.//img]").first
        handle.scroll_into_view_if_needed()
        handle.focus(); page.keyboard.press("End"); settle(page, figure)
        at_end = figure.screenshot()
        handle.focus(); page.keyboard.press("Home"); settle(page, figure)
        at_home = figure.screenshot()
        if at_end == at_home:      # the two ends of the slider must show different figures
            problems.append(f"{name}: moving slider {i} from one end to the other did not change its figure")
    return count


# Inline code outside code blocks, with the link around it (if any): the names doc links must cover.
CODE_JS = """() => Array.from(document.querySelectorAll('.site-main code'))
  .filter(c => !c.closest('pre'))
  .map(c => ({text: c.textContent.trim(), href: c.closest('a[href]')?.href ?? null}))"""


def doc_link_targets(site):
    """What each name a doc link must cover links to: {name: (page, anchor or None)} for the public names of
    l0qsvm/_modidx.py (bare, `L0QSVMCV.fit`, and qualified, `l0qsvm.cv.L0QSVMCV.fit`) and the notebooks' names."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import build_docs, make_api_pages
    targets = {}
    for module, syms in make_api_pages.modidx().items():
        for sym, (link, _) in syms.items():
            short = sym[len(module) + 1:]
            if any(part.startswith("_") for part in short.split(".")): continue
            page, _, anchor = link.partition("#")
            targets.setdefault(short, (page, anchor or None)); targets[sym] = (page, anchor or None)
    pages = {p["source"]: p["page"] for p in json.loads((site / "pages.json").read_text(encoding="utf-8"))}
    targets.update({name: (page, None) for name, page in build_docs.notebook_names(pages).items()})
    return targets


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=None)
def anchors(path):
    "The ids of the elements of the HTML file at `path` (empty if there is no such file)."
    import html, re
    return {html.unescape(i) for i in re.findall(r'\sid="([^"]+)"', path.read_text(encoding="utf-8"))} \
        if path.is_file() else set()


def check_doc_links(name, codes, base, site, targets, problems):
    "Problems with the doc links of page `name` (codes: its inline code and their links). Returns the number of doc links."
    from urllib.parse import unquote
    n = 0
    for code in codes:
        text = code["text"].removesuffix("()")
        if text not in targets: continue
        page, anchor = targets[text]
        if not code["href"]:
            problems.append(f"{name}: `{text}` is not linked (doc link to {page}{'#' + anchor if anchor else ''})")
            continue
        n += 1
        got = urlparse(code["href"])
        got_page = unquote(got.path).lstrip("/")
        pages = (page, "api/" + page.rsplit("/", 1)[-1]) if anchor else (page,)   # methods: on the API page only (api/NAME)
        if not code["href"].startswith(base) or got_page not in pages:
            problems.append(f"{name}: `{text}` links to {code['href'].removeprefix(base)}, not to {page}")
        elif anchor and unquote(got.fragment).lower() != anchor.lower():
            problems.append(f"{name}: `{text}` links to {got_page}#{got.fragment}, not to its entry #{anchor}")
    return n


def missing_show_docs(site):
    "Public names in l0qsvm/_modidx.py (functions, classes, their methods) without a show_doc entry on their API page."
    import re
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import make_api_pages
    syms, missing = make_api_pages.modidx(), []
    pages = {p["source"]: p["page"] for p in json.loads((site / "pages.json").read_text(encoding="utf-8"))}
    for module, source in make_api_pages.modules():
        api = f"api/{Path(source).name}"                      # make_api_pages writes nbs/api/NAME for nbs/.../NAME
        page = site / pages.get(api, f"{api}: not on the site")
        ids = set(re.findall(r'<h[1-6][^>]* id="([^"]+)"', page.read_text(encoding="utf-8"))) if page.exists() else set()
        public = [s[len(module) + 1:] for s in syms[module]
                  if not any(part.startswith("_") for part in s[len(module) + 1:].split("."))]
        missing += [f"{module}.{name} (on {page.relative_to(site)})" for name in public if name not in ids]
    return missing


def check_pages(base, site, entries, screenshots, chromium, targets):
    "Open each page of `entries` in one headless Chromium and check it: (problems, one summary line per page, links)."
    from playwright.sync_api import sync_playwright
    problems, summary, links = [], [], []
    with sync_playwright() as pw:
        # Playwright starts the browser with a new empty profile (its own --user-data-dir) every time
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            for entry in entries:
                name, errors, outside, failed = entry["page"], [], [], []
                page = context.new_page()
                page.route("**/*", lambda route: route.continue_() if local(route.request.url) else route.abort())
                page.on("request", lambda r: None if local(r.url) else outside.append(r.url))
                page.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
                page.on("response", lambda r: failed.append(f"{r.url} (HTTP {r.status})") if r.status >= 400 else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                t0 = time.perf_counter()
                page.goto(base + name)
                wait_ready(page)
                problems += [f"{name}: request left 127.0.0.1: {u}" for u in outside]
                problems += [f"{name}: request failed: {u}" for u in failed if not any(o in u for o in outside)]
                raw = page.evaluate(RAW_MATH_JS)
                if raw: problems.append(f"{name}: raw $$ left in the text: ...{raw}...")
                if has_math(site / name) and not page.evaluate("() => document.querySelectorAll('.mjx-chtml').length"):
                    problems.append(f"{name}: the page has formulas but MathJax typeset none")
                problems += [f"{name}: image not loaded: {src}" for src in page.evaluate(BROKEN_IMAGES_JS)]
                for href in page.evaluate("() => Array.from(document.querySelectorAll('a[href]'), a => a.href)"):
                    if not href.startswith(base): continue
                    target = site / unquote(urlparse(href).path).lstrip("/")
                    if not target.is_file():
                        problems.append(f"{name}: broken link to {href[len(base):]}")
                    elif (frag := urlparse(href).fragment) and not {frag, unquote(frag)} & anchors(target):
                        problems.append(f"{name}: link to {href[len(base):]}: no such anchor on that page")
                n_links = check_doc_links(name, page.evaluate(CODE_JS), base, site, targets, problems)
                w = page.evaluate(WIDGETS_JS)
                if w["views"] and not w["rendered"]: problems.append(f"{name}: {w['views']} widget views, none rendered")
                problems += [f"{name}: widget error: {e}" for e in w["errors"]]
                n_sliders = check_sliders(page, name, problems)
                problems += [f"{name}: JavaScript error: {e}" for e in errors]
                shot = screenshots / (name.replace("/", "__").removesuffix(".html") + ".jpg")
                page.screenshot(path=str(shot), full_page=True, type="jpeg", quality=80)   # (PNG: a third slower)
                n_img = page.evaluate("() => document.images.length")
                summary.append(f"{name}: {n_img} images, {w['views']} widgets, {n_sliders} sliders moved, "
                               f"{n_links} doc links ({time.perf_counter() - t0:.1f} s)")
                links.append(n_links)
                page.close()
        finally:
            browser.close()
    return problems, summary, links


def check_site(site, screenshots, chromium="/usr/bin/chromium", only=(), workers=3):
    """Check every page of `site` (or those whose name holds one of `only`): (problems, summary lines).

    Most of a page's time is spent waiting (for MathJax, the widgets, the network to fall idle), not computing, so
    `workers` processes, each with its own browser, share the pages."""
    import concurrent.futures, multiprocessing
    pages = json.loads((site / "pages.json").read_text(encoding="utf-8"))
    pages = [p for p in pages if not only or any(o in p["page"] for o in only)]
    screenshots.mkdir(parents=True, exist_ok=True)
    targets = doc_link_targets(site)
    chunks = [pages[i::workers] for i in range(workers) if pages[i::workers]]
    problems, rows, links = [], {}, []
    with serve(site) as base, concurrent.futures.ProcessPoolExecutor(
            len(chunks), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(check_pages, base, site, chunk, screenshots, chromium, targets) for chunk in chunks]
        for chunk, future in zip(chunks, futures):
            more, lines, n = future.result()
            problems += more; links += n
            rows.update({entry["page"]: line for entry, line in zip(chunk, lines)})
    summary = [rows[p["page"]] for p in pages]
    summary.append(f"doc links: {sum(links)} on {sum(n > 0 for n in links)} of {len(pages)} pages "
                   f"(links to the public names and notebooks that the text names)")
    return problems, summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site", nargs="?", default=str(ROOT / "_site"))
    ap.add_argument("--screenshots", default=str(ROOT / "_site_screenshots"))
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--only", nargs="*", default=(), help="substrings of the pages to check")
    ap.add_argument("--workers", type=int, default=3, help="browsers checking pages side by side (default 3)")
    args = ap.parse_args(argv)
    site = Path(args.site).resolve()
    if not (site / "pages.json").exists(): sys.exit(f"{site}/pages.json not found: build the site first")
    t0 = time.perf_counter()
    problems = [f"no show_doc entry: {name}" for name in missing_show_docs(site)] if not args.only else []
    more, summary = check_site(site, Path(args.screenshots).resolve(), args.chromium, args.only, args.workers)
    problems += more
    print("\n".join(summary))
    if problems:
        print(f"\n{len(problems)} problems:\n" + "\n".join(problems))
        return 1
    print(f"site OK: {len(summary) - 1} pages in {time.perf_counter() - t0:.0f} s, screenshots in {args.screenshots}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
