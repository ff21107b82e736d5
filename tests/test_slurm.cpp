// Sweeps on Slurm (sc_main/slurm.h), for real: a one-node Slurm (munged, slurmctld,
// slurmd, a generated slurm.conf in a temporary directory, every daemon bound to
// 127.0.0.1) is started inside the test, a sweep is submitted with --slurm, one array task
// is cancelled after its first point, --gather reports it and what is missing, a second
// --slurm submits only the missing points (a saturation search: the missing series, its
// shard seeded with the points already in; its first task dies outright after three points),
// and the gathered rows equal those of the same
// sweep run here with --jobs 2. Without root or without Slurm these tests skip, saying so.
// The tasks can also be run by hand (--slurm-task DIR --task I), which needs no Slurm: that
// test always runs.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "sc_main/results_db.h"
#include "scfly_run.h"

namespace fs = std::filesystem;

namespace {

// A shell command's exit code and output (stdout and stderr).
Cmd sh(const std::string& cmd) {
  const std::string o = tmp("sh");
  const int st = std::system((cmd + " >" + o + " 2>&1").c_str());
  Cmd c;
  c.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  c.out = slurp(o);
  std::remove(o.c_str());
  return c;
}

bool have(const std::string& prog) { return sh("command -v " + prog).code == 0; }

// A free TCP port on the loopback (bound once and released).
int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = -1;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

// The local addresses (hex, as in /proc/net/tcp: 0100007F is 127.0.0.1) listening on `port`.
std::vector<std::string> listeners(int port) {
  std::vector<std::string> out;
  char hex[8];
  std::snprintf(hex, sizeof hex, "%04X", port);
  for (const char* f : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::stringstream ss(slurp(f));
    std::string line;
    std::getline(ss, line);
    while (std::getline(ss, line)) {
      std::stringstream ls(line);
      std::string sl, local, remote, st;
      ls >> sl >> local >> remote >> st;
      if (st == "0A" && local.substr(local.find(':') + 1) == hex) out.push_back(local.substr(0, local.find(':')));
    }
  }
  return out;
}

template <class F>
bool wait_for(F ok, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ok()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return ok();
}

// A one-node Slurm in a temporary directory. start() returns "" or why it cannot run.
class OneNodeSlurm {
 public:
  ~OneNodeSlurm() { stop(); }
  std::string start() {
    if (::geteuid() != 0) return "not root (slurmd must run as root to start jobs)";
    for (const char* p : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"})
      if (!have(p)) return std::string(p) + " not installed (Debian slurm-wlm, munge)";
    dir_ = tmp("slurm");
    fs::create_directories(dir_ + "/state");
    fs::create_directories(dir_ + "/spool");
    {  // munge key: 1 KiB, private
      std::ofstream k(dir_ + "/munge.key", std::ios::binary);
      std::ifstream r("/dev/urandom", std::ios::binary);
      std::vector<char> b(1024);
      r.read(b.data(), static_cast<std::streamsize>(b.size()));
      k.write(b.data(), static_cast<std::streamsize>(b.size()));
    }
    fs::permissions(dir_ + "/munge.key", fs::perms::owner_read | fs::perms::owner_write);
    const Cmd m = sh("munged -f --key-file=" + dir_ + "/munge.key --socket=" + dir_ + "/munge.sock --pid-file=" +
                     dir_ + "/munged.pid --log-file=" + dir_ + "/munged.log --seed-file=" + dir_ + "/munge.seed");
    if (m.code != 0) return "munged did not start: " + m.out;
    munged_ = true;
    ctld_port_ = free_port();
    slurmd_port_ = free_port();
    while (slurmd_port_ == ctld_port_) slurmd_port_ = free_port();
    const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    std::ofstream c(dir_ + "/slurm.conf");
    c << "ClusterName=scflytest\n"
      << "SlurmctldHost=localhost(127.0.0.1)\n"
      << "SlurmctldPort=" << ctld_port_ << "\nSlurmdPort=" << slurmd_port_ << "\n"
      << "CommunicationParameters=NoCtldInAddrAny,NoInAddrAny\n"  // bind to 127.0.0.1, not 0.0.0.0
      << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << dir_ << "/munge.sock\n"
      << "SlurmUser=root\nSlurmdUser=root\n"
      << "StateSaveLocation=" << dir_ << "/state\nSlurmdSpoolDir=" << dir_ << "/spool\n"
      << "SlurmctldPidFile=" << dir_ << "/slurmctld.pid\nSlurmdPidFile=" << dir_ << "/slurmd.pid\n"
      << "SlurmctldLogFile=" << dir_ << "/slurmctld.log\nSlurmdLogFile=" << dir_ << "/slurmd.log\n"
      << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
      << "SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
      << "ReturnToService=2\nMpiDefault=none\nJobAcctGatherType=jobacct_gather/none\n"
      << "AccountingStorageType=accounting_storage/none\n"
      << "NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=" << cpus << " RealMemory=1000 "
      << "State=UNKNOWN\n"
      << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n";
    c.close();
    ::setenv("SLURM_CONF", (dir_ + "/slurm.conf").c_str(), 1);
    const Cmd ctl = sh("slurmctld -i -f " + dir_ + "/slurm.conf");
    if (ctl.code != 0) return "slurmctld did not start: " + ctl.out + slurp(dir_ + "/slurmctld.log");
    ctld_ = true;
    const Cmd d = sh("slurmd -N localhost -f " + dir_ + "/slurm.conf");
    if (d.code != 0) return "slurmd did not start: " + d.out + slurp(dir_ + "/slurmd.log");
    slurmd_ = true;
    if (!wait_for([] { return sh("sinfo -h -o %T").out.find("idle") != std::string::npos; }, 60))
      return "the node never became idle: " + sh("sinfo").out + slurp(dir_ + "/slurmctld.log");
    return "";
  }
  void stop() {
    if (ctld_ || slurmd_) sh("scontrol shutdown");
    for (const char* pf : {"/slurmctld.pid", "/slurmd.pid", "/munged.pid"}) {
      if (dir_.empty()) break;
      const std::string p = slurp(dir_ + pf);
      const pid_t pid = static_cast<pid_t>(std::atol(p.c_str()));
      if (pid <= 1) continue;
      if (std::string(pf) == "/munged.pid" && munged_) ::kill(pid, SIGTERM);
      // Whatever is still alive after 20 s is killed.
      if (!wait_for([&] { return ::kill(pid, 0) != 0; }, 20)) ::kill(pid, SIGKILL);
    }
    ctld_ = slurmd_ = munged_ = false;
    ::unsetenv("SLURM_CONF");
  }
  int ctld_port() const { return ctld_port_; }
  int slurmd_port() const { return slurmd_port_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  int ctld_port_ = 0, slurmd_port_ = 0;
  bool munged_ = false, ctld_ = false, slurmd_ = false;
};

// Every point of `a` is in `b` with the same status and metrics (and nothing else is in b).
void expect_same_points(const std::string& a, const std::string& b) {
  scfly::ResultsDb da(a), db(b);
  const auto ha = da.hashes(true), hb = db.hashes(true);
  EXPECT_EQ(ha, hb);
  const std::vector<std::string> cols = {"status",       "config_json",         "accepted_load",
                                         "latency_avg",  "latency_p99",         "packets_delivered",
                                         "offered_load", "network_latency_avg", "nonminimal_fraction"};
  for (const auto& h : ha) {
    auto va = da.point_values(h, cols), vb = db.point_values(h, cols);
    va.erase("id");  // the row number differs: a merge appends
    vb.erase("id");
    EXPECT_EQ(va, vb) << "point " << h;
    EXPECT_FALSE(va["accepted_load"].is_null()) << "point " << h;
  }
}

std::string sweep_file(const std::string& name, const std::string& body) {
  const std::string p = tmp(name + ".yaml");
  std::ofstream(p) << "base: " << tiny_config() << "\nname: " << name << "\n" << body;
  return p;
}

std::string job_of(const std::string& out) { return out.substr(0, out.find('\n')); }

bool queue_empty(const std::string& job) {
  const Cmd q = sh("squeue -h -r -j " + job);
  return q.code != 0 || q.out.find(job + "_") == std::string::npos;
}

}  // namespace

// The tasks of a submission run by hand (no Slurm): --slurm --dry-run writes the script and
// the task list, `--slurm-task DIR --task I` runs task I into its shard, --gather merges
// and equals a local sweep; gathering twice adds nothing.
TEST(Slurm, TasksRunByHandGatherToTheSameRowsAsALocalSweep) {
  const std::string sw =
      sweep_file("hand", "set: {warmup_cycles: 300, measure_cycles: 1000}\naxes:\n  load: [0.1, 0.4]\n"
                         "  routing: [min, val]\n");
  const std::string db = tmp("hand.sqlite");
  const Cmd sub = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --dry-run --points-per-task 3 --time 0:10:00 "
                            "--sbatch-arg=--account=arch");
  ASSERT_EQ(sub.code, 0) << sub.err;
  const std::string dir = db + ".slurm/sub-1";
  for (const char* line : {"#SBATCH --array=0-1\n", "#SBATCH --time=0:10:00\n", "#SBATCH --account=arch\n",
                           "--slurm-task '"})
    EXPECT_NE(sub.out.find(line), std::string::npos) << line << " not in\n" << sub.out;
  EXPECT_FALSE(fs::exists(dir + "/jobid"));
  for (int i = 0; i < 2; ++i) {
    const Cmd t = scfly_cmd("sweep " + sw + " --slurm-task " + dir + " --task " + std::to_string(i));
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_TRUE(fs::exists(dir + "/task-" + std::to_string(i) + ".status"));
  }
  EXPECT_EQ(scfly_cmd("sweep " + sw + " --slurm-task " + dir + " --task 2").code, 2);  // no such task
  Cmd g = scfly_cmd("sweep " + sw + " --db " + db + " --gather");
  EXPECT_EQ(g.code, 0) << g.out << g.err;
  EXPECT_NE(g.out.find("merged 4 new points"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("4 of 4 points complete"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("routing=val"), std::string::npos) << "no saturation summary:\n" << g.out;
  g = scfly_cmd("sweep " + sw + " --db " + db + " --gather");
  EXPECT_NE(g.out.find("merged 0 new points into " + db + " (4 already there)"), std::string::npos) << g.out;
  const std::string local = tmp("local.sqlite");
  ASSERT_EQ(scfly_cmd("sweep " + sw + " --db " + local + " --jobs 2").code, 0);
  expect_same_points(db, local);
  // Nothing left: a new submission has nothing to submit.
  const Cmd again = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --dry-run");
  EXPECT_EQ(again.code, 0);
  EXPECT_NE(again.err.find("nothing to submit"), std::string::npos) << again.err;
  EXPECT_FALSE(fs::exists(db + ".slurm/sub-2"));
}

// ResultsDb::merge_from: a shard's new points come with their time series; a point failed
// here and ok in the shard (a retry) is replaced; an ok point is never replaced by a failed
// one; a second merge takes nothing; a column only the shard has is added.
TEST(Slurm, MergeTakesNewAndRetriedPointsOnce) {
  const std::string main_db = tmp("main.sqlite"), shard_db = tmp("shard.sqlite");
  auto rec = [](const std::string& hash, const std::string& status, double acc) {
    scfly::PointRecord r;
    r.hash = hash;
    r.sweep = "m";
    r.status = status;
    r.config = {{"load", acc}};
    if (status == "ok") {
      r.metrics = {{"accepted_load", acc}, {"latency_avg", 100.0}, {"offered_load", acc}};
      r.timeseries = {{"bin_cycles", 10},
                      {"t_start", {0, 10}},
                      {"t_end", {10, 20}},
                      {"latency_avg", {1.0, 2.0}},
                      {"latency_inj_avg", {1.0, 2.0}},
                      {"network_latency_avg", {1.0, 2.0}},
                      {"accepted_load", {acc, acc}},
                      {"generated_load", {acc, acc}},
                      {"nonminimal_fraction", {0.0, 0.0}},
                      {"packets", {3, 4}},
                      {"per_switch", {{"queued_packets", {{1, 2}, {3, 4}}}}}};
    } else {
      r.error = "exit 3: boom";
    }
    return r;
  };
  {
    scfly::ResultsDb m(main_db);
    m.insert(rec("a", "ok", 0.1));
    m.insert(rec("b", "error", 0.2));
    m.insert(rec("c", "ok", 0.3));
    scfly::ResultsDb s(shard_db);
    s.insert(rec("b", "ok", 0.2));     // a retry that worked
    s.insert(rec("c", "error", 0.3));  // never replaces an ok point
    auto d = rec("d", "ok", 0.4);
    d.metrics["extra_metric"] = 7;  // a column main does not have yet
    s.insert(d);
  }
  scfly::ResultsDb m(main_db);
  EXPECT_EQ(m.merge_from(shard_db), (std::pair<int64_t, int64_t>{2, 1}));
  EXPECT_EQ(m.merge_from(shard_db), (std::pair<int64_t, int64_t>{0, 3}));
  EXPECT_EQ(m.count("points"), 4);
  EXPECT_EQ(m.hashes(false), (std::set<std::string>{"a", "b", "c", "d"}));  // all ok
  EXPECT_EQ(m.point_values("d", {"extra_metric"})["extra_metric"], 7);
  EXPECT_EQ(m.count("timeseries"), 4 * 2);  // two bins of each ok point, b's old row gone
  EXPECT_EQ(m.count("switch_series"), 4 * 4);
  const int64_t id_d = m.point_values("d", {"id"})["id"].get<int64_t>();
  EXPECT_EQ(m.timeseries_column(id_d, "packets"), (std::vector<nlohmann::json>{3, 4}));
  // Only the listed hashes (how a series' shard is seeded).
  const std::string seeded = tmp("seeded.sqlite");
  scfly::ResultsDb s2(seeded);
  const std::set<std::string> only = {"a"};
  EXPECT_EQ(s2.merge_from(main_db, &only), (std::pair<int64_t, int64_t>{1, 0}));
  EXPECT_EQ(s2.hashes(true), only);
  EXPECT_THROW(s2.merge_from(tmp("absent.sqlite")), scfly::DbError);
}

TEST(Slurm, BadOptionsAreExitTwoNamingThem) {
  const std::string sw = sweep_file("bad", "axes: {load: [0.1]}\n");
  const std::string db = tmp("bad.sqlite");
  Cmd c = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --dry-run --points-per-task 0");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("--points-per-task 0"), std::string::npos) << c.err;
  c = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --dry-run --sbatch-arg account");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("--sbatch-arg: value 'account' is not allowed"), std::string::npos) << c.err;
  c = scfly_cmd("sweep " + sw + " --db " + db + " --gather");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("no cluster submission"), std::string::npos) << c.err;
  c = scfly_cmd("sweep " + sw + " --db " + db + " --slurm-task /nonexistent --task 0");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("tasks.json"), std::string::npos) << c.err;
  c = scfly_cmd("sweep " + sw + " --slurm --gather");
  EXPECT_EQ(c.code, 1);  // CLI11: the two exclude each other
}

// The real thing, on a one-node Slurm started here.
TEST(Slurm, SubmitKillResumeGatherOnAOneNodeCluster) {
  OneNodeSlurm slurm;
  const std::string why = slurm.start();
  if (!why.empty()) GTEST_SKIP() << "no one-node Slurm here: " << why;
  // Every daemon listens on the loopback only.
  for (int port : {slurm.ctld_port(), slurm.slurmd_port()}) {
    const auto l = listeners(port);
    EXPECT_FALSE(l.empty()) << "nothing listens on port " << port;
    for (const auto& a : l) EXPECT_EQ(a, "0100007F") << "port " << port << " listens beyond 127.0.0.1";
  }

  // 1. A grid of 6 points, 3 per task; task 0 is cancelled after its first point.
  const std::string sw = sweep_file(
      "grid", "set: {warmup_cycles: 1000, measure_cycles: 40000}\naxes:\n  routing: [min, val]\n"
              "  load: [0.1, 0.3, 0.5]\n");
  const std::string db = tmp("grid.sqlite");
  Cmd sub = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --points-per-task 3 --max-parallel 2 --time 10");
  ASSERT_EQ(sub.code, 0) << sub.err;
  const std::string job = job_of(sub.out);
  ASSERT_FALSE(job.empty());
  const std::string dir1 = db + ".slurm/sub-1";
  EXPECT_NE(slurp(dir1 + "/job.sh").find("#SBATCH --array=0-1%2"), std::string::npos);
  // The task logs a line per finished point ("[1/3] ok ...").
  ASSERT_TRUE(wait_for([&] { return slurp(dir1 + "/logs/task-0.out").find("] ok ") != std::string::npos; }, 120))
      << "task 0 never finished a point:\n"
      << slurp(dir1 + "/logs/task-0.out") << sh("squeue").out;
  EXPECT_EQ(sh("scancel " + job + "_0").code, 0);  // the same as a time limit reached
  ASSERT_TRUE(wait_for([&] { return queue_empty(job); }, 180)) << sh("squeue").out;
  // scancel's SIGTERM reaches scfly (the script execs it): it stops its point and says so.
  EXPECT_EQ(nlohmann::json::parse(slurp(dir1 + "/task-0.status")).value("exit", -1), 130);
  EXPECT_TRUE(fs::exists(dir1 + "/task-1.status"));
  Cmd g = scfly_cmd("sweep " + sw + " --db " + db + " --gather");
  EXPECT_EQ(g.code, 4) << g.out << g.err;  // points missing
  EXPECT_NE(g.out.find("1 done, 0 running, 0 pending, 1 failed"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("task 0: exit 130: interrupted"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("nothing is queued"), std::string::npos) << g.out;
  int64_t in_db = 0;
  {
    scfly::ResultsDb d(db);
    in_db = d.count("points");
  }
  EXPECT_GE(in_db, 4);  // task 1's three and at least task 0's first
  EXPECT_LT(in_db, 6);

  // 2. The resume: a second submission of only the missing points.
  sub = scfly_cmd("sweep " + sw + " --db " + db + " --slurm --points-per-task 3");
  ASSERT_EQ(sub.code, 0) << sub.err;
  const std::string job2 = job_of(sub.out);
  const nlohmann::json tasks = nlohmann::json::parse(slurp(db + ".slurm/sub-2/tasks.json"));
  ASSERT_EQ(tasks["tasks"].size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(tasks["tasks"][0].size()), 6 - in_db);
  ASSERT_TRUE(wait_for([&] { return queue_empty(job2); }, 180)) << sh("squeue").out;
  g = scfly_cmd("sweep " + sw + " --db " + db + " --gather");
  EXPECT_EQ(g.code, 0) << g.out << g.err;
  EXPECT_NE(g.out.find("6 of 6 points complete"), std::string::npos) << g.out;
  const std::string local = tmp("grid-local.sqlite");
  ASSERT_EQ(scfly_cmd("sweep " + sw + " --db " + local + " --jobs 2").code, 0);
  expect_same_points(db, local);

  // 3. A saturation search (one series per task) killed midway resumes from its shard: the
  // second submission's shard starts with the points the first one finished.
  const std::string sq = sweep_file(
      "search", "set: {warmup_cycles: 1000, measure_cycles: 20000}\naxes:\n  routing: [val]\n"
                "saturation_search: {low: 0.05, high: 0.9, resolution: 0.05}\n");
  const std::string dbq = tmp("search.sqlite");
  // This task dies outright once its shard holds three points, as on a lost node or by the
  // OOM killer: SIGKILL to its scfly process from outside (scancel would send a signal scfly
  // catches and records), so it leaves no status file.
  sub = scfly_cmd("sweep " + sq + " --db " + dbq + " --slurm");
  ASSERT_EQ(sub.code, 0) << sub.err;
  const std::string job3 = job_of(sub.out);
  const std::string dq = dbq + ".slurm/sub-1";
  ASSERT_TRUE(wait_for([&] { return rows_now(dq + "/shard-0.sqlite") >= 3 || queue_empty(job3); }, 180));
  ASSERT_FALSE(queue_empty(job3)) << "the search ended before it was killed";
  // ("[-]" keeps the pattern from matching the shell that runs pkill.)
  ASSERT_EQ(sh("pkill -KILL -f -- '[-]-slurm-task " + dq + "'").code, 0);
  ASSERT_TRUE(wait_for([&] { return queue_empty(job3); }, 180));
  const long long first_try = rows_now(dq + "/shard-0.sqlite");
  ASSERT_GE(first_try, 3);
  EXPECT_FALSE(fs::exists(dq + "/task-0.status"));
  g = scfly_cmd("sweep " + sq + " --db " + dbq + " --gather");
  EXPECT_EQ(g.code, 4) << g.out;
  EXPECT_NE(g.out.find("task 0: ended without a status file"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("0 of 1 series complete"), std::string::npos) << g.out;
  sub = scfly_cmd("sweep " + sq + " --db " + dbq + " --slurm");
  ASSERT_EQ(sub.code, 0) << sub.err;
  {
    scfly::ResultsDb seeded(dbq + ".slurm/sub-2/shard-0.sqlite");
    EXPECT_EQ(seeded.count("points"), first_try);  // the points of the first try, not run again
  }
  ASSERT_TRUE(wait_for([&] { return queue_empty(job_of(sub.out)); }, 180));
  const std::string log2 = slurp(dbq + ".slurm/sub-2/logs/task-0.out");
  EXPECT_NE(log2.find("1 already in"), std::string::npos) << log2;  // rounds 1-3 replayed from the shard
  g = scfly_cmd("sweep " + sq + " --db " + dbq + " --gather");
  EXPECT_EQ(g.code, 0) << g.out << g.err;
  const std::string localq = tmp("search-local.sqlite");
  const Cmd lq = scfly_cmd("sweep " + sq + " --db " + localq + " --jobs 2");
  ASSERT_EQ(lq.code, 0);
  expect_same_points(dbq, localq);
  // The same saturation table.
  const std::string tail = g.out.substr(g.out.find("saturation search"));
  EXPECT_EQ(tail, lq.out.substr(lq.out.find("saturation search"))) << g.out << "\n---\n" << lq.out;
  slurm.stop();
  for (int port : {slurm.ctld_port(), slurm.slurmd_port()}) EXPECT_TRUE(listeners(port).empty()) << port;
}
