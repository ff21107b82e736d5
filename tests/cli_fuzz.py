#!/usr/bin/env python3
"""CLI fuzz test (issue 50): every option of every scfly subcommand gets hostile values.

    python3 tests/cli_fuzz.py build/scfly [--jobs 2] [--max-cases N] [-v]

The options come from the help texts (`scfly --help`, `scfly SUB --help`), parsed here, so
a new option is fuzzed without editing this file; the test fails if parsing finds fewer
options than FLOOR. Each option gets, one at a time on a small command that otherwise
succeeds (dfly-tiny, 10 + 10 cycles): a negative number, zero, the empty string, a huge
number, 1e309, 'abc', a path that does not exist, a directory, binary garbage bytes, a file
of binary garbage, and, when the help gives a range, a value just outside it. Flags are
given once. Every call runs in its own directory under a temporary directory (with HOME and
TMPDIR there) and must:
  - end within TIMEOUT seconds (no hang) and not be killed by a signal (no crash);
  - exit with a documented code (docs/reliability.md part 1: 0-6);
  - with exit 2, name the option on stderr;
  - refuse (exit 1 or 2) an empty value (not plot's options, argparse's), and for a numeric
    option (INT, UINT, FLOAT, CYCLE, N, SEED) every non-numeric, huge or infinite value and a
    value outside the range its help gives.
Nothing may be written outside the temporary directory: the source tree is compared before
and after. Options that need Slurm run with --dry-run (SKIPPED lists what is not run).
Standard library only. Exit 0 when every case holds, 1 otherwise.
"""
import argparse
import concurrent.futures
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "sc_main" / "configs" / "dfly-tiny.yaml"
DOCUMENTED_EXITS = {0, 1, 2, 3, 4, 5, 6}
FLOOR = 80          # options found in the help texts (97 when written); fewer = the parser broke
TIMEOUT = 20        # seconds per call
SEED = 50           # the sample, when --max-cases cuts the cross product
HUGE = "99999999999999999999999"
NUMERIC_TYPES = {"INT", "UINT", "FLOAT", "CYCLE", "N", "SEED"}   # CLI11 type names (plot's argparse gives none)
CYCLES = ["warmup_cycles=10", "measure_cycles=10"]

# Options not run, with the reason.
SKIPPED = {
    ("*", "--help"): "prints the help (docs_cli_current runs every --help)",
    ("*", "-h"): "prints the help",
}

# The command each subcommand's options are added to: positionals first, then options
# (an option under test replaces the base's option of the same name). Every base command
# exits 0 on its own (checked first). Paths are relative to the case's directory, where
# the inputs are copied.
BASE = {
    "run": (["cfg.yaml", *CYCLES], {}),
    "sweep": (["sw.yaml"], {"--db": "fz-run.sqlite", "--jobs": "1"}),
    "plot": (["fz.sqlite"], {"--x": "load", "--y": "accepted_load", "--output": "out.png"}),
    "export": (["fz.sqlite"], {"--output": "out.csv"}),
    "table": (["cfg.yaml"], {}),
    "ideal": (["cfg.yaml"], {}),
    "tvlb": (["cfg.yaml"], {"--quick": None, "--point": "min"}),
    "check-deadlock": (["cfg.yaml"], {}),
    "report-card": (["card.yaml"], {"--dry-run": None}),
    "keys": ([], {}),
}
# Other base commands for some options: each holds a good value of the option under test,
# which the hostile one replaces. A Slurm option needs --slurm and runs as a dry run;
# --slurm-task and --task a submission directory (made by the setup); --select and its --db
# run without a configuration; --step2 and --routing a routing that draws from a T-VLB set;
# --tau-global and --tau-local go with --paths and a T-UGAL routing. An override (key=value)
# is a positional.
SLURM_DRY = (["sw.yaml"], {"--slurm": None, "--dry-run": None, "--db": "fresh.sqlite"})
SUBMISSION = "sub/fresh.sqlite.slurm/sub-1"
TVLB_STEP2 = (["cfg.yaml"], {"--quick": None, "--point": "min", "--step2": "s2.yaml",
                                                "--routing": "ugal-l"})
TVLB_PATHS = (["cfg.yaml", "routing=t-ugal-l"], {"--paths": "paths.txt", "--tau-global": "1.25",
                                                  "--tau-local": "2"})
