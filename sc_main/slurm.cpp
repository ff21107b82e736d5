#include "sc_main/slurm.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sc_main/results_db.h"
#include "scfly_git_rev.h"

namespace fs = std::filesystem;

namespace scfly {

namespace {

// Output and exit status of a command run without a shell (argv[0] looked up in PATH).
struct CmdResult {
  int status = -1;  // exit code; -1: could not run (not found) or killed
  std::string out;  // stdout and stderr, interleaved
};

CmdResult run_cmd(const std::vector<std::string>& argv) {
  CmdResult r;
  int fds[2];
  if (::pipe(fds) != 0) return r;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    ::execvp(a[0], a.data());
    _exit(127);
  }
  ::close(fds[1]);
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) r.out.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (r.status == 127) r.status = -1;
  return r;
}


std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Submission directories sub-1, sub-2, ... in order.
std::vector<std::pair<int, fs::path>> submissions(const std::string& db_path) {
  std::vector<std::pair<int, fs::path>> out;
  std::error_code ec;
  const fs::path root = slurm_dir(db_path);
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("sub-", 0) != 0 || !e.is_directory()) continue;
    char* end = nullptr;
    const long k = std::strtol(n.c_str() + 4, &end, 10);
    if (k > 0 && end && *end == '\0') out.emplace_back(static_cast<int>(k), e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// One submission as gather sees it.
struct Submission {
  int n = 0;
  fs::path dir;
  std::string jobid;  // empty: never submitted (--dry-run)
  int tasks = 0;
  // Per task: "done", "failed" (status file with a nonzero exit), a squeue state
  // ("pending", "running", ...), an sacct state ("timeout", "cancelled", ...), or "lost"
  // (no status file, not queued, nothing known).
  std::vector<std::string> state;
  std::vector<std::string> detail;  // why, for failed and lost tasks
  bool queue_known = false;         // squeue answered
  bool active() const {
    for (const auto& s : state)
      if (s != "done" && s != "failed" && s != "lost" && s != "not submitted" && s.rfind("sacct:", 0) != 0)
        return true;
    return false;
  }
};

// Task states of array job `jobid` in `squeue -r -o %i|%T` or `sacct -X -P -o JobID,State`
// output: one "123_4|RUNNING" line per task; a pending range not yet split ("123_[5-9%2]",
// "123_[5,7]") gives every index in it `pending`. Keys: task index; states in lower case.
std::map<int, std::string> parse_states(const std::string& out, const std::string& jobid) {
  std::map<int, std::string> states;
  std::stringstream ss(out);
  for (std::string line; std::getline(ss, line);) {
    std::stringstream ls(line);
    std::string id, state;
    if (!std::getline(ls, id, '|') || !std::getline(ls, state, '|')) continue;
    if (id.rfind(jobid + "_", 0) != 0) continue;
    const std::string idx = id.substr(jobid.size() + 1);
    std::string st = state.substr(0, state.find(' '));  // "CANCELLED by 0"
    std::transform(st.begin(), st.end(), st.begin(), [](unsigned char c) { return std::tolower(c); });
    if (idx.rfind('[', 0) == 0) {
      std::string range = idx.substr(1, idx.find(']') - 1);
      range = range.substr(0, range.find('%'));
      std::stringstream rs(range);
      for (std::string part; std::getline(rs, part, ',');) {
        const size_t dash = part.find('-');
        const int a = std::atoi(part.c_str());
        const int b = dash == std::string::npos ? a : std::atoi(part.c_str() + dash + 1);
        for (int k = a; k <= b && k - a < 1000000; ++k) states[k] = st;
      }
      continue;
    }
    char* end = nullptr;
    const long k = std::strtol(idx.c_str(), &end, 10);
    if (!idx.empty() && end && *end == '\0') states[static_cast<int>(k)] = st;
  }
  return states;
}

Submission inspect(int n, const fs::path& dir) {
  Submission s;
  s.n = n;
  s.dir = dir;
  const nlohmann::json tj = nlohmann::json::parse(std::ifstream(dir / "tasks.json"), nullptr, false);
  s.tasks = tj.is_object() && tj.contains("tasks") ? static_cast<int>(tj["tasks"].size()) : 0;
  std::error_code ec;
  if (fs::exists(dir / "jobid", ec)) s.jobid = read_text(dir / "jobid");
  s.state.assign(static_cast<size_t>(s.tasks), s.jobid.empty() ? "not submitted" : "lost");
  s.detail.assign(static_cast<size_t>(s.tasks), "");
  std::map<int, std::string> queued, acct;
  if (!s.jobid.empty()) {
    const CmdResult q = run_cmd({"squeue", "-h", "-r", "-j", s.jobid, "-o", "%i|%T"});
    // A job that left the queue is an "Invalid job id" to squeue: nothing of it is queued.
    s.queue_known = q.status == 0 || q.out.find("Invalid job id") != std::string::npos;
    if (q.status == 0) queued = parse_states(q.out, s.jobid);
    // Accounting is optional (a cluster without slurmdbd says it is disabled): then tasks
    // that ended without a status file are only known as lost.
    const CmdResult a = run_cmd({"sacct", "-n", "-X", "-P", "-j", s.jobid, "-o", "JobID,State"});
    if (a.status == 0) acct = parse_states(a.out, s.jobid);
  }
  for (int i = 0; i < s.tasks; ++i) {
    const auto idx = static_cast<size_t>(i);
    const fs::path st = dir / ("task-" + std::to_string(i) + ".status");
    if (fs::exists(st, ec)) {
      const nlohmann::json j = nlohmann::json::parse(std::ifstream(st), nullptr, false);
      const int code = j.is_object() ? j.value("exit", -1) : -1;
      s.state[idx] = code == 0 ? "done" : "failed";
      if (code == 130) s.detail[idx] = "exit 130: interrupted (cancelled, preempted or out of time)";
      else if (code != 0) s.detail[idx] = "exit " + std::to_string(code) + (code == 3 ? ": a point failed" : "");
    } else if (queued.count(i)) {
      s.state[idx] = queued[i];
    } else if (acct.count(i) && acct[i] != "completed") {
      s.state[idx] = "sacct:" + acct[i];
      s.detail[idx] = acct[i];
    } else if (!s.jobid.empty()) {
      s.detail[idx] = acct.count(i) ? "completed without writing its status" : "ended without a status file";
    }
  }
  return s;
}

std::string task_log(const Submission& s, int i) {
  return (s.dir / "logs" / ("task-" + std::to_string(i) + ".out")).string();
}

// Merges every shard of every submission into the database; returns points taken.
int64_t merge_all(const std::string& db_path, const std::vector<std::pair<int, fs::path>>& subs, int64_t* left) {
  ResultsDb db(db_path);
  int64_t taken = 0;
  std::error_code ec;
  for (const auto& [n, dir] : subs) {
    std::vector<fs::path> shards;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string f = e.path().filename().string();
      if (f.rfind("shard-", 0) == 0 && e.path().extension() == ".sqlite") shards.push_back(e.path());
    }
    std::sort(shards.begin(), shards.end());
    for (const auto& sh : shards) {
      const auto [t, l] = db.merge_from(sh.string());
      taken += t;
      if (left) *left += l;
    }
  }
  return taken;
}

