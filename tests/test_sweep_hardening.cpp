// Sweeps on a shared database and the command line's progress lines (docs/reliability.md):
// a changed sweep file is a new revision and plots show the latest unless asked; two sweeps
// started at once on one database run each point once; a re-run of a sweep whose points
// failed exits 3 and names them; an interrupted sweep leaves no temporary directory; the
// progress lines have their format, only when asked (or on a terminal), and do not change a
// run's results; --version names the commit the binary was built from.
#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <regex>
#include <thread>

#include "sc_main/results_db.h"
#include "scfly_run.h"

namespace {

std::string write_sweep_file(const std::string& body) {
  const std::string p = tmp("sweep.yaml");
  std::ofstream(p) << "base: " << tiny_config() << "\n" << body;
  return p;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A CSV file as rows of fields (RFC 4180 quoting; the config_json column has commas).
std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows(1);
  const std::string text = slurp(path);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (ch == '"') quoted = false;
      else field += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (ch == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else if (ch != '\r') {
      field += ch;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// `scfly plot DB --csv` with `args`: the values of column `col` of the rows it selects.
std::vector<std::string> plot_column(const std::string& db, const std::string& args, const std::string& col,
                                     Cmd* out = nullptr) {
  const std::string csv = tmp("plot.csv");
  const Cmd c = scfly_cmd("plot " + db + " --csv " + csv + " " + args);
  if (out) *out = c;
  std::vector<std::string> vals;
  if (c.code != 0) return vals;
  const auto rows = read_csv(csv);
  std::remove(csv.c_str());
  size_t k = 0;
  while (k < rows.at(0).size() && rows[0][k] != col) ++k;
  EXPECT_LT(k, rows[0].size()) << col;
  for (size_t i = 1; i < rows.size(); ++i) vals.push_back(rows[i].at(k));
  return vals;
}

int64_t sqlite_count(const std::string& db, const std::string& table) {
  scfly::ResultsDb d(db);
  return d.count(table);
}

// Entries of directory `dir` whose name starts with `prefix`.
std::vector<std::string> entries(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::string(e->d_name).rfind(prefix, 0) == 0) out.push_back(e->d_name);
    closedir(d);
  }
  return out;
}

// stderr of `scfly ARGS` with the environment `env` (e.g. "SCFLY_PROGRESS=on").
Cmd with_env(const std::string& env, const std::string& args) {
  const std::string o = tmp("out"), e = tmp("err");
  const int st = std::system((env + " " + SCFLY_BIN + " " + args + " >" + o + " 2>" + e).c_str());
  Cmd c;
  c.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  c.out = slurp(o);
  c.err = slurp(e);
  std::remove(o.c_str());
  std::remove(e.c_str());
  return c;
}

std::string stem(const std::string& path) {
  std::string f = path.substr(path.rfind('/') + 1);
  return f.substr(0, f.rfind('.'));
}

const char* kTwoPoints = "name: rev\nset: {warmup_cycles: 500, measure_cycles: 1000}\naxes:\n  load: [0.1, 0.2]\n";

}  // namespace

// A sweep file edited in place (same name, other points) and re-run into the same database
// is its revision 2; the plot shows revision 2 only, --revision 1 the old points, --revision
// all both; an unchanged re-run adds no revision; a point shared by two revisions runs once.
TEST(SweepRevision, ChangedSweepIsANewRevisionAndPlotShowsTheLatest) {
  const std::string db = tmp("rev.sqlite");
  const std::string v1 = write_sweep_file(kTwoPoints);
  const std::string v2 = write_sweep_file(
      "name: rev\nset: {warmup_cycles: 500, measure_cycles: 1500}\naxes:\n  load: [0.1, 0.2]\n");
  const std::string v3 = write_sweep_file(
      "name: rev\nset: {warmup_cycles: 500, measure_cycles: 1500}\naxes:\n  load: [0.1, 0.2, 0.3]\n");
  ASSERT_EQ(scfly_cmd("sweep " + v1 + " --db " + db + " --jobs 2").code, 0);
  const Cmd again = scfly_cmd("sweep " + v1 + " --db " + db + " --jobs 2");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_FALSE(has(again.err, "revision")) << again.err;
  EXPECT_EQ(sqlite_count(db, "sweep_revisions"), 1);

  const Cmd b = scfly_cmd("sweep " + v2 + " --db " + db + " --jobs 2");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_TRUE(has(b.err, "sweep rev: the sweep differs from its revision 1 in " + db +
                             " (0 points kept, 2 new, 2 dropped); recording it as revision 2"))
      << b.err;
  EXPECT_EQ(sqlite_count(db, "sweep_revisions"), 2);
  EXPECT_EQ(sqlite_count(db, "points"), 4);

  EXPECT_EQ(plot_column(db, "", "measure_cycles"), (std::vector<std::string>{"1500", "1500"}));
  EXPECT_EQ(plot_column(db, "--revision 1", "measure_cycles"), (std::vector<std::string>{"1000", "1000"}));
  EXPECT_EQ(plot_column(db, "--sweep rev --revision 2", "measure_cycles"),
            (std::vector<std::string>{"1500", "1500"}));
  EXPECT_EQ(plot_column(db, "--revision all", "measure_cycles").size(), 4u);
  // scfly export selects the same way.
  const std::string csv = tmp("export.csv");
  const Cmd e = scfly_cmd("export " + db + " -o " + csv);
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_TRUE(has(e.out, "wrote 2 rows of table points")) << e.out;
  EXPECT_TRUE(has(scfly_cmd("export " + db + " -o " + csv + " --revision all").out, "wrote 4 rows")) ;
  EXPECT_TRUE(has(scfly_cmd("export " + db + " -o " + csv + " --sweep rev --revision 1").out, "wrote 2 rows"));
  const Cmd e9 = scfly_cmd("export " + db + " -o " + csv + " --revision 9");
  EXPECT_EQ(e9.code, 2);
  EXPECT_TRUE(has(e9.err, "--revision 9: sweep 'rev' has revisions 1, 2")) << e9.err;
  std::remove(csv.c_str());

  // Extending the load axis: revision 3 keeps the two points (not run again), adds one.
  const Cmd c = scfly_cmd("sweep " + v3 + " --db " + db + " --jobs 2");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_TRUE(has(c.err, "(2 points kept, 1 new, 0 dropped); recording it as revision 3")) << c.err;
  EXPECT_TRUE(has(c.err, "1 run (0 failed), 2 already in the database")) << c.err;
  EXPECT_EQ(plot_column(db, "", "load").size(), 3u);

  Cmd bad;
  plot_column(db, "--revision 4", "load", &bad);
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(has(bad.err, "--revision 4: sweep 'rev' has revisions 1, 2, 3")) << bad.err;
  plot_column(db, "--revision x", "load", &bad);
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(has(bad.err, "--revision 'x' is not allowed; expected a revision number (1, 2, ...) or all")) << bad.err;
  plot_column(db, "--sweep nope", "load", &bad);
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(has(bad.err, "--sweep 'nope': no such sweep in the database; it holds rev")) << bad.err;
  for (const auto& f : {db, v1, v2, v3}) std::remove(f.c_str());
}

// Two sweeps of the same 12 points started at once on one database: each point is run by
// exactly one of them (its "[k/N] ok" line in one sweep's stderr), the other takes its
// result; both exit 0 and no claim is left.
TEST(SweepConcurrent, TwoSweepsAtOnceRunEachPointOnce) {
  const std::string db = tmp("conc.sqlite");
  const std::string sw = write_sweep_file(
      "set: {warmup_cycles: 500, measure_cycles: 3000}\naxes:\n  routing: [min, val]\n"
      "  load: [0.1, 0.2, 0.3]\n  seed: [1, 2]\n");
  const std::string ea = tmp("a.err"), eb = tmp("b.err"), rc = tmp("rc");
  const std::string one = std::string(SCFLY_BIN) + " sweep " + sw + " --db " + db + " --jobs 1";
  const std::string cmd = "(" + one + " >/dev/null 2>" + ea + "; echo a $? >>" + rc + ") & (" + one +
                          " >/dev/null 2>" + eb + "; echo b $? >>" + rc + ") & wait";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string codes = slurp(rc), a = slurp(ea), b = slurp(eb);
  EXPECT_TRUE(has(codes, "a 0") && has(codes, "b 0")) << codes << a << b;
  std::map<std::string, int> ran;  // point label -> sweeps that ran it
  const std::regex line(R"(^\[\d+/\d+\] ok +(.*?)  accepted .*)");
  int in_a = 0, in_b = 0;
  for (const std::string* err : {&a, &b}) {
    std::stringstream ss(*err);
    for (std::string l; std::getline(ss, l);) {
      std::smatch m;
      if (std::regex_match(l, m, line)) {
        ++ran[m[1]];
        ++(err == &a ? in_a : in_b);
      }
    }
  }
  EXPECT_EQ(ran.size(), 12u) << a << b;
  for (const auto& [label, n] : ran) EXPECT_EQ(n, 1) << label;
  EXPECT_GE(in_a, 1) << a;  // they did overlap: each ran some of the points
  EXPECT_GE(in_b, 1) << b;
  EXPECT_EQ(in_a + in_b, 12);
  EXPECT_EQ(sqlite_count(db, "points"), 12);
  EXPECT_EQ(sqlite_count(db, "claims"), 0);
  EXPECT_EQ(sqlite_count(db, "sweep_revisions"), 1);
  for (const auto& f : {db, sw, ea, eb, rc}) std::remove(f.c_str());
}

// A sweep whose points all failed: the re-run exits 3 (not 0 with "0 failed"), counts and
// names the recorded failures; --retry-failed runs them again (still exit 3 here); the
// saturation table says every point failed instead of a zero throughput.
TEST(SweepFailed, RerunOfFailedPointsExits3AndNamesThem) {
  const std::string db = tmp("failed.sqlite");
  const std::string sw = write_sweep_file(
      "set: {warmup_cycles: 500, measure_cycles: 1000, drain: true, drain_timeout_cycles: 1}\n"
      "axes:\n  load: [0.1, 0.2]\n");
  const Cmd first = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  EXPECT_EQ(first.code, 3) << first.err;
  EXPECT_TRUE(has(first.out, "(every point failed)")) << first.out;
  const Cmd again = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2");
  EXPECT_EQ(again.code, 3) << again.err;
  EXPECT_TRUE(has(again.err, "0 run (0 failed), 2 already in the database (2 of them failed)")) << again.err;
  EXPECT_TRUE(has(again.err, "2 point(s) of sweep " + stem(sw) +
                                 " are recorded as failed in the database and were not run again "
                                 "(--retry-failed runs them):\n  FAILED load=0.1\n  FAILED load=0.2"))
      << again.err;
  const Cmd retry = scfly_cmd("sweep " + sw + " --db " + db + " --jobs 2 --retry-failed");
  EXPECT_EQ(retry.code, 3) << retry.err;
  EXPECT_TRUE(has(retry.err, "2 run (2 failed), 0 already in the database")) << retry.err;
  EXPECT_EQ(sqlite_count(db, "points"), 2);
  for (const auto& f : {db, sw}) std::remove(f.c_str());
}

namespace {

// Starts a 24-point sweep with $TMPDIR = `tmpdir`, sends `sig` once a point is running, and
// returns the sweep's exit status.
int interrupted_sweep(const std::string& tmpdir, int sig) {
  const std::string db = tmp("intr.sqlite");
  const std::string sw = write_sweep_file(
      "set: {warmup_cycles: 1000, measure_cycles: 20000}\naxes:\n  routing: [min, val, ugal-l]\n"
      "  load: [0.1, 0.2, 0.3, 0.4]\n  seed: [1, 2]\n");
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stderr);
    freopen("/dev/null", "w", stdout);
    setenv("TMPDIR", tmpdir.c_str(), 1);
    execl(SCFLY_BIN, SCFLY_BIN, "sweep", sw.c_str(), "--db", db.c_str(), "--jobs", "2",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until a point is running: its files are in the sweep's directory.
  bool started = false;
  for (int i = 0; i < 600 && !started; ++i) {
    for (const auto& d : entries(tmpdir, "scfly-sweep-"))
      started = started || !entries(tmpdir + "/" + d, "p").empty();
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(started);
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  std::remove(db.c_str());
  std::remove(sw.c_str());
  return status;
}

}  // namespace

// SIGINT and SIGTERM in the middle of a sweep (points running, their files written): exit
// 130 and no scfly-sweep-* directory left in $TMPDIR; the same after a normal end.
TEST(SweepInterrupt, SignalsAndNormalEndLeaveNoTemporaryDirectory) {
  const std::string dir = tmp("tmpdir");
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  for (int sig : {SIGINT, SIGTERM}) {
    const int st = interrupted_sweep(dir, sig);
    ASSERT_TRUE(WIFEXITED(st)) << "signal " << sig << ": status " << st;
    EXPECT_EQ(WEXITSTATUS(st), 130) << "signal " << sig;
    EXPECT_TRUE(entries(dir, "scfly-sweep-").empty()) << "signal " << sig << ": " << entries(dir, "scfly-sweep-")[0];
  }
  const std::string db = tmp("ok.sqlite"), sw = write_sweep_file(kTwoPoints);
  const Cmd c = with_env("TMPDIR=" + dir, "sweep " + sw + " --db " + db + " --jobs 2");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_TRUE(entries(dir, "scfly-sweep-").empty());
  std::remove(db.c_str());
  std::remove(sw.c_str());
  rmdir(dir.c_str());
}

namespace {

// The lines of `text` that start with `prefix`; each must match `format`.
int lines_matching(const std::string& text, const std::string& prefix, const std::regex& format) {
  int n = 0;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) {
    if (l.rfind(prefix, 0) != 0) continue;
    EXPECT_TRUE(std::regex_match(l, format)) << l;
    ++n;
  }
  return n;
}

}  // namespace

// SCFLY_PROGRESS=on with a 0 s interval forces the lines (stderr is no terminal here), one
// per 1000-cycle chunk:
// "scfly: run: cycle C of N (P %), R cycles/s, ETA M:SS (elapsed M:SS)", the run's metrics
// identical to a run without them. Without the variable (no terminal), with off, or with
// the default 5 s interval on a short run: no line.
TEST(CliProgress, ForcedRunLinesHaveTheFormatAndChangeNothing) {
  const std::string args = "run " + tiny_config() + " routing=val measure_cycles=30000 -q";
  const std::string j0 = tmp("p0.json"), j1 = tmp("p1.json");
  const Cmd on = with_env("SCFLY_PROGRESS=on SCFLY_PROGRESS_INTERVAL=0", args + " --json " + j0);
  ASSERT_EQ(on.code, 0) << on.err;
  const std::regex run_line(
      R"(scfly: run: cycle \d+ of 33000 \(\d+\.\d %\), \d+ cycles/s, ETA \d+:\d\d \(elapsed \d+:\d\d\))");
  // Interval 0: a chunk of 1000 cycles and a line after each but the last.
  EXPECT_EQ(lines_matching(on.err, "scfly: run:", run_line), 32) << on.err;
  const Cmd off = with_env("", args + " --json " + j1);
  ASSERT_EQ(off.code, 0);
  EXPECT_EQ(off.err, "");
  const auto m0 = nlohmann::json::parse(slurp(j0)).at("metrics"), m1 = nlohmann::json::parse(slurp(j1)).at("metrics");
  EXPECT_EQ(m0, m1);
  EXPECT_EQ(with_env("SCFLY_PROGRESS=off SCFLY_PROGRESS_INTERVAL=0", args).err, "");
  EXPECT_EQ(with_env("SCFLY_PROGRESS=on", "run " + tiny_config() + " -q").err, "");  // 5 s: none in a short run
  std::remove(j0.c_str());
  std::remove(j1.c_str());
}

// check-deadlock's and the network construction's lines, forced on; the verdict unchanged.
TEST(CliProgress, ForcedDeadlockCheckAndConstructionLinesHaveTheFormat) {
  const std::string cfg = tiny_config() + " routing=val";
  const Cmd on = with_env("SCFLY_PROGRESS=on SCFLY_PROGRESS_INTERVAL=0", "check-deadlock " + cfg);
  const Cmd off = with_env("", "check-deadlock " + cfg);
  ASSERT_EQ(on.code, 0) << on.err;
  auto verdict = [](const std::string& out) { return out.substr(0, out.rfind("  (")); };  // less the time
  EXPECT_EQ(verdict(on.out), verdict(off.out));
  EXPECT_TRUE(has(on.out, "result: deadlock-free")) << on.out;
  EXPECT_EQ(off.err, "");
  const std::regex dl(
      R"(scfly: check-deadlock: \d+ routing states explored, \d+ found \(the budget is 20000000\) \(elapsed \d+:\d\d\))");
  EXPECT_GE(lines_matching(on.err, "scfly: check-deadlock:", dl), 1) << on.err;
  // 4096 switches take well over the heartbeat's 10 ms to build.
  const Cmd big = with_env("SCFLY_PROGRESS=on SCFLY_PROGRESS_INTERVAL=0",
                           "run " + std::string(SCFLY_SOURCE_DIR) +
                               "/sc_main/configs/torus-8x8-1port.yaml topology.k=64 warmup_cycles=0 measure_cycles=1 -q");
  ASSERT_EQ(big.code, 0) << big.err;
  const std::regex build(R"(scfly: building the network: 64-ary 2-cube \(elapsed \d+:\d\d\))");
  EXPECT_GE(lines_matching(big.err, "scfly: building the network:", build), 1) << big.err;
}

// --version: the version and the commit the binary was built from (git describe of the
// source tree, regenerated at every build), a commit of this repository when the source is
// a git checkout.
TEST(CliVersion, PrintsTheVersionAndACommitOfTheSource) {
  const Cmd v = scfly_cmd("--version");
  ASSERT_EQ(v.code, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(v.out, m, std::regex(R"(scfly \d+\.\d+\.\d+ \(git (?:[^ ()]*-g)?([0-9a-f]{12}|unknown)(-dirty)?\)\n)")))
      << v.out;
  const std::string git = "git -C " + std::string(SCFLY_SOURCE_DIR);
  if (std::system((git + " rev-parse --git-dir >/dev/null 2>&1").c_str()) != 0)
    GTEST_SKIP() << "the source tree is not a git checkout";
  ASSERT_NE(m[1], "unknown") << v.out;
  EXPECT_EQ(std::system((git + " cat-file -e " + std::string(m[1]) + "^{commit} 2>/dev/null").c_str()), 0) << v.out;
}

// A claim left by a sweep that died (SIGKILL: no clean-up) on this host is taken over: the
// next sweep runs the point instead of waiting for it.
TEST(SweepConcurrent, ClaimOfADeadProcessIsTakenOver) {
  const std::string db = tmp("stale.sqlite");
  const std::string sw = write_sweep_file("set: {warmup_cycles: 500, measure_cycles: 1000}\naxes:\n  load: [0.1]\n");
  const Cmd dry = scfly_cmd("sweep " + sw + " --db " + db + " --dry-run");
  ASSERT_EQ(dry.code, 0) << dry.err;
  const std::string hash = dry.out.substr(0, 16);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    scfly::ResultsDb d(db);
    _exit(d.claim(hash, false) == scfly::Claim::Claimed ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_EQ(sqlite_count(db, "claims"), 1);
  const Cmd c = scfly_cmd("sweep " + sw + " --db " + db);
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_TRUE(has(c.err, "1 run (0 failed), 0 already in the database")) << c.err;
  EXPECT_EQ(sqlite_count(db, "claims"), 0);
  EXPECT_EQ(sqlite_count(db, "points"), 1);
  for (const auto& f : {db, sw}) std::remove(f.c_str());
}
