#!/usr/bin/env python3
"""Runs the command blocks of README.md and docs/**/*.md and checks the output they show.

    python3 tests/docs/run_doc_blocks.py --scfly build/scfly            # every block
    python3 tests/docs/run_doc_blocks.py --scfly build/scfly --list     # the plan, nothing run
    python3 tests/docs/run_doc_blocks.py --scfly build/scfly --only docs/sweeps.md:216

The convention (docs/reliability.md, "The documentation's commands as tests", for writers):

- Every fenced block has a language tag. `sh`, `bash` and `console` blocks are commands and
  run; any other tag (`text`, `yaml`, `cpp`, `cmake`, ...) does not. An untagged block fails.
- An `sh`/`bash` block is a script: each logical line (with its `\\` continuations) is one
  command, run in order until one fails. A command whose comment begins `# exit N` must
  exit N; every other command must exit 0.
- A `console` block holds `$ COMMAND` lines, each followed by the output it shows.
- A `text` block whose nearest preceding block in the same section is a command block is
  that block's output, and is compared with what the commands printed (stdout and stderr
  together): exactly, line by line, where a line `...` stands for any lines.
- An HTML comment `<!-- doc-test: ... -->` as the nearest non-blank text before a block
  sets what happens to it (invisible on the site). Its directives, one a line (the first
  may follow `doc-test:` on the comment's first line):

    note: TEXT            a remark for the reader of the marker (why the block is scaled down)
    skip: REASON          not run (or, on an output block: not compared); reason required
    needs: rtl            skipped when scfly was built without RTL (--no-rtl)
    needs: PROGRAM        skipped when PROGRAM is neither on PATH nor given by --tool
    args: TEXT            append TEXT to every command of the block (a smaller version)
    sub: OLD => NEW       replace OLD by NEW in the block's text before running it
    edit: PATH: OLD => NEW  replace OLD by NEW in the block's copy of the repository file PATH
    run: COMMAND          run COMMAND instead of the block (repeatable: one command each)
    cwd: DIR              run from the repository directory DIR (default: the top)
    fresh-cache           give the block its own, empty deadlock-verdict cache
    continues             run in the directory the page's previous command block ran in
                          (its files kept: a plot of the sweep before it), not a fresh one
    timeout: SECONDS      per command (default 300)
    expect: REGEX         the output must contain a match (re.MULTILINE; repeatable)
    compare: MODE         exact (default), subset (the shown lines in this order, others
                          between them allowed) or unordered (each shown line somewhere)
    vary: REGEX           matches are masked in both the shown and the actual output
                          before comparing (timings, paths; repeatable)
    output-of: COMMAND    this block is not a command: it is the output of COMMAND, which
                          runs (as a one-command block) and is compared with it
    file: PATH            this (yaml, text, ...) block shows the repository file PATH: its
                          text must be the file's, exactly

  OLD, NEW and PATH are literal text (`\\n` in OLD or NEW is a line break); every OLD must
  occur (a page that drifted from a file fails). A block changed by args/sub/edit/run no
  longer shows its own output, so a following output block must then say what to check
  with `expect:` (or `skip:`). A marker the runner does not understand, a marker attached
  to no block, an untagged block and a command block that fails as written all fail.

Each block (unless it `continues`) runs in a fresh temporary directory that mirrors the
source tree (directories made, files symlinked; `edit:` replaces a link by an edited
copy), from its top, with `build/scfly` and `scfly` on PATH both the binary under test,
HOME and TMPDIR inside it, SCFLY_* variables cleared and SCFLY_PROGRESS=off. The
deadlock-verdict cache (SCFLY_CACHE_DIR) is shared by the blocks of one run, as a user's
~/.cache is, unless the block says `fresh-cache`. A block that changes a file of the
source tree through a link fails.

Standard library only. Exit 0: every block passed or was skipped; 1: a block failed;
2: bad usage.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

RUN_TAGS = {"sh", "bash", "console"}
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)[^`]*$")
MARK_OPEN = "<!-- doc-test:"
DIRECTIVES = {"note", "skip", "needs", "args", "sub", "edit", "run", "cwd", "fresh-cache", "continues",
              "timeout", "expect", "compare", "vary", "output-of", "file"}
REPEATABLE = {"note", "needs", "args", "sub", "edit", "run", "expect", "vary"}
FLAGS = {"fresh-cache", "continues"}
RUN_ONLY = {"needs", "args", "sub", "edit", "run", "cwd", "fresh-cache", "continues", "timeout"}
COMPARE_ONLY = {"compare", "vary"}
SKIP_DIRS = {".git", "__pycache__", "site"}


class DocError(Exception):
    """A problem in a document or a marker (not a failed command)."""


class Block:
    def __init__(self, path, line, tag, lines, section):
        self.path, self.line, self.tag, self.lines, self.section = path, line, tag, lines, section
        self.marker = None        # {name: value or [values]}
        self.marker_line = None
        self.output = None        # the output Block shown for this command block
        self.output_of = None     # the command Block whose output this is

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    def get(self, name, default=None):
        return (self.marker or {}).get(name, default)


# --------------------------------------------------------------------------------------
# Parsing


def parse_marker(text, where):
    """`<!-- doc-test: ... -->` -> {directive: value}; list values for repeatable ones."""
    body = text.strip()
    assert body.startswith(MARK_OPEN) and body.endswith("-->")
    body = body[len(MARK_OPEN):-3]
    out = {}
    for raw in body.split("\n"):
        line = raw.strip()
        if not line:
            continue
        name, sep, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if name not in DIRECTIVES:
            raise DocError(f"{where}: doc-test marker: unknown directive '{line}' "
                           f"(known: {', '.join(sorted(DIRECTIVES))})")
        if name in FLAGS:
            if sep and value:
                raise DocError(f"{where}: doc-test marker: '{name}' takes no value")
            out[name] = True
            continue
        if not sep or not value:
            raise DocError(f"{where}: doc-test marker: '{name}' needs a value ('{name}: ...')")
        if name in REPEATABLE:
            out.setdefault(name, []).append(value)
        elif name in out:
            raise DocError(f"{where}: doc-test marker: '{name}' given twice")
        else:
            out[name] = value
    if not out:
        raise DocError(f"{where}: doc-test marker with no directive")
    for v in out.get("sub", []):
        if " => " not in v:
            raise DocError(f"{where}: doc-test marker: 'sub: {v}' is not 'OLD => NEW'")
    for v in out.get("edit", []):
        p, sep, rest = v.partition(": ")
        if not sep or " => " not in rest:
            raise DocError(f"{where}: doc-test marker: 'edit: {v}' is not 'PATH: OLD => NEW'")
    if "compare" in out and out["compare"] not in ("exact", "subset", "unordered"):
        raise DocError(f"{where}: doc-test marker: 'compare: {out['compare']}' is not exact, subset "
                       f"or unordered")
    if "timeout" in out:
        try:
            if float(out["timeout"]) <= 0:
                raise ValueError
        except ValueError:
            raise DocError(f"{where}: doc-test marker: 'timeout: {out['timeout']}' is not a positive "
                           f"number of seconds")
    for r in out.get("expect", []) + out.get("vary", []):
        try:
            re.compile(r)
        except re.error as e:
            raise DocError(f"{where}: doc-test marker: bad regular expression '{r}': {e}")
    if "skip" in out and set(out) != {"skip"}:
        raise DocError(f"{where}: doc-test marker: 'skip' goes alone (it runs nothing)")
    return out


def parse_doc(root, rel):
    """The fenced blocks of one Markdown file, with their markers and output blocks."""
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, markers_used, section, inside = [], set(), "", set()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].startswith("#"):
                section = lines[i]
            i += 1
            continue
        fence, tag, start = m.group(2), m.group(3).lower(), i
        j = i + 1
        close = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise DocError(f"{rel}:{start + 1}: unclosed code block")
        b = Block(rel, start + 1, tag, lines[start + 1:j], section)
        inside.update(range(start + 1, j + 2))
        # The marker: the nearest non-blank text before the fence, if it closes a comment.
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0 and lines[k].rstrip().endswith("-->"):
            e = k
            while k >= 0 and "<!--" not in lines[k]:
                k -= 1
            text = "\n".join(lines[k:e + 1])
            if k >= 0 and text.lstrip().startswith(MARK_OPEN):
                b.marker = parse_marker(text, f"{rel}:{k + 1}")
                b.marker_line = k + 1
                markers_used.add(k + 1)
        blocks.append(b)
        i = j + 1
    for n, line in enumerate(lines, 1):
        if MARK_OPEN in line and n not in markers_used and n not in inside:
            raise DocError(f"{rel}:{n}: doc-test marker not directly before a code block")
    # Output blocks.
    prev = None
    for b in blocks:
        if not b.tag:
            raise DocError(f"{rel}:{b.line}: code block without a language tag (sh, bash or console "
                           f"to run it; text, yaml, cpp, ... for anything else)")
        if b.get("output-of"):
            prev = None
            continue
        if (b.tag == "text" and prev is not None and prev.tag in ("sh", "bash")
                and prev.section == b.section and prev.output is None):
            prev.output, b.output_of = b, prev
        prev = b
    for b in blocks:
        m = b.marker or {}
        is_cmd = b.tag in RUN_TAGS and not m.get("output-of")
        is_out = b.output_of is not None or bool(m.get("output-of"))
        bad = set(m) - ({"skip", "note"} | (RUN_ONLY if is_cmd or m.get("output-of") else set())
                        | ({"expect"} if is_cmd or is_out else set())
                        | (COMPARE_ONLY if is_out or b.tag == "console" else set())
                        | ({"output-of"} if not is_cmd else set())
                        | ({"file"} if not is_cmd and not is_out else set()))
        if bad:
            what = ("command" if is_cmd else "output" if is_out else f"'{b.tag}' (neither a command "
                    f"nor an output)")
            raise DocError(f"{rel}:{b.marker_line}: doc-test marker: {', '.join(sorted(bad))} "
                           f"cannot apply to a {what} block")
    return blocks


def logical_commands(lines, first_line):
    """Shell lines -> [(doc line, command text, expected exit)]; `\\` continuations joined."""
    out, cur, cur_line = [], [], None
    for n, line in enumerate(lines):
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not cur:
            cur_line = first_line + n
        cur.append(line)
        if line.rstrip().endswith("\\"):
            continue
        text = "\n".join(cur)
        out.append((cur_line, text, expected_exit(text)))
        cur = []
    if cur:
        text = "\n".join(cur)
        out.append((cur_line, text, expected_exit(text)))
    return out


def expected_exit(cmd):
    """`# exit N` in a command's trailing comment (on its last line)."""
    m = re.search(r"\s#\s*exit\s+(\d+)\b", cmd.split("\n")[-1])
    return int(m.group(1)) if m else 0