SPECIAL = {
    ("sweep", "--slurm"): SLURM_DRY,
    ("sweep", "--gather"): (["sw.yaml"], {"--db": "sub/fresh.sqlite"}),
    ("sweep", "--slurm-task"): (["sw.yaml"], {"--slurm-task": SUBMISSION, "--task": "0"}),
    ("sweep", "--task"): (["sw.yaml"], {"--slurm-task": SUBMISSION, "--task": "0"}),
    ("tvlb", "--select"): ([], {"--select": "s2.yaml", "--db": "fz.sqlite"}),
    ("tvlb", "--db"): ([], {"--select": "s2.yaml", "--db": "fz.sqlite"}),
    ("tvlb", "--step2"): TVLB_STEP2,
    ("tvlb", "--routing"): TVLB_STEP2,
    ("tvlb", "--tau-global"): TVLB_PATHS,
    ("tvlb", "--tau-local"): TVLB_PATHS,
}
# The exit of a base command when not 0 (documented, and not a refusal of its input):
# --select on a Step 2 sweep not run (s2.yaml, written by the setup) has no complete candidate.
BASE_EXIT = {("tvlb", "--select", "s2.yaml", "--db", "fz.sqlite"): 3}

# Options whose exit-2 message names them by their role rather than by the option's name
# (each message also quotes the value): accepted as naming the option.
ROLE = {
    ("run", "--rtl"): "'rtl",             # --rtl A,B is the override rtl=[A,B]: "config key 'rtl'"
    ("run", "--rtl-switches"): "'rtl_switches",  # the override rtl_switches=[...]: "config key 'rtl_switches'"
    ("sweep", "--db"): "results database",
    ("export", "--table"): "has no table",
    ("tvlb", "--select"): "sweep file",
}

# Cases that found a defect, now fixed: always run, whatever the sample.
PINNED = {
    ("run", "--trace-from", "empty"),        # read as "not given"
    ("run", "--json", "empty"),              # read as "not given": no JSON written
    ("sweep", "--slurm-task", "empty"),      # read as "not given": the whole sweep ran
    ("table", "--switch", "empty"),          # read as the default, switch 0
    ("check-deadlock", "--max-states", "empty"),
    ("tvlb", "--set-seed", "negative"),      # wrapped to 2^64 - 1
    ("tvlb", "--set-seed", "huge"),          # saturated
    ("sweep", "--slurm-task", "missing path"),   # the message named no option
    ("plot", "--y", "empty"),                # "unexpected ValueError"
    ("plot", "--ymax", "1e309"),             # "unexpected ValueError"
    ("plot", "--where", "garbage bytes"),    # "unexpected UnicodeEncodeError"
}

# Known defects (case: reason), reported and not failed; a known case that now holds
# fails the test, so that this list stays current.
KNOWN = {}


class Option:
    def __init__(self, sub, name, short, metavar, needs, cli11=True):
        self.sub, self.name, self.short, self.metavar, self.needs = sub, name, short, metavar, needs
        self.cli11 = cli11
        self.flag = metavar is None
        self.type = None
        self.range = None
        if metavar:
            m = re.match(r"([A-Z_.]+)", metavar)
            self.type = m.group(1) if m else metavar
            r = re.search(r"in \[(-?[\d.]+) - (-?[\d.]+)\]", metavar)
            if r:
                self.range = (r.group(1), r.group(2))

    @property
    def numeric(self):
        return self.cli11 and self.type in NUMERIC_TYPES

    def __repr__(self):
        return f"{self.sub} {self.name}"


