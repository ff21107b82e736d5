#!/usr/bin/env python3
"""Loads every page of the built documentation site in headless Chromium and checks it.

    python3 docs/check_site.py build/site [--screenshot PAGE=FILE.png ...] [--jobs N]

The site is served on 127.0.0.1 (a free port, loopback only). Every .html file of the site
is loaded with `chromium --headless --dump-dom`, and the check fails on:

- a page whose rendered main content (role="main", <main> or #main-content) is empty;
- Markdown that rendered as text: a code block holding a ``` line, a paragraph holding a
  list item (Python-Markdown needs a blank line before a list, GitHub does not);
- a link (<a href>) or an image (<img src>) inside the site that does not resolve to a file
  of the built site, or whose #fragment names no element of the page it points to;
- a script, stylesheet or image loaded from another host (the site needs no network);
- a request the browser made that the server answered with an error (a missing CSS, JS,
  font or image file);
- a Chromium error: a non-zero exit, a timeout, no DOM, or a JavaScript error in the page's
  console;
- a page listed in the `nav:` of mkdocs.yml (--nav; default: the repository's) that the
  site lacks, or whose main content holds fewer than --min-nav-chars characters of text.

--screenshot PAGE=FILE renders PAGE (a path inside the site, e.g. index.html) at 1280x1600
into FILE, and fails if the picture is blank. Exit 0 when every check passes, 1 with one line per failure otherwise, 2 on bad
arguments. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import functools
import html.parser
import http.server
import os
import pathlib
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                  "--disable-extensions", "--disable-background-networking", "--disable-sync",
                  "--enable-logging=stderr", "--v=0"]
# A console message from the page, as Chromium logs it with --enable-logging=stderr.
CONSOLE = re.compile(r':CONSOLE[^\]]*\]\s*(.*)')
# A line inside a rendered paragraph that Markdown meant as a list item.
UNRENDERED_LIST = re.compile(r'\s*([-*+]|\d+\.) \S')
CONSOLE_ERROR = re.compile(r'Uncaught|Error|Failed to load resource|net::ERR_', re.IGNORECASE)


class Page(html.parser.HTMLParser):
    """What the check needs from a rendered DOM: links, resources, ids, the main content."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.resources, self.ids = [], [], set()
        self.main_text, self.main_images = [], 0
        self._main_depth = None  # depth of the main element while inside it
        self._depth = 0
        self._skip = 0  # inside <script> or <style>
        self.blocks = []  # (tag, text) of every <pre> and <p>: Markdown the renderer left as text
        self._block = None

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        if tag == "a" and a.get("href") is not None:
            self.links.append(("link", a["href"]))
        elif tag == "img" and a.get("src") is not None:
            self.resources.append(("image", a["src"]))
            self.links.append(("image", a["src"]))
            if self._main_depth is not None:
                self.main_images += 1
        elif tag == "script" and a.get("src"):
            self.resources.append(("script", a["src"]))
        elif tag == "link" and a.get("href") and "stylesheet" in (a.get("rel") or ""):
            self.resources.append(("stylesheet", a["href"]))
        if tag in ("script", "style"):
            self._skip += 1
        if tag in ("pre", "p") and self._block is None:
            self._block = [tag, []]
        if tag in self.VOID:
            return
        self._depth += 1
        if self._main_depth is None and (tag == "main" or a.get("role") == "main" or a.get("id") == "main-content"):
            self._main_depth = self._depth

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if self._block is not None and tag == self._block[0]:
            self.blocks.append((tag, "".join(self._block[1])))
            self._block = None
        if self._main_depth is not None and self._depth == self._main_depth:
            self._main_depth = -1  # done: only the first main element counts
        self._depth -= 1

    def handle_data(self, data):
        if self._block is not None:
            self._block[1].append(data)
        if self._main_depth not in (None, -1) and not self._skip:
            self.main_text.append(data)

    def has_main(self):
        return self._main_depth is not None

    def main_chars(self):
        return len("".join("".join(self.main_text).split()))  # characters other than white space