std::string abs_path(const std::string& p) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).string() : a.string();
}

}  // namespace

bool in_path(const std::string& prog) {
  const char* p = std::getenv("PATH");
  std::stringstream ss(p ? p : "");
  for (std::string d; std::getline(ss, d, ':');)
    if (!d.empty() && ::access((d + "/" + prog).c_str(), X_OK) == 0) return true;
  return false;
}

std::string slurm_dir(const std::string& db_path) { return db_path + ".slurm"; }

namespace {
bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}
// Split `s` at each `sep`; every part must satisfy all_digits.
bool digit_fields(const std::string& s, char sep, size_t min_parts, size_t max_parts) {
  size_t parts = 0, from = 0;
  for (;;) {
    const size_t at = s.find(sep, from);
    if (!all_digits(s.substr(from, at == std::string::npos ? std::string::npos : at - from))) return false;
    ++parts;
    if (at == std::string::npos) break;
    from = at + 1;
  }
  return parts >= min_parts && parts <= max_parts;
}
}  // namespace

std::string slurm_options_problem(const SlurmOptions& so) {
  const auto bad = [](const std::string& opt, const std::string& v, const std::string& allowed) {
    return opt + ": value '" + v + "' is not allowed; expected " + allowed;
  };
  if (so.max_parallel < 0 || (so.max_parallel_given && so.max_parallel < 1))
    return bad("--max-parallel", std::to_string(so.max_parallel),
               "at least 1 array task at once (leave the option out for no limit)");
  // sbatch's time formats: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS,
  // DAYS-HOURS:MINUTES, DAYS-HOURS:MINUTES:SECONDS; or UNLIMITED / INFINITE.
  if (!so.time.empty()) {
    const std::string& t = so.time;
    const size_t dash = t.find('-');
    const bool ok = t == "UNLIMITED" || t == "INFINITE" ||
                    (dash == std::string::npos ? digit_fields(t, ':', 1, 3)
                                               : all_digits(t.substr(0, dash)) && digit_fields(t.substr(dash + 1), ':', 1, 3));
    if (!ok)
      return bad("--time", t,
                 "a Slurm time limit: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES, "
                 "DAYS-HOURS:MINUTES:SECONDS (e.g. 2:00:00 or 1-12) or UNLIMITED");
  }
  if (!so.mem.empty()) {
    const std::string& m = so.mem;
    const bool unit = std::string("KMGTkmgt").find(m.back()) != std::string::npos;
    if (!all_digits(unit ? m.substr(0, m.size() - 1) : m))
      return bad("--mem", m, "a memory size per node: a whole number of megabytes, or with a suffix K, M, G or T (e.g. 4G)");
  }
  if (!so.partition.empty()) {
    // One partition or a comma-separated list; a name of letters, digits, '_', '-' and '.'.
    const std::string& p = so.partition;
    bool ok = p.front() != ',' && p.back() != ',' && p.find(",,") == std::string::npos;
    for (const unsigned char c : p) ok = ok && (std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == ',');
    if (!ok)
      return bad("--partition", p,
                 "a Slurm partition name (letters, digits, '_', '-', '.'), or several separated by commas");
  }
  for (const std::string& a : so.sbatch_args) {
    // One option, written into the job script as an #SBATCH line: no whitespace, newline, quote
    // or shell metacharacter (the script is a shell script, and sbatch parses the line).
    bool ok = a.size() >= 2 && a[0] == '-';
    for (const unsigned char c : a) ok = ok && (std::isalnum(c) || std::string("-_=.,:/@%+").find(c) != std::string::npos);
    if (!ok)
      return bad("--sbatch-arg", a,
                 "one sbatch option written as --name=value (e.g. --account=A, --qos=high): letters, digits and "
                 "- _ = . , : / @ % + only (no spaces, quotes, newlines or shell metacharacters)");
  }
  return "";
}

