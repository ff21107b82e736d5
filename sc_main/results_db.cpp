#include "sc_main/results_db.h"

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <cmath>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "sc_main/exit_codes.h"
#include "sc_main/output_file.h"

namespace scfly {

namespace {

std::string quote_ident(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const char* sql_type(const nlohmann::json& v) {
  if (v.is_number_integer() || v.is_number_unsigned() || v.is_boolean()) return "INTEGER";
  if (v.is_number_float()) return "REAL";
  // A metric first seen as null (not measured, report.cpp) gets no declared type, so the
  // numbers of later points are stored as numbers (a TEXT column would turn them to text).
  if (v.is_null()) return "";
  return "TEXT";
}

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : m_db(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &m_s, nullptr) != SQLITE_OK)
      throw DbError(std::string("results database: ") + sqlite3_errmsg(db) + " in: " + sql, sqlite3_errcode(db));
  }
  ~Stmt() { sqlite3_finalize(m_s); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  void bind(int i, const nlohmann::json& v) {
    int rc;
    if (v.is_null()) rc = sqlite3_bind_null(m_s, i);
    else if (v.is_boolean()) rc = sqlite3_bind_int64(m_s, i, v.get<bool>() ? 1 : 0);
    else if (v.is_number_unsigned())
      rc = sqlite3_bind_int64(m_s, i, static_cast<sqlite3_int64>(v.get<uint64_t>()));
    else if (v.is_number_integer()) rc = sqlite3_bind_int64(m_s, i, v.get<int64_t>());
    else if (v.is_number_float()) {
      const double d = v.get<double>();
      rc = std::isfinite(d) ? sqlite3_bind_double(m_s, i, d) : sqlite3_bind_null(m_s, i);
    } else if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      rc = sqlite3_bind_text(m_s, i, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    } else if (v.is_array() && v.empty()) {
      rc = sqlite3_bind_null(m_s, i);
    } else {
      const std::string s = v.dump();
      rc = sqlite3_bind_text(m_s, i, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) throw DbError(std::string("results database: ") + sqlite3_errmsg(m_db), rc);
  }
  bool step() {
    const int rc = sqlite3_step(m_s);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw DbError(std::string("results database: ") + sqlite3_errmsg(m_db), rc);
  }
  void reset() {
    sqlite3_reset(m_s);
    sqlite3_clear_bindings(m_s);
  }
  sqlite3_stmt* get() { return m_s; }
  std::string text(int col) {
    const unsigned char* t = sqlite3_column_text(m_s, col);
    return t ? reinterpret_cast<const char*>(t) : "";
  }

 private:
  sqlite3* m_db;
  sqlite3_stmt* m_s = nullptr;
};

}  // namespace

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::pair<std::string, nlohmann::json>> flatten_columns(const nlohmann::json& j,
                                                                   const std::string& prefix) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string name = prefix.empty() ? it.key() : prefix + "_" + it.key();
    if (it->is_object()) {
      auto sub = flatten_columns(*it, name);
      out.insert(out.end(), sub.begin(), sub.end());
    } else {
      out.emplace_back(name, *it);
    }
  }
  return out;
}