def console_commands(lines, first_line):
    """`$ cmd` lines and the output after each -> [(doc line, command, exit, output lines)]."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if out:
                out[-1][3].append(line)
                i += 1
                continue
            raise DocError(f"line {first_line + i}: console block text before its first '$ ' command")
        n, cmd = first_line + i, [line[2:]]
        while cmd[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        text = "\n".join(cmd)
        out.append((n, text, expected_exit(text), []))
        i += 1
    return out


# --------------------------------------------------------------------------------------
# The tree a block runs in


class Sandbox:
    def __init__(self, source, base, name, bindir):
        self.source, self.dir = source, os.path.join(base, name)
        os.makedirs(self.dir)
        self.mirror(source, self.dir, top=True)
        os.makedirs(os.path.join(self.dir, "build"), exist_ok=True)
        os.symlink(os.path.join(bindir, "scfly"), os.path.join(self.dir, "build", "scfly"))
        self.home = os.path.join(self.dir, ".home")
        self.tmp = os.path.join(self.dir, ".tmp")
        os.makedirs(self.home)
        os.makedirs(self.tmp)

    def mirror(self, src, dst, top=False):
        for name in sorted(os.listdir(src)):
            s, d = os.path.join(src, name), os.path.join(dst, name)
            if name in SKIP_DIRS or (top and (name.startswith("build") or name.startswith("."))
                                     and name != ".ci"):
                continue
            if os.path.isdir(s) and not os.path.islink(s):
                os.makedirs(d)
                self.mirror(s, d)
            else:
                os.symlink(s, d)

    def edit(self, rel, old, new, where):
        path = os.path.join(self.dir, rel)
        if not os.path.islink(path) and not os.path.isfile(path):
            raise DocError(f"{where}: edit: '{rel}' is not a file of the repository")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if old not in text:
            raise DocError(f"{where}: edit: '{old}' does not occur in {rel}")
        text = text.replace(old, new)
        if os.path.islink(path):
            os.unlink(path)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def snapshot(root):
    """(path -> (size, mtime)) of the source tree's files, to catch writes through links."""
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel == ".":
            dirnames[:] = [d for d in dirnames if not d.startswith("build") and
                           (not d.startswith(".") or d == ".ci")]
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for f in filenames:
            p = os.path.join(dirpath, f)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            snap[p] = (st.st_size, st.st_mtime_ns)
    return snap