def help_text(scfly, args):
    env = dict(os.environ, COLUMNS="100", LC_ALL="C.UTF-8")
    r = subprocess.run([scfly, *args, "--help"], capture_output=True, text=True, env=env, timeout=60)
    if r.returncode != 0:
        sys.exit(f"cli_fuzz.py: `scfly {' '.join(args)} --help` exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


# The subcommands as `scfly --help` lists them: docs/gen_cli.py's reader (it writes docs/cli.md).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "docs"))
from gen_cli import parse_subcommands  # noqa: E402


def parse_options(sub, text):
    """The options of one help text: CLI11's (`Options:`) or argparse's (`options:`)."""
    opts, inside = [], False
    argparse_style = text.lstrip().startswith("usage:")
    for line in text.splitlines():
        if line.rstrip() in ("Options:", "options:"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            inside = False          # the next section
        if not inside or not re.match(r"  -", line):
            continue
        head = re.split(r"\s{2,}", line.strip())[0]
        if argparse_style:
            # "-o FILE, --output FILE", "--ideal [BOUNDS.json]", "--cycles"
            short, name, metavar = None, None, None
            for part in head.split(", "):
                words = part.split(" ", 1)
                if words[0].startswith("--"):
                    name = words[0]
                    metavar = words[1] if len(words) > 1 else None
                else:
                    short = words[0]
            needs = []
        else:
            # "-j,--jobs INT:INT in [1 - 1024]", "--task INT Needs: --slurm-task", "--slurm Excludes: ..."
            names, _, rest = head.partition(" ")
            short = None
            name = names
            if "," in names:
                short, name = names.split(",", 1)
            needs = re.findall(r"--[\w-]+", rest.partition("Needs:")[2].partition("Excludes:")[0])
            rest = re.split(r"\s*(?:Needs|Excludes):", rest)[0].strip()
            metavar = rest or None
        if name:
            opts.append(Option(sub, name, short, metavar, needs, cli11=not argparse_style))
    return opts


def hostile_values(opt):
    """(kind, value) pairs; a value may be bytes, or a callable of the case directory."""
    vals = [
        ("negative", "-1"),
        ("zero", "0"),
        ("empty", ""),
        ("huge", HUGE),
        ("1e309", "1e309"),
        ("non-numeric", "abc"),
        ("missing path", "/nonexistent-dir/x"),
        ("directory", lambda d: str(d / "adir")),
        ("garbage bytes", b"\xff\xfe\x80\xc3(garbage\x01\x7f\x1b[2J"),
        ("garbage file", lambda d: str(d / "garbage.bin")),
    ]
    if opt.range:
        lo, hi = opt.range
        step = "1" if re.fullmatch(r"-?\d+", hi) else "0.0001"
        if step == "1":
            vals += [("above range", str(int(hi) + 1)), ("below range", str(int(lo) - 1))]
        else:
            vals += [("above range", repr(float(hi) + float(step))), ("below range", repr(float(lo) - float(step)))]
    return vals


def must_refuse(opt, kind):
    """Values an option must refuse (exit 1 or 2): the empty value of any of scfly's own
    (CLI11) options, and for a numeric one every value that is no number in its range."""
    if kind == "empty" and opt.cli11:
        return True
    if not opt.numeric:
        return False
    if kind == "huge" and opt.type == "FLOAT":
        return False                # 1e23 is a float
    return kind in ("empty", "huge", "1e309", "non-numeric", "missing path", "directory", "garbage bytes",
                    "garbage file", "above range", "below range") or (kind == "negative" and opt.type in ("UINT", "CYCLE", "N"))


def base_of(opt):
    """(positionals, options) of the base command opt is tried on."""
    if (opt.sub, opt.name) in SPECIAL:
        return SPECIAL[(opt.sub, opt.name)]
    if opt.needs and "--slurm" in opt.needs:
        return SLURM_DRY
    return BASE[opt.sub]


def argv_of(sub, pos, opts):
    argv = [sub, *pos]
    for k, v in opts.items():
        argv += [k] if v is None else [k, v]
    return argv


def command(opt, value):
    """argv (after scfly) for option opt with value (None for a flag)."""
    pos, base = base_of(opt)
    base = {k: v for k, v in base.items() if k not in (opt.name, opt.short)}
    base[opt.name] = value
    return argv_of(opt.sub, pos, base)


def prepare_inputs(scfly, indir):
    indir.mkdir()
    cfg = indir / "cfg.yaml"
    shutil.copy(CONFIG, cfg)
    (indir / "sw.yaml").write_text(
        "name: fz\nbase: cfg.yaml\nset: {warmup_cycles: 10, measure_cycles: 10}\naxes:\n  load: [0.1, 0.2]\n")
    (indir / "card.yaml").write_text(
        "name: fzcard\nbase: cfg.yaml\nset: {warmup_cycles: 10, measure_cycles: 10}\n"
        "columns:\n  MIN: {routing: min}\nsearch: {low: 0.1, high: 0.3, resolution: 0.1}\n"
        "rows:\n  - {name: UR, label: UR, kind: saturation, set: {traffic: un}}\n")
    env = dict(os.environ, HOME=str(indir))
    for argv in (["sweep", "sw.yaml", "--db", "fz.sqlite", "--jobs", "1"],
                 ["sweep", "sw.yaml", "--db", "fresh.sqlite", "--slurm", "--dry-run"],
                 ["tvlb", "cfg.yaml", "--quick", "--point", "min", "--routing", "ugal-l", "--step2", "s2.yaml"]):
        r = subprocess.run([scfly, *argv], cwd=indir, capture_output=True, env=env, timeout=60)
        if r.returncode != 0:
            sys.exit(f"cli_fuzz.py: setup `scfly {' '.join(argv)}` exited {r.returncode}: {r.stderr.decode()}")
    # The Slurm submission for --task, moved where the cases find it.
    (indir / "sub").mkdir()
    shutil.move(str(indir / "fresh.sqlite.slurm"), str(indir / "sub" / "fresh.sqlite.slurm"))
    (indir / "fresh.sqlite").unlink()


def run_case(scfly, indir, workdir, mpl, idx, opt, kind, value):
    d = workdir / f"case-{idx}"
    shutil.copytree(indir, d, symlinks=True)
    (d / "adir").mkdir()
    (d / "tmp").mkdir()
    (d / "garbage.bin").write_bytes(bytes(random.Random(idx).randrange(256) for _ in range(512)))
    if callable(value):
        value = value(d)
    argv = command(opt, value)
    env = dict(os.environ, HOME=str(d), TMPDIR=str(d / "tmp"), MPLCONFIGDIR=str(mpl), COLUMNS="100",
               LC_ALL="C.UTF-8")
    try:
        r = subprocess.run([scfly, *argv], cwd=d, capture_output=True, env=env, timeout=TIMEOUT)
        rc, err = r.returncode, r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = None, ""
    shutil.rmtree(d, ignore_errors=True)
    return opt, kind, argv, rc, err


def check(opt, kind, rc, err):
    """The failures of one case (an empty list when it holds)."""
    if rc is None:
        return [f"did not end within {TIMEOUT} s (hang)"]
    if rc < 0:
        return [f"killed by signal {-rc} (crash)"]
    bad = []
    if rc not in DOCUMENTED_EXITS:
        bad.append(f"exit {rc} is not a documented exit code (docs/reliability.md part 1)")
    names = [opt.name] + ([opt.short] if opt.short else [])
    if (opt.sub, opt.name) in ROLE:
        names.append(ROLE[(opt.sub, opt.name)])
    if rc == 2 and not any(n in err for n in names):
        bad.append(f"exit 2 but stderr does not name {opt.name}")
    if kind is not None and must_refuse(opt, kind) and rc not in (1, 2):
        bad.append(f"exit {rc}: a {opt.type} option must refuse a {kind} value (exit 1 or 2)")
    return bad


def tree_state(root):
    """Names and mtimes of the source tree's files, build directories and .git left out."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [n for n in dirnames if n != ".git" and not n.startswith("build")]
        for f in filenames:
            p = os.path.join(dirpath, f)
            try:
                state[p] = os.stat(p).st_mtime_ns
            except OSError:
                pass
    return state


def show(v):
    return v.decode("latin-1").encode("unicode_escape").decode() if isinstance(v, bytes) else v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scfly", help="the scfly binary (e.g. build/scfly)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="calls run in parallel (default 2)")
    ap.add_argument("--max-cases", type=int, default=0,
                    help="run a sample of this many cases (fixed seed; every option keeps >= 3); 0 = all")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    a = ap.parse_args()
    scfly = str(pathlib.Path(a.scfly).resolve())

    subs = parse_subcommands(help_text(scfly, []))
    if set(subs) - set(BASE):
        sys.exit(f"cli_fuzz.py: subcommand(s) {sorted(set(subs) - set(BASE))} have no base command in BASE")
    options = []
    for sub in subs:
        options += parse_options(sub, help_text(scfly, [sub]))
    print(f"cli_fuzz: {len(subs)} subcommands, {len(options)} options parsed from the help texts (floor {FLOOR})")
    if len(options) < FLOOR:
        sys.exit(f"cli_fuzz.py: FAIL: only {len(options)} options parsed, fewer than the floor {FLOOR}; "
                 "did the help format change?")

    cases, skipped = [], []
    for opt in options:
        reason = SKIPPED.get(("*", opt.name)) or SKIPPED.get((opt.sub, opt.name))
        if reason:
            skipped.append((opt, reason))
        elif opt.flag:
            cases.append((opt, None, None))
        else:
            cases += [(opt, k, v) for k, v in hostile_values(opt)]
    missing = PINNED - {(c[0].sub, c[0].name, c[1]) for c in cases}
    if missing:
        sys.exit(f"cli_fuzz.py: FAIL: pinned case(s) {sorted(missing)} no longer exist; update PINNED")
    if a.max_cases and len(cases) > a.max_cases:
        rng = random.Random(SEED)
        by_opt = {}
        for c in cases:
            by_opt.setdefault(c[0], []).append(c)
        keep = [c for c in cases if (c[0].sub, c[0].name, c[1]) in PINNED]
        for cs in by_opt.values():
            free = [c for c in cs if c not in keep]
            keep += rng.sample(free, min(3, len(free)))
        rest = [c for c in cases if c not in keep]
        keep += rng.sample(rest, max(0, a.max_cases - len(keep)))
        cases = [c for c in cases if c in keep]
    for opt, reason in skipped:
        print(f"  skipped: {opt}: {reason}")

    before = tree_state(ROOT)
    failures, counts, known_seen = [], {}, []
    with tempfile.TemporaryDirectory(prefix="scfly-cli-fuzz-") as tmp:
        tmp = pathlib.Path(tmp)
        indir = tmp / "in"
        prepare_inputs(scfly, indir)
        in_before = tree_state(indir)
        mpl = tmp / "mplconfig"     # matplotlib's font cache, built once (by plot's base command)
        mpl.mkdir()
        # Each base command alone must succeed, so that a refusal is the hostile value's.
        base_checked = set()
        for opt, _, _ in cases:
            key = tuple(argv_of(opt.sub, *base_of(opt)))
            if key in base_checked:
                continue
            base_checked.add(key)
            d = tmp / "base"
            shutil.copytree(indir, d)
            r = subprocess.run([scfly, *key], cwd=d, capture_output=True, timeout=120,
                               env=dict(os.environ, HOME=str(d), MPLCONFIGDIR=str(mpl)))
            shutil.rmtree(d)
            if r.returncode != BASE_EXIT.get(key, 0):
                failures.append(f"base command `scfly {' '.join(key)}` exited {r.returncode}: "
                                f"{r.stderr.decode('utf-8', 'replace').strip()[:300]}")
        work = tmp / "cases"
        work.mkdir()
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = [ex.submit(run_case, scfly, indir, work, mpl, i, opt, kind, value)
                    for i, (opt, kind, value) in enumerate(cases)]
            for f in futs:
                opt, kind, argv, rc, err = f.result()
                counts[rc] = counts.get(rc, 0) + 1
                line = f"scfly {' '.join(show(x) for x in argv)}"
                bad = check(opt, kind, rc, err)
                known = KNOWN.get((opt.sub, opt.name, kind))
                if known and bad:
                    known_seen.append(f"{line}\n      known: {known}; stderr: {err.strip()[:200]}")
                elif known:
                    failures.append(f"{line}\n      listed in KNOWN ({known}) but now holds: remove it from KNOWN")
                for b in bad if not known else []:
                    failures.append(f"{line}\n      {b}; stderr: {err.strip()[:300]}")
                if a.verbose:
                    print(f"  exit {rc}: {line}  [{err.strip().splitlines()[-1][:120] if err.strip() else ''}]")
        if tree_state(indir) != in_before:
            failures.append(f"the inputs in {indir} changed (a call wrote outside its own directory)")
    after = tree_state(ROOT)
    if after != before:
        changed = sorted(set(after.items()) ^ set(before.items()))
        failures.append(f"the source tree changed during the run: {[p for p, _ in changed][:10]}")

    print(f"cli_fuzz: {len(cases)} cases run; exit codes: "
          + ", ".join(f"{'timeout' if k is None else k}: {v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0]))))
    for k in known_seen:
        print("  " + k)
    if failures:
        print(f"cli_fuzz: FAIL: {len(failures)} case(s):")
        for f in failures:
            print("  " + f)
        return 1
    print("cli_fuzz: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