int slurm_submit(const std::string& sweep_path, const SweepSpec& spec, const SweepOptions& opt,
                 const SlurmOptions& so) {
  if (so.units_per_task < 1) {
    std::cerr << "scfly: error: --points-per-task " << so.units_per_task << " is not allowed; expected at least 1\n";
    return 2;
  }
  if (const std::string why = slurm_options_problem(so); !why.empty()) {
    std::cerr << "scfly: error: " << why << "\n";
    return 2;
  }
  if (!so.dry_run && !in_path("sbatch")) {
    std::cerr << "scfly: error: --slurm needs sbatch, which is not in PATH (is this a Slurm submit host?)\n";
    return 2;
  }
  const auto subs = submissions(opt.db_path);
  // An earlier job still queued or running would run the same units again.
  for (const auto& [n, dir] : subs) {
    const Submission s = inspect(n, dir);
    if (s.jobid.empty()) continue;
    if (!s.queue_known) {
      std::cerr << "scfly: error: cannot ask squeue about job " << s.jobid << " (submission " << dir.string()
                << "); a new submission could run its points twice\n";
      return 2;
    }
    if (s.active()) {
      std::cerr << "scfly: error: job " << s.jobid << " (" << dir.string() << ") still has tasks queued or running; "
                << "wait for it (scfly sweep " << sweep_path << " --gather shows them) or scancel " << s.jobid
                << " first\n";
      return 2;
    }
  }
  SweepPlan plan;
  try {
    if (!subs.empty()) {
      const int64_t taken = merge_all(opt.db_path, subs, nullptr);
      if (taken) std::cerr << "gathered " << taken << " points from earlier submissions into " << opt.db_path << "\n";
    }
    SweepOptions po = opt;
    po.plan = &plan;
    const int rc = run_sweep(spec, po);
    if (rc) return rc;
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return e.exit_code();
  }
  const char* unit_name = plan.by_series ? "series" : "points";
  if (plan.missing.empty()) {
    std::cerr << "sweep " << spec.name << ": nothing to submit, all " << plan.units << " " << unit_name << " are in "
              << opt.db_path;
    if (!plan.failed.empty()) std::cerr << " (" << plan.failed.size() << " points failed; --retry-failed runs them)";
    std::cerr << "\n";
    return 0;
  }
  const int n = subs.empty() ? 1 : subs.back().first + 1;
  const fs::path dir = fs::path(abs_path(slurm_dir(opt.db_path))) / ("sub-" + std::to_string(n));
  std::error_code ec;
  fs::create_directories(dir / "logs", ec);
  if (ec) {
    std::cerr << "scfly: error: cannot create " << (dir / "logs").string() << ": " << ec.message() << "\n";
    return 2;
  }
  const size_t k = static_cast<size_t>(so.units_per_task);
  nlohmann::json tasks = nlohmann::json::array();
  for (size_t i = 0; i < plan.missing.size(); i += k)
    tasks.push_back(std::vector<std::string>(plan.missing.begin() + static_cast<long>(i),
                                             plan.missing.begin() + static_cast<long>(std::min(i + k, plan.missing.size()))));
  const int ntasks = static_cast<int>(tasks.size());
  try {
    // A series resumes from what is stored: its task's shard starts with those points.
    for (int i = 0; i < ntasks; ++i) {
      std::set<std::string> seed;
      for (const auto& u : tasks[static_cast<size_t>(i)]) {
        const auto it = plan.stored.find(u.get<std::string>());
        if (it != plan.stored.end()) seed.insert(it->second.begin(), it->second.end());
      }
      if (seed.empty()) continue;
      ResultsDb shard((dir / ("shard-" + std::to_string(i) + ".sqlite")).string());
      shard.merge_from(opt.db_path, &seed);
    }
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return e.exit_code();
  }
  {
    std::ofstream tf(dir / "tasks.json");
    tf << nlohmann::json{{"sweep", spec.name},
                         {"sweep_file", abs_path(sweep_path)},
                         {"db", abs_path(opt.db_path)},
                         {"units", unit_name},
                         {"retry_failed", opt.retry_failed},
                         {"ranks", opt.ranks},
                         {"mpirun", opt.mpirun},
                         {"tasks", tasks}}
              .dump(1)
       << "\n";
  }
  const std::string exe = fs::read_symlink("/proc/self/exe", ec).string();
  const std::string cwd = fs::current_path(ec).string();
  const fs::path script = dir / "job.sh";
  {
    std::ofstream js(script);
    js << "#!/bin/bash\n"
       << "# scfly sweep '" << spec.name << "', submission " << n << ": " << ntasks << (ntasks == 1 ? " array task" : " array tasks") << " of up to " << k
       << " " << unit_name << " each (" << plan.missing.size() << " " << unit_name << " missing of " << plan.units
       << ").\n"
       << "# Written by scfly " << SCFLY_GIT_REV << " on " << now_utc() << ". Each task runs its line of\n"
       << "# tasks.json into shard-<task>.sqlite here; merge them into the database with\n"
       << "#   scfly sweep " << abs_path(sweep_path) << " --db " << abs_path(opt.db_path) << " --gather\n"
       << "# Edit freely (modules, accounts, constraints). Submitted by hand, write its job id into\n"
       << "# the file jobid here, so that --gather can follow its tasks in the queue.\n"
       << "#SBATCH --job-name=scfly-" << spec.name << "\n"
       << "#SBATCH --array=0-" << ntasks - 1 << (so.max_parallel > 0 ? "%" + std::to_string(so.max_parallel) : "")
       << "\n"
       << "#SBATCH --output=" << (dir / "logs" / "task-%a.out").string() << "\n"
       << "#SBATCH --chdir=" << cwd << "\n";
    if (!so.partition.empty()) js << "#SBATCH --partition=" << so.partition << "\n";
    if (!so.time.empty()) js << "#SBATCH --time=" << so.time << "\n";
    if (!so.mem.empty()) js << "#SBATCH --mem=" << so.mem << "\n";
    // --ranks R: each point runs as `MPIRUN -n R scfly run` inside the task's R Slurm tasks.
    if (opt.ranks > 1) js << "#SBATCH --ntasks=" << opt.ranks << "\n";
    for (const auto& a : so.sbatch_args) js << "#SBATCH " << a << "\n";
    js << "\n# Site setup goes here (module load ..., spack load ...).\n\n"
       << "exec " << sh_quote(exe) << " sweep " << sh_quote(abs_path(sweep_path)) << " --slurm-task "
       << sh_quote(dir.string()) << "\n";
  }
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  if (so.dry_run) {
    std::cerr << "dry run: " << script.string() << " written, not submitted (" << ntasks << " tasks)\n";
    std::cout << read_text(script) << "\n";
    return 0;
  }
  const CmdResult r = run_cmd({"sbatch", "--parsable", script.string()});
  if (r.status != 0) {
    std::cerr << "scfly: error: sbatch " << script.string() << " failed"
              << (r.status < 0 ? "" : " (exit " + std::to_string(r.status) + ")") << ": " << r.out;
    fs::remove_all(dir, ec);  // nothing was submitted: the next --slurm reuses the number
    return 2;
  }
  const std::string jobid = first_line(r.out).substr(0, first_line(r.out).find(';'));
  std::ofstream(dir / "jobid") << jobid << "\n";
  std::cerr << "sweep " << spec.name << ": submitted job " << jobid << ", " << ntasks << " tasks for "
            << plan.missing.size() << " " << unit_name << " (" << plan.points_stored << " points already in "
            << opt.db_path << "); script " << script.string() << "\n";
  std::cout << jobid << "\n";
  return 0;
}