class Server:
    """The site on 127.0.0.1, on a port the kernel picks; records every error it answers."""

    def __init__(self, root):
        self.errors = []
        errors = self.errors

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_request(self, code="-", size="-"):
                try:
                    if int(code) >= 400:
                        errors.append(f"{self.path} -> HTTP {int(code)}")
                except (TypeError, ValueError):
                    pass

            def log_message(self, *args):
                pass

        class Quiet(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser closing early is no error
                    errors.append(f"server error: {sys.exc_info()[1]!r}")

        self.httpd = Quiet(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def run_chromium(chromium, args, url, timeout):
    """Runs one headless Chromium on url in its own profile; returns (rc, stdout, stderr)."""
    with tempfile.TemporaryDirectory(prefix="scfly-chromium-") as profile:
        cmd = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, url]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             errors="replace", start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
            return p.returncode, out, err
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # Chromium's own children are in this session
            p.communicate()
            return None, "", f"timed out after {timeout} s"


def png_is_blank(path):
    """True if a PNG has (almost) no variation: its decompressed, filtered scanlines use only
    a handful of byte values, as a single-colour picture does."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return True
    i, idat = 8, b""
    while i + 8 <= len(data):
        n, kind = struct.unpack(">I", data[i:i + 4])[0], data[i + 4:i + 8]
        if kind == b"IDAT":
            idat += data[i + 8:i + 8 + n]
        i += 12 + n
    return len(set(zlib.decompress(idat))) < 16


def console_errors(stderr):
    msgs = []
    for line in stderr.splitlines():
        m = CONSOLE.search(line)
        if m and CONSOLE_ERROR.search(m.group(1)):
            msgs.append(m.group(1).strip())
    return msgs


def target_file(site, base, page_url, ref):
    """The site file a reference resolves to, its fragment, and whether it is inside the site."""
    url = urllib.parse.urljoin(page_url, ref)
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not url.startswith(base):
        return None, parts.fragment, False
    rel = urllib.parse.unquote(parts.path[len(urllib.parse.urlsplit(base).path):])
    path = (site / rel).resolve()
    if path.is_dir():
        path = path / "index.html"
    return path, parts.fragment, True


NAV_PAGE = re.compile(r'^\s*-\s*(?:(?:"[^"]*"|[^:]+):\s*)?([^\s:"]+\.md)\s*$')


def nav_pages(mkdocs_yml):
    """The Markdown pages named in mkdocs.yml's nav: (a list of `- Title: page.md` lines,
    nested by indentation), in order. Standard library only, so no YAML parser: the nav is
    the block of lines after `nav:` that are indented or list items."""
    pages, inside = [], False
    for line in pathlib.Path(mkdocs_yml).read_text(encoding="utf-8").splitlines():
        if re.match(r"^nav:\s*$", line):
            inside = True
            continue
        if inside:
            if line.strip() == "" or line.lstrip().startswith("#"):
                continue
            if not line.startswith((" ", "-")):
                break
            m = NAV_PAGE.match(line)
            if m:
                pages.append(m.group(1))
    return pages


def nav_html(page):
    """The built file of a nav page with use_directory_urls: false (README.md and index.md
    become their directory's index.html)."""
    p = pathlib.PurePosixPath(page)
    if p.name in ("README.md", "index.md"):
        return (p.parent / "index.html").as_posix()
    return p.with_suffix(".html").as_posix()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site", type=pathlib.Path, help="the built site (docs/build_site.sh's output)")
    ap.add_argument("--screenshot", action="append", default=[], metavar="PAGE=FILE",
                    help="also render PAGE (e.g. index.html) into FILE (PNG, 1280x1600)")
    ap.add_argument("--chromium", default=None, help="the browser (default: chromium on PATH)")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="browsers at a time")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per page")
    ap.add_argument("--nav", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent / "mkdocs.yml",
                    help="mkdocs.yml whose nav pages must all be in the site and render (default: the repository's)")
    ap.add_argument("--min-nav-chars", type=int, default=200,
                    help="fewest characters of text (white space not counted) in a nav page's main content")
    a = ap.parse_args()

    site = a.site.resolve()
    if not (site / "index.html").is_file():
        print(f"check_site.py: {site} has no index.html (build it with docs/build_site.sh)", file=sys.stderr)
        return 2
    chromium = a.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check_site.py: chromium not found (apt-get install chromium)", file=sys.stderr)
        return 2
    shots = []
    for s in a.screenshot:
        page, sep, out = s.partition("=")
        if not sep or not (site / page).is_file():
            print(f"check_site.py: --screenshot {s}: expected PAGE=FILE with PAGE a file of the site", file=sys.stderr)
            return 2
        shots.append((page, pathlib.Path(out).resolve()))

    if not a.nav.is_file():
        print(f"check_site.py: --nav {a.nav}: no such file", file=sys.stderr)
        return 2
    nav = nav_pages(a.nav)
    if not nav:
        print(f"check_site.py: --nav {a.nav}: no pages found under nav:", file=sys.stderr)
        return 2

    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    failures = []
    start = time.monotonic()
    with Server(site) as server:
        def load(rel):
            rc, out, err = run_chromium(chromium, ["--dump-dom"], server.base + urllib.parse.quote(rel), a.timeout)
            return rel, rc, out, err

        def shoot(page, out):
            out.parent.mkdir(parents=True, exist_ok=True)
            rc, _, err = run_chromium(chromium, [f"--screenshot={out}", "--window-size=1280,1600",
                                                 "--hide-scrollbars"], server.base + page, a.timeout)
            return page, out, rc, err

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            loaded = list(pool.map(load, pages))
            shot_results = [pool.submit(shoot, p, o) for p, o in shots]
            shot_results = [f.result() for f in shot_results]

        doms = {}
        for rel, rc, out, err in loaded:
            if rc != 0:
                failures.append(f"{rel}: chromium {'exited ' + str(rc) if rc is not None else err}")
                continue
            if "<html" not in out.lower():
                failures.append(f"{rel}: chromium returned no DOM")
                continue
            for msg in console_errors(err):
                failures.append(f"{rel}: console: {msg}")
            p = Page()
            p.feed(out)
            doms[rel] = p
        for rel, p in doms.items():
            if not p.has_main():
                failures.append(f"{rel}: no main content element (role=\"main\", <main> or #main-content)")
            elif p.main_chars() == 0 and p.main_images == 0:
                failures.append(f"{rel}: the main content renders empty")
            for tag, text in p.blocks:
                for line in text.splitlines()[1:]:
                    if tag == "pre" and line.startswith("```"):
                        failures.append(f"{rel}: a code block holds a ``` line (a fence closed in the wrong "
                                        f"place): {line[:60]!r}")
                    elif tag == "p" and UNRENDERED_LIST.match(line):
                        failures.append(f"{rel}: a paragraph holds a list item the renderer did not see (a list "
                                        f"needs a blank line before it): {line[:60]!r}")
            page_url = server.base + urllib.parse.quote(rel)
            for kind, ref in p.resources:
                parts = urllib.parse.urlsplit(urllib.parse.urljoin(page_url, ref))
                if parts.scheme in ("http", "https") and not parts.geturl().startswith(server.base):
                    failures.append(f"{rel}: {kind} from another host: {ref}")
            for kind, ref in p.links:
                if ref == "" or ref == "#" or ref.startswith(("javascript:", "mailto:")):
                    continue
                path, frag, inside = target_file(site, server.base, page_url, ref)
                if not inside:
                    continue
                if not str(path).startswith(str(site)) or not path.is_file():
                    failures.append(f"{rel}: {kind} {ref} -> no such file in the site")
                    continue
                if frag:
                    target = path.relative_to(site).as_posix()
                    if target in doms and urllib.parse.unquote(frag) not in doms[target].ids:
                        failures.append(f"{rel}: {kind} {ref} -> no element #{frag} in {target}")
        for page in nav:
            rel = nav_html(page)
            if rel not in pages:
                failures.append(f"nav page {page}: the site has no {rel}")
            elif rel in doms and doms[rel].main_chars() < a.min_nav_chars:
                failures.append(f"nav page {page}: {rel} renders {doms[rel].main_chars()} characters of text "
                                f"(fewer than {a.min_nav_chars})")
        for page, out, rc, err in shot_results:
            if rc != 0 or not out.is_file() or out.stat().st_size == 0:
                failures.append(f"{page}: screenshot failed ({err.strip().splitlines()[-1:] if rc else 'no file'})")
            elif png_is_blank(out):
                failures.append(f"{page}: the screenshot {out} is blank")
            else:
                print(f"screenshot {page} -> {out}")
        failures += [f"server: {e}" for e in server.errors]

    secs = time.monotonic() - start
    for f in failures:
        print(f"FAIL {f}")
    n_links = sum(len(p.links) for p in doms.values())
    print(f"check_site: {len(pages)} pages ({len(nav)} in the nav), {n_links} links and images checked in {secs:.1f} s: "
          f"{'ok' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
