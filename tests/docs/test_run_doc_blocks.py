#!/usr/bin/env python3
"""Tests of run_doc_blocks.py on small documents and a stand-in scfly (a shell script):
drift fails with the page and line, markers it does not understand fail, scaled-down
blocks run their smaller version, and a block cannot write into the source tree.

    python3 tests/docs/test_run_doc_blocks.py
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_doc_blocks.py")

FAKE_SCFLY = """#!/bin/bash
case "$1" in
  hello) echo hi; echo "speed $RANDOM cycles/s";;
  lines) printf 'a\\nb\\nc\\n';;
  fail) echo "scfly: error: bad" >&2; exit 2;;
  cat) cat "$2";;
  write) echo changed > "$2";;
  *) echo "args: $*";;
esac
"""

F = "```"


class DocBlocks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "src")
        os.makedirs(os.path.join(self.src, "docs"))
        os.makedirs(os.path.join(self.src, "conf"))
        with open(os.path.join(self.src, "conf", "a.yaml"), "w") as f:
            f.write("load: 0.9\n")
        self.scfly = os.path.join(self.tmp.name, "scfly")
        with open(self.scfly, "w") as f:
            f.write(FAKE_SCFLY)
        os.chmod(self.scfly, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def run_doc(self, text, *args):
        with open(os.path.join(self.src, "README.md"), "w") as f:
            f.write(textwrap.dedent(text).replace("FENCE", F))
        r = subprocess.run([sys.executable, RUNNER, "--scfly", self.scfly, "--source", self.src, *args],
                           capture_output=True, text=True, timeout=60)
        return r.returncode, r.stdout + r.stderr

    def assertPasses(self, text, *args):
        rc, out = self.run_doc(text, *args)
        self.assertEqual(rc, 0, out)
        return out

    def assertFails(self, text, *needles):
        rc, out = self.run_doc(text)
        self.assertEqual(rc, 1, out)
        for n in needles:
            self.assertIn(n, out)
        return out

    def test_output_shown_is_compared(self):
        doc = """\
            # T
            FENCEsh
            ./build/scfly lines
            FENCE
            It prints:
            FENCEtext
            a
            b
            c
            FENCE
            """
        self.assertPasses(doc)
        self.assertFails(doc.replace("b\n", "B\n"), "FAIL README.md:2", "output shown at README.md:6",
                         "-B", "+b")

    def test_ellipsis_subset_unordered_and_vary(self):
        self.assertPasses("FENCEsh\nscfly lines\nFENCE\nFENCEtext\na\n...\nFENCE\n")
        self.assertPasses("FENCEsh\nscfly lines\nFENCE\n<!-- doc-test: compare: subset -->\n"
                          "FENCEtext\na\nc\nFENCE\n")
        self.assertFails("FENCEsh\nscfly lines\nFENCE\n<!-- doc-test: compare: subset -->\n"
                         "FENCEtext\nc\na\nFENCE\n", "not printed in this order", "  a")
        self.assertPasses("FENCEsh\nscfly lines\nFENCE\n<!-- doc-test: compare: unordered -->\n"
                          "FENCEtext\nc\na\nb\nFENCE\n")
        self.assertFails("FENCEsh\nscfly hello\nFENCE\nFENCEtext\nhi\nspeed 123 cycles/s\nFENCE\n",
                         "+speed")
        self.assertPasses("FENCEsh\nscfly hello\nFENCE\n<!-- doc-test: vary: speed \\d+ -->\n"
                          "FENCEtext\nhi\nspeed 123 cycles/s\nFENCE\n")

    def test_console_block(self):
        doc = "FENCEconsole\n$ ./build/scfly hello x\nargs: hello x\n$ scfly lines\na\nb\nc\nFENCE\n"
        self.assertFails(doc, "README.md:1", "line 2: $ ./build/scfly hello x")
        self.assertPasses(doc.replace("hello x", "greet x"))

    def test_failing_command_names_its_line(self):
        self.assertFails("intro\n\nFENCEsh\nscfly lines\nscfly fail\nscfly lines\nFENCE\n",
                         "FAIL README.md:3", "line 5: exit 2, expected 0", "$ scfly fail",
                         "scfly: error: bad")
        self.assertPasses("FENCEsh\nscfly lines\nscfly fail      # exit 2: refused\nFENCE\n")

    def test_scaled_down_blocks(self):
        self.assertPasses("<!-- doc-test:\nnote: smaller\nargs: warmup=1\n-->\nFENCEsh\nscfly run x\nFENCE\n"
                          "<!-- doc-test: expect: ^args: run x warmup=1$ -->\nFENCEtext\nargs: run x\nFENCE\n")
        self.assertFails("<!-- doc-test: args: warmup=1 -->\nFENCEsh\nscfly run x\nFENCE\n"
                         "FENCEtext\nargs: run x\nFENCE\n", "give this output block expect:")
        self.assertPasses("<!-- doc-test: sub: ID => 7 -->\nFENCEsh\nscfly plot --point ID\nFENCE\n"
                          "<!-- doc-test: expect: point 7 -->\nFENCEtext\n...\nFENCE\n")
        self.assertFails("<!-- doc-test: sub: NOPE => 7 -->\nFENCEsh\nscfly x\nFENCE\n",
                         "sub: 'NOPE' does not occur in the block")
        self.assertPasses("<!-- doc-test: run: scfly lines -->\nFENCEsh\nscfly x\nFENCE\n"
                          "<!-- doc-test: expect: ^c$ -->\nFENCEtext\nargs: x\nFENCE\n")

    def test_edit_changes_the_copy_only(self):
        self.assertPasses("<!-- doc-test:\nedit: conf/a.yaml: load: 0.9 => load: 0.1\nexpect: ^load: 0.1$\n-->\n"
                          "FENCEsh\nscfly cat conf/a.yaml\nFENCE\n")
        with open(os.path.join(self.src, "conf", "a.yaml")) as f:
            self.assertEqual(f.read(), "load: 0.9\n")
        self.assertFails("<!-- doc-test: edit: conf/a.yaml: load: 0.5 => load: 0.1 -->\n"
                         "FENCEsh\nscfly cat conf/a.yaml\nFENCE\n", "'load: 0.5' does not occur in conf/a.yaml")

    def test_write_into_the_source_fails(self):
        self.assertFails("FENCEsh\nscfly write conf/a.yaml\nFENCE\n", "files of the source tree changed",
                         "conf/a.yaml")

    def test_bad_markers_and_tags_fail(self):
        self.assertFails("<!-- doc-test: shrink: 2 -->\nFENCEsh\nscfly x\nFENCE\n",
                         "README.md:1: doc-test marker: unknown directive 'shrink: 2'")
        self.assertFails("<!-- doc-test: skip: slow -->\n\ntext\n\nFENCEsh\nscfly x\nFENCE\n",
                         "README.md:1: doc-test marker not directly before a code block")
        self.assertFails("FENCE\nscfly x\nFENCE\n", "README.md:1: code block without a language tag")
        self.assertFails("<!-- doc-test:\nskip: slow\nargs: x=1\n-->\nFENCEsh\nscfly x\nFENCE\n",
                         "'skip' goes alone")
        self.assertFails("<!-- doc-test: skip -->\nFENCEsh\nscfly x\nFENCE\n", "'skip' needs a value")
        self.assertFails("<!-- doc-test: vary: x -->\nFENCEyaml\na: 1\nFENCE\n", "cannot apply to a 'yaml'")
        self.assertFails("<!-- doc-test: compare: fuzzy -->\nFENCEconsole\n$ scfly x\nFENCE\n",
                         "'compare: fuzzy' is not exact, subset or unordered")

    def test_skip_needs_and_continues(self):
        out = self.assertPasses("<!-- doc-test: skip: opens a window -->\nFENCEsh\nscfly fail\nFENCE\n"
                                "<!-- doc-test: needs: rtl -->\nFENCEsh\nscfly fail\nFENCE\n", "--no-rtl")
        self.assertIn("skip README.md:2: opens a window", out)
        self.assertIn("needs an RTL build", out)
        self.assertFails("<!-- doc-test: needs: rtl -->\nFENCEsh\nscfly fail\nFENCE\n", "exit 2, expected 0")
        self.assertPasses("FENCEsh\nscfly lines > out.txt\nFENCE\n<!-- doc-test: continues -->\n"
                          "FENCEsh\nscfly cat out.txt\nFENCE\nFENCEtext\na\nb\nc\nFENCE\n")
        self.assertFails("FENCEsh\nscfly lines > out.txt\nFENCE\nFENCEsh\nscfly cat out.txt\nFENCE\n",
                         "README.md:4", "out.txt")

    def test_output_of(self):
        self.assertPasses("<!-- doc-test: output-of: scfly lines -->\nFENCEbash\na\nb\nc\nFENCE\n")
        self.assertFails("<!-- doc-test: output-of: scfly lines -->\nFENCEbash\na\nc\nFENCE\n", "README.md:2", "+b")

    def test_file_block_is_the_file(self):
        self.assertPasses("<!-- doc-test: file: conf/a.yaml -->\nFENCEyaml\nload: 0.9\nFENCE\n")
        self.assertFails("<!-- doc-test: file: conf/a.yaml -->\nFENCEyaml\nload: 0.5\nFENCE\n",
                         "README.md:2: the block is not the text of conf/a.yaml", "-load: 0.5", "+load: 0.9")


if __name__ == "__main__":
    unittest.main()