# --------------------------------------------------------------------------------------
# Output comparison

ELLIPSIS = "..."


def mask(lines, varies):
    out = []
    for line in lines:
        for r in varies:
            line = re.sub(r, "<VARIES>", line)
        out.append(line.rstrip())
    return out


def strip_blank_ends(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    while lines and not lines[0].strip():
        lines = lines[1:]
    return lines


def match_exact(shown, actual):
    """`...` in shown matches any run of actual lines (possibly empty)."""
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(shown):
            r = j == len(actual)
        elif shown[i].strip() == ELLIPSIS:
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and shown[i] == actual[j] and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (len(shown) + len(actual))))
    return go(0, 0)


def compare(shown, actual, mode, varies):
    """None when the output matches, else a description of what differs."""
    s = strip_blank_ends(mask(shown, varies))
    a = strip_blank_ends(mask(actual, varies))
    if mode == "exact":
        if match_exact(s, a):
            return None
        return "output differs (- shown in the doc, + printed; '...' stands for any lines):\n" + "\n".join(
            difflib.unified_diff(s, a, "doc", "actual", lineterm="", n=2))
    wanted = [x for x in s if x.strip() and x.strip() != ELLIPSIS]
    if mode == "subset":
        j, missing = 0, []
        for x in wanted:
            k = next((k for k in range(j, len(a)) if a[k] == x), None)
            if k is None:
                missing.append(x)
            else:
                j = k + 1
        if not missing:
            return None
        return ("lines shown in the doc not printed in this order:\n  " + "\n  ".join(missing) +
                "\nprinted:\n  " + "\n  ".join(a))
    pool = list(a)
    missing = []
    for x in wanted:
        if x in pool:
            pool.remove(x)
        else:
            missing.append(x)
    if not missing:
        return None
    return ("lines shown in the doc not printed:\n  " + "\n  ".join(missing) +
            "\nprinted:\n  " + "\n  ".join(a))