int slurm_task(const SweepSpec& spec, const SweepOptions& opt, const std::string& dir, int task) {
  if (task < 0) {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    if (!id) {
      std::cerr << "scfly: error: --slurm-task needs --task N or $SLURM_ARRAY_TASK_ID\n";
      return 2;
    }
    task = std::atoi(id);
  }
  const nlohmann::json tj = nlohmann::json::parse(std::ifstream(fs::path(dir) / "tasks.json"), nullptr, false);
  if (!tj.is_object() || !tj.contains("tasks") || !tj["tasks"].is_array()) {
    std::cerr << "scfly: error: --slurm-task: " << (fs::path(dir) / "tasks.json").string() << " is missing or not a task list\n";
    return 2;
  }
  if (task >= static_cast<int>(tj["tasks"].size())) {
    std::cerr << "scfly: error: task " << task << " is not in " << dir << " (it has " << tj["tasks"].size()
              << " tasks)\n";
    return 2;
  }
  std::set<std::string> units;
  for (const auto& u : tj["tasks"][static_cast<size_t>(task)]) units.insert(u.get<std::string>());
  SweepOptions o = opt;
  o.db_path = (fs::path(dir) / ("shard-" + std::to_string(task) + ".sqlite")).string();
  o.only_units = &units;
  o.retry_failed = tj.value("retry_failed", false);
  o.progress_bar = false;
  o.summary = false;  // a task has a part of the sweep: its summary would mislead
  o.jobs = 1;
  o.ranks = tj.value("ranks", 1);
  o.mpirun.clear();
  if (o.ranks > 1 && tj.contains("mpirun") && tj["mpirun"].is_array())
    for (const auto& t : tj["mpirun"]) o.mpirun.push_back(t.get<std::string>());
  if (o.ranks > 1 && o.mpirun.empty()) {
    std::cerr << "scfly: error: --slurm-task: " << (fs::path(dir) / "tasks.json").string() << " asks for "
              << o.ranks << " ranks per point and names no launcher (mpirun)\n";
    return 2;
  }
  // One point at a time over the task's ranks; without ranks, a point per CPU of the task.
  if (const char* c = std::getenv("SLURM_CPUS_PER_TASK"); c && o.ranks == 1) o.jobs = std::max(1, std::atoi(c));
  // The sweep file must still have every unit (a point's hash is its configuration).
  {
    SweepPlan check;
    SweepOptions po = o;
    po.plan = &check;
    if (const int rc = run_sweep(spec, po)) return rc;
    if (check.units != units.size()) {
      std::cerr << "scfly: error: the sweep file no longer has " << units.size() - check.units << " of task " << task
                << "'s " << units.size() << " units (edited since submission?); submit again\n";
      std::ofstream(fs::path(dir) / ("task-" + std::to_string(task) + ".status"))
          << nlohmann::json{{"exit", 2}, {"error", "sweep file changed"}}.dump() << "\n";
      return 2;
    }
  }
  std::cerr << "scfly task " << task << " of " << dir << ": " << units.size() << " " << tj.value("units", "units")
            << " with " << o.jobs << " jobs into " << o.db_path << "\n";
  const int rc = run_sweep(spec, o);
  std::ofstream(fs::path(dir) / ("task-" + std::to_string(task) + ".status"))
      << nlohmann::json{{"exit", rc}, {"ended", now_utc()}, {"host", [] {
                          char h[256] = "";
                          ::gethostname(h, sizeof h - 1);
                          return std::string(h);
                        }()}}
             .dump()
      << "\n";
  return rc;
}