ResultsDb::ResultsDb(const std::string& path) : m_path(path) {
  if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
    sqlite3_close(m_db);
    m_db = nullptr;
    throw DbError("results database '" + path + "' cannot be opened: " + msg);
  }
  sqlite3_busy_timeout(m_db, 10000);
  exec("CREATE TABLE IF NOT EXISTS points (id INTEGER PRIMARY KEY, hash TEXT UNIQUE NOT NULL, "
       "sweep TEXT, status TEXT, error TEXT, wall_s REAL, git_rev TEXT, created TEXT, "
       "config_json TEXT)");
  exec("CREATE TABLE IF NOT EXISTS timeseries (point_id INTEGER, bin INTEGER, t_start INTEGER, "
       "t_end INTEGER, latency_avg REAL, latency_inj_avg REAL, network_latency_avg REAL, "
       "accepted_load REAL, generated_load REAL, nonminimal_fraction REAL, packets INTEGER)");
  exec("CREATE INDEX IF NOT EXISTS timeseries_point ON timeseries(point_id, bin)");
  exec("CREATE TABLE IF NOT EXISTS switch_series (point_id INTEGER, name TEXT, bin INTEGER, "
       "switch INTEGER, value REAL)");
  exec("CREATE INDEX IF NOT EXISTS switch_series_point ON switch_series(point_id, name)");
  exec("CREATE TABLE IF NOT EXISTS saturation (sweep TEXT, series TEXT, points INTEGER, "
       "seeds INTEGER, zero_load_latency REAL, saturation_throughput REAL, saturation_load REAL, "
       "latency_knee_load REAL, latency_factor REAL)");
  exec("CREATE TABLE IF NOT EXISTS sweep_revisions (sweep TEXT NOT NULL, revision INTEGER NOT NULL, "
       "definition TEXT, points INTEGER, created TEXT, source TEXT, PRIMARY KEY (sweep, revision))");
  exec("CREATE TABLE IF NOT EXISTS sweep_points (sweep TEXT NOT NULL, revision INTEGER NOT NULL, "
       "hash TEXT NOT NULL, PRIMARY KEY (sweep, revision, hash))");
  exec("CREATE TABLE IF NOT EXISTS claims (hash TEXT PRIMARY KEY, host TEXT, pid INTEGER, started TEXT)");
  m_point_cols = columns("points");
  // A database written before revisions: each sweep's points become its revision 1
  // (definition 'legacy', adopted by the next run of the sweep when it has them all).
  if (count("sweep_revisions") == 0 && count("points") > 0) {
    exec("BEGIN IMMEDIATE");
    try {
      if (count("sweep_revisions") == 0) {
        Stmt r(m_db,
               "INSERT INTO sweep_revisions (sweep, revision, definition, points, created, source) "
               "SELECT sweep, 1, 'legacy', COUNT(*), ?, '' FROM points WHERE sweep IS NOT NULL GROUP BY sweep");
        r.bind(1, now_utc());
        r.step();
        exec("INSERT OR IGNORE INTO sweep_points (sweep, revision, hash) SELECT sweep, 1, hash FROM points "
             "WHERE sweep IS NOT NULL");
      }
      exec("COMMIT");
    } catch (...) {
      sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
}

ResultsDb::~ResultsDb() { sqlite3_close(m_db); }

bool DbError::write_failed() const {
  const int primary = m_code & 0xff;  // an extended code's primary code
  return primary == SQLITE_FULL || primary == SQLITE_IOERR;
}

int DbError::exit_code() const { return write_failed() ? kExitWriteFailed : kExitBadInput; }

void ResultsDb::exec(const std::string& sql) const {
  char* err = nullptr;
  if (const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw DbError("results database '" + m_path + "': " + msg, rc);
  }
}

std::set<std::string> ResultsDb::columns(const std::string& table) const {
  std::set<std::string> cols;
  Stmt s(m_db, "PRAGMA table_info(" + quote_ident(table) + ")");
  while (s.step()) cols.insert(s.text(1));
  return cols;
}

void ResultsDb::ensure_column(const std::string& table, const std::string& col,
                              const nlohmann::json& v) {
  if (m_point_cols.count(col)) return;
  exec("ALTER TABLE " + quote_ident(table) + " ADD COLUMN " + quote_ident(col) + " " + sql_type(v));
  m_point_cols.insert(col);
}

std::set<std::string> ResultsDb::hashes(bool include_failed) const {
  std::set<std::string> out;
  Stmt s(m_db, include_failed ? "SELECT hash FROM points"
                              : "SELECT hash FROM points WHERE status = 'ok'");
  while (s.step()) out.insert(s.text(0));
  return out;
}

int64_t ResultsDb::insert(const PointRecord& r) {
  std::vector<std::pair<std::string, nlohmann::json>> cols = {
      {"hash", r.hash},     {"sweep", r.sweep},     {"status", r.status},
      {"error", r.error},   {"wall_s", r.wall_s},   {"git_rev", r.git_rev},
      {"created", now_utc()}, {"config_json", r.config.dump()}};
  for (auto& c : flatten_columns(r.config)) cols.push_back(std::move(c));
  if (r.labels.is_object())
    for (auto it = r.labels.begin(); it != r.labels.end(); ++it) cols.emplace_back(it.key(), *it);
  if (r.metrics.is_object())
    for (auto it = r.metrics.begin(); it != r.metrics.end(); ++it) cols.emplace_back(it.key(), *it);

  exec("BEGIN IMMEDIATE");
  try {
    m_point_cols = columns("points");  // another sweep on this database may have added some
    for (const auto& [k, v] : cols) ensure_column("points", k, v);
    {
      Stmt del(m_db, "SELECT id FROM points WHERE hash = ?");
      del.bind(1, r.hash);
      if (del.step()) {
        const int64_t old = sqlite3_column_int64(del.get(), 0);
        exec("DELETE FROM timeseries WHERE point_id = " + std::to_string(old));
        exec("DELETE FROM switch_series WHERE point_id = " + std::to_string(old));
        exec("DELETE FROM points WHERE id = " + std::to_string(old));
      }
    }
    std::string names, marks;
    for (const auto& [k, v] : cols) {
      names += (names.empty() ? "" : ", ") + quote_ident(k);
      marks += marks.empty() ? "?" : ", ?";
    }
    Stmt ins(m_db, "INSERT INTO points (" + names + ") VALUES (" + marks + ")");
    for (size_t i = 0; i < cols.size(); ++i) ins.bind(static_cast<int>(i + 1), cols[i].second);
    ins.step();
    const int64_t id = sqlite3_last_insert_rowid(m_db);

    const nlohmann::json& ts = r.timeseries;
    if (ts.is_object() && ts.value("bin_cycles", 0) > 0) {
      Stmt t(m_db,
             "INSERT INTO timeseries (point_id, bin, t_start, t_end, latency_avg, latency_inj_avg, "
             "network_latency_avg, accepted_load, generated_load, nonminimal_fraction, packets) "
             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      const size_t nb = ts["t_start"].size();
      for (size_t b = 0; b < nb; ++b) {
        t.bind(1, id);
        t.bind(2, static_cast<int64_t>(b));
        int i = 3;
        for (const char* k : {"t_start", "t_end", "latency_avg", "latency_inj_avg",
                              "network_latency_avg", "accepted_load", "generated_load",
                              "nonminimal_fraction", "packets"})
          t.bind(i++, ts[k][b]);
        t.step();
        t.reset();
      }
      if (ts.contains("per_switch")) {
        Stmt sw(m_db, "INSERT INTO switch_series (point_id, name, bin, switch, value) VALUES (?, ?, ?, ?, ?)");
        for (auto it = ts["per_switch"].begin(); it != ts["per_switch"].end(); ++it) {
          for (size_t b = 0; b < it->size(); ++b) {
            const auto& row = (*it)[b];
            for (size_t s = 0; s < row.size(); ++s) {
              sw.bind(1, id);
              sw.bind(2, it.key());
              sw.bind(3, static_cast<int64_t>(b));
              sw.bind(4, static_cast<int64_t>(s));
              sw.bind(5, row[s]);
              sw.step();
              sw.reset();
            }
          }
        }
      }
    }
    {
      Stmt c(m_db, "DELETE FROM claims WHERE hash = ?");
      c.bind(1, r.hash);
      c.step();
    }
    exec("COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    m_point_cols = columns("points");
    throw;
  }
}

std::pair<int64_t, int64_t> ResultsDb::merge_from(const std::string& path, const std::set<std::string>* only) {
  if (!std::ifstream(path)) throw DbError("results database '" + path + "' cannot be read");
  {
    Stmt att(m_db, "ATTACH DATABASE ? AS shard");
    att.bind(1, path);
    att.step();
  }
  struct Detach {
    sqlite3* db;
    ~Detach() { sqlite3_exec(db, "DETACH DATABASE shard", nullptr, nullptr, nullptr); }
  } detach{m_db};
  // A shard written by an older build may lack a table: then it has no rows of it.
  auto shard_columns = [&](const std::string& table) {
    std::vector<std::pair<std::string, std::string>> cols;  // name, declared type
    Stmt s(m_db, "PRAGMA shard.table_info(" + quote_ident(table) + ")");
    while (s.step()) cols.emplace_back(s.text(1), s.text(2));
    return cols;
  };
  const auto pcols = shard_columns("points");
  if (pcols.empty()) throw DbError("'" + path + "' is not a scfly results database (no points table)");
  int64_t taken = 0, left = 0;
  exec("BEGIN IMMEDIATE");
  try {
    std::string names;  // every shard column but id, now also a column here
    for (const auto& [c, type] : pcols) {
      if (c == "id") continue;
      if (!m_point_cols.count(c)) {
        exec("ALTER TABLE points ADD COLUMN " + quote_ident(c) + " " + (type.empty() ? "TEXT" : type));
        m_point_cols.insert(c);
      }
      names += (names.empty() ? "" : ", ") + quote_ident(c);
    }
    // The series tables have fixed columns (the constructor's), bar point_id.
    auto series_cols = [&](const std::string& table) {
      std::string out;
      for (const auto& [c, type] : shard_columns(table))
        if (c != "point_id") out += ", " + quote_ident(c);
      return out;
    };
    const std::string ts_cols = series_cols("timeseries"), sw_cols = series_cols("switch_series");
    std::vector<std::tuple<int64_t, std::string, std::string>> rows;  // shard id, hash, status
    {
      Stmt s(m_db, "SELECT id, hash, status FROM shard.points ORDER BY id");
      while (s.step()) rows.emplace_back(sqlite3_column_int64(s.get(), 0), s.text(1), s.text(2));
    }
    for (const auto& [sid, hash, status] : rows) {
      if (only && !only->count(hash)) continue;
      int64_t here = -1;
      std::string here_status;
      {
        Stmt q(m_db, "SELECT id, status FROM main.points WHERE hash = ?");
        q.bind(1, hash);
        if (q.step()) {
          here = sqlite3_column_int64(q.get(), 0);
          here_status = q.text(1);
        }
      }
      if (here >= 0 && !(here_status != "ok" && status == "ok")) {
        ++left;
        continue;
      }
      if (here >= 0) {
        exec("DELETE FROM main.timeseries WHERE point_id = " + std::to_string(here));
        exec("DELETE FROM main.switch_series WHERE point_id = " + std::to_string(here));
        exec("DELETE FROM main.points WHERE id = " + std::to_string(here));
      }
      exec("INSERT INTO main.points (" + names + ") SELECT " + names + " FROM shard.points WHERE id = " +
           std::to_string(sid));
      const std::string id = std::to_string(sqlite3_last_insert_rowid(m_db));
      if (!ts_cols.empty())
        exec("INSERT INTO main.timeseries (point_id" + ts_cols + ") SELECT " + id + ts_cols +
             " FROM shard.timeseries WHERE point_id = " + std::to_string(sid) + " ORDER BY rowid");
      if (!sw_cols.empty())
        exec("INSERT INTO main.switch_series (point_id" + sw_cols + ") SELECT " + id + sw_cols +
             " FROM shard.switch_series WHERE point_id = " + std::to_string(sid) + " ORDER BY rowid");
      ++taken;
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    m_point_cols = columns("points");
    throw;
  }
  return {taken, left};
}

namespace {

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "?";
  return buf;
}

}  // namespace

SweepRevision ResultsDb::use_revision(const std::string& sweep, const std::string& definition,
                                      const std::vector<std::string>& hashes, const std::string& source) {
  SweepRevision out;
  auto members = [&](int rev) {
    std::set<std::string> m;
    Stmt s(m_db, "SELECT hash FROM sweep_points WHERE sweep = ? AND revision = ?");
    s.bind(1, sweep);
    s.bind(2, rev);
    while (s.step()) m.insert(s.text(0));
    return m;
  };
  exec("BEGIN IMMEDIATE");
  try {
    int latest = 0;
    std::string latest_def;
    {
      Stmt s(m_db, "SELECT revision, definition FROM sweep_revisions WHERE sweep = ? ORDER BY revision DESC LIMIT 1");
      s.bind(1, sweep);
      if (s.step()) {
        latest = sqlite3_column_int(s.get(), 0);
        latest_def = s.text(1);
      }
    }
    const std::set<std::string> now(hashes.begin(), hashes.end());
    bool adopt = latest_def == definition;
    if (!adopt && latest_def == "legacy") {  // adopted when this sweep has every point it holds
      const std::set<std::string> old = members(latest);
      adopt = std::includes(now.begin(), now.end(), old.begin(), old.end());
      if (adopt) {
        Stmt u(m_db, "UPDATE sweep_revisions SET definition = ?, source = ? WHERE sweep = ? AND revision = ?");
        u.bind(1, definition);
        u.bind(2, source);
        u.bind(3, sweep);
        u.bind(4, latest);
        u.step();
      }
    }
    if (adopt) {
      out.number = latest;
    } else {
      out.number = latest + 1;
      out.fresh = true;
      out.previous = latest;
      if (latest > 0) {
        const std::set<std::string> old = members(latest);
        for (const auto& h : now) (old.count(h) ? out.kept : out.added) += 1;
        for (const auto& h : old) out.dropped += now.count(h) ? 0 : 1;
      } else {
        out.added = now.size();
      }
      Stmt ins(m_db, "INSERT INTO sweep_revisions (sweep, revision, definition, points, created, source) "
                     "VALUES (?, ?, ?, ?, ?, ?)");
      ins.bind(1, sweep);
      ins.bind(2, out.number);
      ins.bind(3, definition);
      ins.bind(4, static_cast<int64_t>(now.size()));
      ins.bind(5, now_utc());
      ins.bind(6, source);
      ins.step();
    }
    {
      Stmt ins(m_db, "INSERT OR IGNORE INTO sweep_points (sweep, revision, hash) VALUES (?, ?, ?)");
      for (const auto& h : now) {
        ins.bind(1, sweep);
        ins.bind(2, out.number);
        ins.bind(3, h);
        ins.step();
        ins.reset();
      }
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return out;
}

void ResultsDb::add_revision_points(const std::string& sweep, int revision, const std::vector<std::string>& hashes) {
  exec("BEGIN IMMEDIATE");
  try {
    Stmt ins(m_db, "INSERT OR IGNORE INTO sweep_points (sweep, revision, hash) VALUES (?, ?, ?)");
    for (const auto& h : hashes) {
      ins.bind(1, sweep);
      ins.bind(2, revision);
      ins.bind(3, h);
      ins.step();
      ins.reset();
    }
    Stmt n(m_db, "UPDATE sweep_revisions SET points = (SELECT COUNT(*) FROM sweep_points WHERE sweep = ?1 AND "
                 "revision = ?2) WHERE sweep = ?1 AND revision = ?2");
    n.bind(1, sweep);
    n.bind(2, revision);
    n.step();
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

Claim ResultsDb::claim(const std::string& hash, bool retry_failed) {
  static const std::string host = host_name();
  const int64_t me = ::getpid();
  exec("BEGIN IMMEDIATE");
  try {
    Claim out = Claim::Claimed;
    {
      Stmt s(m_db, "SELECT status FROM points WHERE hash = ?");
      s.bind(1, hash);
      if (s.step() && (s.text(0) == "ok" || !retry_failed)) out = Claim::Stored;
    }
    if (out == Claim::Claimed) {
      Stmt s(m_db, "SELECT host, pid FROM claims WHERE hash = ?");
      s.bind(1, hash);
      if (s.step()) {
        const std::string h = s.text(0);
        const int64_t pid = sqlite3_column_int64(s.get(), 1);
        const bool mine = h == host && pid == me;
        const bool gone = h == host && pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
        if (!mine && !gone) out = Claim::Busy;
      }
    }
    if (out == Claim::Claimed) {
      Stmt c(m_db, "INSERT OR REPLACE INTO claims (hash, host, pid, started) VALUES (?, ?, ?, ?)");
      c.bind(1, hash);
      c.bind(2, host);
      c.bind(3, me);
      c.bind(4, now_utc());
      c.step();
    }
    exec("COMMIT");
    return out;
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void ResultsDb::release_claims() {
  static const std::string host = host_name();
  Stmt c(m_db, "DELETE FROM claims WHERE host = ? AND pid = ?");
  c.bind(1, host);
  c.bind(2, static_cast<int64_t>(::getpid()));
  c.step();
}

StoredPoint ResultsDb::stored_point(const std::string& hash) const {
  StoredPoint p;
  const bool have_metrics = m_point_cols.count("accepted_load") && m_point_cols.count("latency_avg") &&
                            m_point_cols.count("offered_load");
  // A column another process added since this one opened the database is read too.
  const std::set<std::string> cols = have_metrics ? m_point_cols : columns("points");
  const bool metrics = cols.count("accepted_load") && cols.count("latency_avg") && cols.count("offered_load");
  const bool generated = metrics && cols.count("generated_load");
  Stmt s(m_db, std::string("SELECT id, hash, status, config_json, ") +
                   (metrics ? "accepted_load, latency_avg, offered_load, " : "NULL, NULL, NULL, ") +
                   (generated ? "generated_load" : "NULL") + ", error FROM points WHERE hash = ?");
  s.bind(1, hash);
  if (!s.step()) return p;
  p.hash = s.text(1);
  p.id = sqlite3_column_int64(s.get(), 0);
  p.status = s.text(2);
  p.error = s.text(8);
  p.config = nlohmann::json::parse(s.text(3), nullptr, false);
  if (metrics && sqlite3_column_type(s.get(), 4) != SQLITE_NULL) {
    p.has_metrics = true;
    p.accepted_load = sqlite3_column_double(s.get(), 4);
    p.latency_avg = sqlite3_column_type(s.get(), 5) != SQLITE_NULL ? sqlite3_column_double(s.get(), 5) : 0;
    p.offered_load = sqlite3_column_double(s.get(), 6);
    if (generated && sqlite3_column_type(s.get(), 7) != SQLITE_NULL)
      p.generated_load = sqlite3_column_double(s.get(), 7);
  }
  return p;
}

std::vector<StoredPoint> ResultsDb::points_with_hashes(const std::set<std::string>& hashes) const {
  std::vector<StoredPoint> out;
  const bool have_metrics = m_point_cols.count("accepted_load") && m_point_cols.count("latency_avg") &&
                            m_point_cols.count("offered_load");
  const bool have_generated = have_metrics && m_point_cols.count("generated_load");
  Stmt s(m_db, have_generated ? "SELECT id, hash, status, config_json, accepted_load, latency_avg, "
                                "offered_load, generated_load, error FROM points ORDER BY id"
               : have_metrics ? "SELECT id, hash, status, config_json, accepted_load, latency_avg, "
                                "offered_load, NULL, error FROM points ORDER BY id"
                              : "SELECT id, hash, status, config_json, NULL, NULL, NULL, NULL, error "
                                "FROM points ORDER BY id");
  while (s.step()) {
    StoredPoint p;
    p.hash = s.text(1);
    if (!hashes.count(p.hash)) continue;
    p.id = sqlite3_column_int64(s.get(), 0);
    p.status = s.text(2);
    p.error = s.text(8);
    p.config = nlohmann::json::parse(s.text(3), nullptr, false);
    if (have_metrics && sqlite3_column_type(s.get(), 4) != SQLITE_NULL) {
      p.has_metrics = true;
      p.accepted_load = sqlite3_column_double(s.get(), 4);
      // NULL when no packet was measured; 0 then, as the sweep reads a fresh run's null.
      p.latency_avg = sqlite3_column_type(s.get(), 5) != SQLITE_NULL ? sqlite3_column_double(s.get(), 5) : 0;
      p.offered_load = sqlite3_column_double(s.get(), 6);
      if (have_generated && sqlite3_column_type(s.get(), 7) != SQLITE_NULL)
        p.generated_load = sqlite3_column_double(s.get(), 7);
    }
    out.push_back(std::move(p));
  }
  return out;
}

int64_t ResultsDb::count(const std::string& table) const {
  Stmt s(m_db, "SELECT COUNT(*) FROM " + quote_ident(table));
  s.step();
  return sqlite3_column_int64(s.get(), 0);
}

nlohmann::json ResultsDb::saturation_rows(const std::string& sweep) const {
  nlohmann::json rows = nlohmann::json::array();
  Stmt s(m_db, "SELECT series, points, seeds, zero_load_latency, saturation_throughput, saturation_load, "
               "latency_knee_load, latency_factor FROM saturation WHERE sweep = ? ORDER BY rowid");
  s.bind(1, sweep);
  const char* names[] = {"series", "points", "seeds", "zero_load_latency", "saturation_throughput",
                         "saturation_load", "latency_knee_load", "latency_factor"};
  while (s.step()) {
    nlohmann::json r;
    for (int i = 0; i < 8; ++i) {
      switch (sqlite3_column_type(s.get(), i)) {
        case SQLITE_NULL: r[names[i]] = nullptr; break;
        case SQLITE_INTEGER: r[names[i]] = sqlite3_column_int64(s.get(), i); break;
        case SQLITE_FLOAT: r[names[i]] = sqlite3_column_double(s.get(), i); break;
        default: r[names[i]] = s.text(i);
      }
    }
    rows.push_back(r);
  }
  return rows;
}

nlohmann::json ResultsDb::point_values(const std::string& hash, const std::vector<std::string>& cols) const {
  nlohmann::json out = nlohmann::json::object();
  std::vector<std::string> have;
  std::string sql = "SELECT id";
  for (const std::string& c : cols)
    if (m_point_cols.count(c)) {
      have.push_back(c);
      sql += ", " + quote_ident(c);
    }
  Stmt s(m_db, sql + " FROM points WHERE hash = ?");
  s.bind(1, hash);
  if (!s.step()) return out;
  out["id"] = sqlite3_column_int64(s.get(), 0);
  for (const std::string& c : cols) out[c] = nullptr;
  for (size_t i = 0; i < have.size(); ++i) {
    const int col = static_cast<int>(i) + 1;
    switch (sqlite3_column_type(s.get(), col)) {
      case SQLITE_NULL: break;
      case SQLITE_INTEGER: out[have[i]] = sqlite3_column_int64(s.get(), col); break;
      case SQLITE_FLOAT: out[have[i]] = sqlite3_column_double(s.get(), col); break;
      default: {
        const std::string t = s.text(col);
        nlohmann::json j = nlohmann::json::parse(t, nullptr, false);
        out[have[i]] = j.is_discarded() ? nlohmann::json(t) : j;
      }
    }
  }
  return out;
}

std::vector<nlohmann::json> ResultsDb::timeseries_column(int64_t point_id, const std::string& col) const {
  std::vector<nlohmann::json> out;
  Stmt s(m_db, "SELECT " + quote_ident(col) + " FROM timeseries WHERE point_id = ? ORDER BY bin");
  s.bind(1, point_id);
  while (s.step()) {
    if (sqlite3_column_type(s.get(), 0) == SQLITE_NULL) out.emplace_back(nullptr);
    else out.emplace_back(sqlite3_column_double(s.get(), 0));
  }
  return out;
}

void ResultsDb::write_saturation(const std::string& sweep, const nlohmann::json& rows) {
  exec("BEGIN IMMEDIATE");
  try {
    {
      Stmt d(m_db, "DELETE FROM saturation WHERE sweep = ?");
      d.bind(1, sweep);
      d.step();
    }
    Stmt ins(m_db,
             "INSERT INTO saturation (sweep, series, points, seeds, zero_load_latency, "
             "saturation_throughput, saturation_load, latency_knee_load, latency_factor) "
             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& r : rows) {
      ins.bind(1, sweep);
      int i = 2;
      for (const char* k : {"series", "points", "seeds", "zero_load_latency", "saturation_throughput",
                            "saturation_load", "latency_knee_load", "latency_factor"})
        ins.bind(i++, r.value(k, nlohmann::json()));
      ins.step();
      ins.reset();
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::string ResultsDb::revision_condition(const std::string& sweep, const std::string& revision,
                                          bool point_id) const {
  std::map<std::string, std::vector<int64_t>> revs;
  {
    Stmt s(m_db, "SELECT sweep, revision FROM sweep_revisions ORDER BY sweep, revision");
    while (s.step()) revs[s.text(0)].push_back(sqlite3_column_int64(s.get(), 1));
  }
  int64_t number = 0;
  if (!revision.empty() && revision != "all") {
    char* end = nullptr;
    number = std::strtoll(revision.c_str(), &end, 10);
    if (*end != '\0' || number < 1 || revision[0] == '+' || revision[0] == ' ')
      throw DbError("--revision '" + revision + "' is not allowed; expected a revision number (1, 2, ...) or all");
  }
  auto quote = [](const std::string& v) {
    std::string q = "'";
    for (char c : v) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
  };
  const std::string on = point_id ? "point_id IN (SELECT id FROM points WHERE hash IN " : "hash IN ";
  const std::string close = point_id ? ")" : "";
  if (revs.empty()) {  // no revisions recorded (a Slurm task's shard)
    if (number > 0) throw DbError("--revision " + revision + ": this database records no revisions");
    if (sweep.empty()) return "";
    return point_id ? "point_id IN (SELECT id FROM points WHERE sweep = " + quote(sweep) + ")" : "sweep = " + quote(sweep);
  }
  if (!sweep.empty() && !revs.count(sweep)) {
    std::string names;
    for (const auto& [n, r] : revs) names += (names.empty() ? "" : ", ") + n;
    throw DbError("--sweep '" + sweep + "': no such sweep in the database; it holds " + names);
  }
  if (revision == "all")
    return sweep.empty() ? "" : on + "(SELECT hash FROM sweep_points WHERE sweep = " + quote(sweep) + ")" + close;
  if (number > 0) {
    std::string name = sweep;
    if (name.empty()) {
      if (revs.size() != 1) {
        std::string names;
        for (const auto& [n, r] : revs) names += (names.empty() ? "" : ", ") + n;
        throw DbError("--revision " + revision + ": the database holds the sweeps " + names + "; name one with --sweep");
      }
      name = revs.begin()->first;
    }
    const auto& have = revs[name];
    if (std::find(have.begin(), have.end(), number) == have.end()) {
      std::string list;
      for (int64_t r : have) list += (list.empty() ? "" : ", ") + std::to_string(r);
      throw DbError("--revision " + revision + ": sweep '" + name + "' has revisions " + list);
    }
    return on + "(SELECT hash FROM sweep_points WHERE sweep = " + quote(name) +
           " AND revision = " + std::to_string(number) + ")" + close;
  }
  return on + "(SELECT sp.hash FROM sweep_points sp JOIN (SELECT sweep, MAX(revision) AS r FROM sweep_revisions "
              "GROUP BY sweep) l ON sp.sweep = l.sweep AND sp.revision = l.r" +
         (sweep.empty() ? std::string() : " WHERE sp.sweep = " + quote(sweep)) + ")" + close;
}

int64_t ResultsDb::export_csv(const std::string& table, const std::string& path, const std::string& where) const {
  if (!columns(table).size())
    throw DbError("results database '" + m_path + "' has no table '" + table + "'");
  if (const std::string why = output_problem(path); !why.empty()) throw DbError("-o: " + why);
  std::ostringstream out;  // written whole at the end: a failed write keeps an old file
  const bool filtered = !where.empty() && (table == "points" || table == "timeseries" || table == "switch_series");
  Stmt s(m_db, "SELECT * FROM " + quote_ident(table) + (filtered ? " WHERE " + where : std::string()));
  const int n = sqlite3_column_count(s.get());
  auto csv = [](const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (int c = 0; c < n; ++c) out << (c ? "," : "") << csv(sqlite3_column_name(s.get(), c));
  out << "\n";
  int64_t rows = 0;
  while (s.step()) {
    for (int c = 0; c < n; ++c) {
      if (c) out << ",";
      const int t = sqlite3_column_type(s.get(), c);
      if (t == SQLITE_NULL) continue;
      if (t == SQLITE_FLOAT) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.10g", sqlite3_column_double(s.get(), c));
        out << buf;
      } else {
        out << csv(s.text(c));
      }
    }
    out << "\n";
    ++rows;
  }
  if (const std::string why = write_output(path, out.str()); !why.empty()) throw WriteError("-o: " + why);
  return rows;
}

}  // namespace scfly