# --------------------------------------------------------------------------------------
# Running


class Runner:
    def __init__(self, a):
        self.a = a
        self.source = os.path.realpath(a.source)
        self.scfly = os.path.realpath(a.scfly)
        self.tools = dict(a.tool)
        self.base = tempfile.mkdtemp(prefix="scfly-doc-blocks-")
        self.bindir = os.path.join(self.base, "bin")
        os.makedirs(self.bindir)
        os.symlink(self.scfly, os.path.join(self.bindir, "scfly"))
        for name, path in self.tools.items():
            os.symlink(os.path.realpath(path), os.path.join(self.bindir, name))
        self.cache = os.path.join(self.base, "cache")
        self.mpl = os.path.join(self.base, "matplotlib")
        os.makedirs(self.cache)
        os.makedirs(self.mpl)
        self.n = 0
        self.last = None          # (path, Sandbox or None when it did not pass) of the last block run
        self.failures, self.passed, self.skipped = [], 0, []

    def cleanup(self):
        if not self.a.keep:
            shutil.rmtree(self.base, ignore_errors=True)

    def env(self, box, cache):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCFLY_")}
        env.update({
            "PATH": self.bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": box.home, "TMPDIR": box.tmp, "SCFLY_CACHE_DIR": cache,
            "SCFLY_PROGRESS": "off", "MPLCONFIGDIR": self.mpl, "MPLBACKEND": "Agg",
            "LC_ALL": "C.UTF-8", "COLUMNS": "100",
        })
        return env

    def missing_need(self, b):
        for need in b.get("needs", []):
            if need == "rtl":
                if self.a.no_rtl:
                    return "needs an RTL build (scfly configured with -DSCFLY_RTL=OFF)"
            elif need not in self.tools and shutil.which(need) is None:
                return f"needs {need}, not installed here"
        return None

    def fail(self, b, msg):
        self.failures.append(f"FAIL {b.where}: {msg}")
        print(f"FAIL {b.where}", flush=True)
        print("  " + msg.replace("\n", "\n  "), flush=True)

    def run_command(self, box, b, doc_line, cmd, want_exit, cwd, env, timeout):
        t0 = time.monotonic()
        p = subprocess.Popen(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             errors="replace", start_new_session=True)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            return False, out, (f"line {doc_line}: timed out after {timeout:g} s (doc-test: timeout: "
                                f"raises it; scale the block down instead if it is long):\n  $ {cmd}\n"
                                + tail(out))
        secs = time.monotonic() - t0
        if self.a.verbose:
            print(f"  [{secs:5.1f} s] {cmd.splitlines()[0]}", flush=True)
        if p.returncode != want_exit:
            return False, out, (f"line {doc_line}: exit {p.returncode}, expected {want_exit}:\n"
                                f"  $ {cmd}\n" + tail(out))
        return True, out, None

    def prepare(self, b, text_lines):
        """Apply sub/args/run: -> (commands [(doc line, cmd, exit)], changed)."""
        m = b.marker or {}
        changed = False
        if m.get("run"):
            return [(b.line, c, expected_exit(c)) for c in m["run"]], True
        text = "\n".join(text_lines)
        for s in m.get("sub", []):
            old, new = unescape(s.partition(" => ")[0]), unescape(s.partition(" => ")[2])
            if old not in text:
                raise DocError(f"{b.where}: sub: '{old}' does not occur in the block")
            text = text.replace(old, new)
            changed = True
        cmds = logical_commands(text.split("\n"), b.line + 1)
        if m.get("args"):
            extra = " ".join(m["args"])
            cmds = [(n, re.sub(r"(\s+#[^\n]*)?$", lambda mm: " " + extra + (mm.group(1) or ""), c, count=1),
                     e) for n, c, e in cmds]
            changed = True
        if m.get("edit"):
            changed = True
        return cmds, changed

    def check_file(self, b):
        rel = b.get("file")
        path = os.path.join(self.source, rel)
        if not os.path.isfile(path):
            raise DocError(f"{b.where}: file: '{rel}' is not a file of the repository")
        with open(path, encoding="utf-8") as f:
            text = f.read().rstrip("\n").split("\n")
        if text == b.lines:
            self.passed += 1
            print(f"ok   {b.where} (the text of {rel})", flush=True)
            return
        self.fail(b, f"the block is not the text of {rel} (- in the doc, + the file):\n" + "\n".join(
            difflib.unified_diff(b.lines, text, "doc", rel, lineterm="", n=1)))

    def run_block(self, b):
        m = b.marker or {}
        if m.get("file"):
            return self.check_file(b)
        if m.get("skip"):
            self.skipped.append(f"{b.where}: {m['skip']}")
            print(f"skip {b.where}: {m['skip']}", flush=True)
            self.forget()
            return
        need = self.missing_need(b)
        if need:
            self.skipped.append(f"{b.where}: {need}")
            print(f"skip {b.where}: {need}", flush=True)
            self.forget()
            return
        t0 = time.monotonic()
        if m.get("continues"):
            if not self.last or self.last[0] != b.path:
                raise DocError(f"{b.where}: 'continues' but the page's previous command block did not "
                               f"run (skipped, or this is the page's first)")
            box = self.last[1]
            if box is None:
                raise DocError(f"{b.where}: continues a block that failed")
        else:
            self.forget()
            self.n += 1
            box = Sandbox(self.source, self.base, f"b{self.n:03d}", self.bindir)
        self.last = (b.path, None)
        cache = self.cache
        if m.get("fresh-cache"):
            cache = os.path.join(box.dir, ".cache-scfly")
            os.makedirs(cache, exist_ok=True)
        env = self.env(box, cache)
        cwd = os.path.join(box.dir, m.get("cwd", "."))
        if not os.path.isdir(cwd):
            raise DocError(f"{b.where}: cwd: '{m['cwd']}' is not a directory of the repository")
        timeout = float(m.get("timeout", self.a.timeout))
        for e in m.get("edit", []):
            rel, _, rest = e.partition(": ")
            old, new = unescape(rest.partition(" => ")[0]), unescape(rest.partition(" => ")[2])
            box.edit(rel, old, new, b.where)
        before = snapshot(self.source)
        ok, detail = self.execute(b, box, cwd, env, timeout)
        after = snapshot(self.source)
        changed = sorted(os.path.relpath(p, self.source) for p in set(before) | set(after)
                         if before.get(p) != after.get(p))
        if changed:
            ok, detail = False, ("files of the source tree changed while the block ran: "
                                 + ", ".join(changed[:10]) + " (a command wrote through the links of "
                                 "its directory: make it write into the directory, e.g. with sub:; "
                                 "or the tree was edited during the test)")
        secs = time.monotonic() - t0
        if ok:
            self.passed += 1
            print(f"ok   {b.where} ({secs:.1f} s)", flush=True)
            self.last = (b.path, box)
        else:
            self.fail(b, detail)
            self.last = (b.path, None)

    def forget(self):
        """The last block's directory is no longer needed (none continues it)."""
        if self.last and self.last[1] is not None and not self.a.keep:
            shutil.rmtree(self.last[1].dir, ignore_errors=True)
        self.last = None

    def execute(self, b, box, cwd, env, timeout):
        m = b.marker or {}
        if b.tag == "console" and not m.get("output-of"):
            if m.get("run") or m.get("sub") or m.get("args") or m.get("edit"):
                if not m.get("expect"):
                    raise DocError(f"{b.where}: a console block changed by args/sub/edit/run shows "
                                   f"another run's output: give expect: lines for the changed run")
            try:
                steps = console_commands(b.lines, b.line + 1)
            except DocError as e:
                raise DocError(f"{b.where}: {e}")
            every = []
            for n, cmd, want, shown in steps:
                cmds, changed = self.prepare(b, [cmd])
                outs = []
                for dl, c, w in cmds:
                    ok, out, err = self.run_command(box, b, n, c, max(w, want), cwd, env, timeout)
                    if not ok:
                        return False, err
                    outs.append(out)
                out = "".join(outs)
                every.append(out)
                if not changed:
                    d = compare(shown, out.split("\n"), m.get("compare", "exact"), m.get("vary", []))
                    if d:
                        return False, f"line {n}: $ {cmd}\n{d}"
            err = self.check_expect(m, "".join(every), b.line, "the block")
            return (False, err) if err else (True, None)
        if m.get("output-of"):
            cmd = m["output-of"]
            cmds, changed = [(b.line, cmd, expected_exit(cmd))], False
            shown_block = b
        else:
            cmds, changed = self.prepare(b, b.lines)
            shown_block = b.output
        if not cmds:
            raise DocError(f"{b.where}: command block with no command")
        outs = []
        for n, c, w in cmds:
            ok, out, err = self.run_command(box, b, n, c, w, cwd, env, timeout)
            if not ok:
                return False, err
            outs.append(out)
        out = "".join(outs)
        err = self.check_expect(m, out, b.line, "the block")
        if err:
            return False, err
        if shown_block is not None:
            sm = shown_block.marker or {}
            if sm.get("skip"):
                return True, None
            if changed and shown_block is not b:
                if not sm.get("expect"):
                    raise DocError(f"{shown_block.where}: the output shown is the full command's; the "
                                   f"block runs a changed version ({b.where}): give this output block "
                                   f"expect: lines (or skip: REASON)")
            else:
                d = compare(shown_block.lines, out.split("\n"), sm.get("compare", "exact"),
                            sm.get("vary", []))
                if d:
                    return False, f"output shown at {shown_block.where}:\n{d}"
            if shown_block is not b:
                err = self.check_expect(sm, out, shown_block.line, "the output block")
                if err:
                    return False, err
        return True, None

    @staticmethod
    def check_expect(m, out, line, what):
        for r in m.get("expect", []):
            if not re.search(r, out, re.MULTILINE):
                return f"line {line}: {what}: expected a match of /{r}/ in the output:\n" + tail(out)
        return None