int slurm_gather(const SweepSpec& spec, const SweepOptions& opt) {
  const auto subs = submissions(opt.db_path);
  if (subs.empty()) {
    std::cerr << "scfly: error: no cluster submission of this sweep: " << slurm_dir(opt.db_path)
              << " does not exist (submit with --slurm)\n";
    return 2;
  }
  int64_t taken = 0, left = 0;
  SweepPlan plan;
  try {
    taken = merge_all(opt.db_path, subs, &left);
    // The merged points join the sweep's revision at once (scfly plot shows them).
    const int revision = record_revision(spec, expand_sweep(spec), opt.db_path);
    SweepOptions po = opt;
    po.plan = &plan;
    if (const int rc = run_sweep(spec, po)) return rc;
    if (plan.by_series) {  // an adaptive sweep's points are the loads it chose
      std::vector<std::string> hs;
      for (const auto& [unit, hashes] : plan.stored) hs.insert(hs.end(), hashes.begin(), hashes.end());
      ResultsDb(opt.db_path).add_revision_points(spec.name, revision, hs);
    }
  } catch (const ConfigError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return 2;
  } catch (const DbError& e) {
    std::cerr << "scfly: error: " << e.what() << "\n";
    return e.exit_code();
  }
  bool active = false, squeue_down = false;
  std::cout << "sweep " << spec.name << ": " << subs.size() << " submission(s) in " << slurm_dir(opt.db_path) << "\n";
  for (const auto& [n, dir] : subs) {
    const Submission s = inspect(n, dir);
    active = active || s.active();
    squeue_down = squeue_down || (!s.jobid.empty() && !s.queue_known);
    std::map<std::string, int> count;
    for (const auto& st : s.state) ++count[st.rfind("sacct:", 0) == 0 ? "failed" : st == "lost" ? "failed" : st];
    std::cout << "  sub-" << n << (s.jobid.empty() ? " (not submitted)" : ", job " + s.jobid) << ": " << s.tasks
              << " tasks";
    for (const char* k : {"done", "running", "pending", "failed"}) std::cout << ", " << count[k] << " " << k;
    for (const auto& [k, c] : count)
      if (k != "done" && k != "running" && k != "pending" && k != "failed") std::cout << ", " << c << " " << k;
    std::cout << "\n";
    for (int i = 0; i < s.tasks; ++i) {
      const std::string& st = s.state[static_cast<size_t>(i)];
      if (st == "failed" || st == "lost" || st.rfind("sacct:", 0) == 0)
        std::cout << "    task " << i << ": " << s.detail[static_cast<size_t>(i)] << " (log " << task_log(s, i)
                  << ")\n";
    }
  }
  if (squeue_down) std::cout << "  (squeue did not answer: queued and running tasks are not known)\n";
  const char* unit_name = plan.by_series ? "series" : "points";
  std::cout << "merged " << taken << " new points into " << opt.db_path << " (" << left << " already there)\n"
            << plan.units - plan.missing.size() << " of " << plan.units << " " << unit_name << " complete, "
            << plan.points_stored << " points in the database, " << plan.failed.size() << " failed\n";
  for (const auto& [label, err] : plan.failed) std::cout << "  FAILED " << label << ": " << first_line(err) << "\n";
  if (!plan.missing.empty()) {
    std::cout << plan.missing.size() << " " << (plan.missing.size() == 1 ? (plan.by_series ? "series" : "point") : unit_name) << " missing"
              << (active ? "; tasks are still queued or running"
                         : "; nothing is queued: `scfly sweep ... --slurm` submits them again")
              << "\n";
    return 4;
  }
  std::cout.flush();
  // Every point is in: the ordinary sweep runs nothing and prints the summary.
  SweepOptions so = opt;
  so.retry_failed = false;
  so.progress_bar = false;
  return run_sweep(spec, so);
}

}  // namespace scfly