def unescape(s):
    return s.replace("\\n", "\n")


def tail(out, n=40):
    lines = out.rstrip("\n").split("\n")
    if len(lines) > n:
        lines = [f"... ({len(lines) - n} lines before)"] + lines[-n:]
    return "  | " + "\n  | ".join(lines)


def docs(source):
    files = ["README.md"] + sorted(
        os.path.relpath(p, source) for p in glob.glob(os.path.join(source, "docs", "**", "*.md"),
                                                      recursive=True))
    return [f for f in files if os.path.isfile(os.path.join(source, f))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scfly", required=True, help="the scfly binary under test")
    ap.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                    help="the repository (default: this script's)")
    ap.add_argument("--no-rtl", action="store_true", help="scfly has no RTL blocks: skip `needs: rtl`")
    ap.add_argument("--tool", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                    metavar="NAME=PATH", help="a program the docs name (e.g. scfly-custom), put on PATH")
    ap.add_argument("--only", action="append", default=[], metavar="FILE[:LINE]",
                    help="run only these files or blocks (repeatable)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command (default 300)")
    ap.add_argument("--list", action="store_true", help="list the blocks and what would happen; run nothing")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directories")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each command's time")
    a = ap.parse_args()
    for t in a.tool:
        if len(t) != 2 or not t[0] or not os.path.isfile(t[1]):
            ap.error(f"--tool {'='.join(t)}: not NAME=PATH of an existing file")
    if not os.access(a.scfly, os.X_OK):
        ap.error(f"--scfly {a.scfly}: not an executable")
    source = os.path.realpath(a.source)
    blocks, errors = [], []
    for f in docs(source):
        try:
            blocks += parse_doc(source, f)
        except DocError as e:
            errors.append(f"FAIL {e}")
    if errors:
        print("\n".join(errors), flush=True)
        return 1
    def selected(b):
        return not a.only or any(b.path == o or b.where == o for o in a.only)
    todo = [b for b in blocks if selected(b) and
            (b.tag in RUN_TAGS or b.get("output-of") or b.get("file"))]
    if a.only and not todo:
        ap.error("--only matched no command block")
    if a.list:
        for b in todo:
            m = b.marker or {}
            what = ("skip: " + m["skip"]) if m.get("skip") else ", ".join(
                f"{k}" for k in m) or "run as written"
            out = f"; output at line {b.output.line}" if b.output else ""
            print(f"{b.where} [{b.tag}] {what}{out}")
        return 0
    r = Runner(a)
    t0 = time.monotonic()
    try:
        for b in todo:
            try:
                r.run_block(b)
            except DocError as e:
                r.fail(b, str(e))
    finally:
        r.cleanup()
    print(f"\n{r.passed} blocks passed, {len(r.skipped)} skipped, {len(r.failures)} failed "
          f"({time.monotonic() - t0:.0f} s)")
    if r.failures:
        print("\n".join(r.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
