// The results database of sweeps (SQLite). One file holds any number of sweeps.
//
// Table `points`: one row per simulation point. Fixed columns: id, hash (the point's config
// hash, unique: a point already present is never run again), sweep (the sweep's name),
// status ('ok' or 'error'), error (message), wall_s (wall time of the whole `scfly run`),
// git_rev, created (UTC), config_json (the resolved configuration). Then one column per
// config key (dotted path with dots as underscores: topology_p, switch_vcs_local, load,
// routing, ...; lists such as `phases` as JSON text, NULL when empty) and one per metric
// under its JSON name (accepted_load, latency_avg, ...; lists as JSON text). Columns are
// added as new keys appear, so the table grows with the simulator.
// Table `timeseries` (point_id, bin, t_start, t_end, latency_avg, latency_inj_avg,
// network_latency_avg, accepted_load, generated_load, nonminimal_fraction, packets) and
// table `switch_series` (point_id, name, bin, switch, value) hold the time series.
// Table `saturation` holds the saturation summary of each sweep's series.
// Table `sweep_revisions` (sweep, revision, definition, points, created, source): one row per
// revision of a sweep. A sweep run whose definition (the hash of its points' configuration
// hashes, and for an adaptive sweep of its search or early-stop settings) differs from the
// latest revision of the same sweep name starts a new revision; the same definition resumes
// the latest. Table `sweep_points` (sweep, revision, hash) lists each revision's points by
// configuration hash; a point shared by two revisions is stored (and run) once. Readers
// (scfly plot) show the latest revision of each sweep unless asked for another.
// Table `claims` (hash, host, pid, started): a point a running sweep has started; another
// sweep on the same database waits for it instead of running it too. The row goes when the
// point is stored or the sweep ends; a claim whose process is gone (same host) is taken over.
#pragma once

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace scfly {

// A results-database error. `sqlite_code` is SQLite's result code when SQLite raised it: a
// write the disk refused (SQLITE_FULL, SQLITE_IOERR) is a failed write, exit 5 like any
// other output; anything else (not a database, no such sweep, a bad request) is bad input,
// exit 2 (docs/reliability.md).
struct DbError : std::runtime_error {
  explicit DbError(const std::string& what, int sqlite_code = 0)
      : std::runtime_error(what), m_code(sqlite_code) {}
  bool write_failed() const;
  int exit_code() const;

 private:
  int m_code;
};

// A row of `points` as the sweep runner records it.
struct PointRecord {
  std::string hash, sweep, status, error, git_rev;
  double wall_s = 0;
  nlohmann::json config;      // config_to_json echo
  nlohmann::json labels;      // variant axes: name -> variant (columns of their own)
  nlohmann::json metrics;     // null for a point that produced none
  nlohmann::json timeseries;  // null when none
};

// A finished point as read back (for saturation analysis and tests).
struct StoredPoint {
  int64_t id = 0;
  std::string hash, status, error;
  nlohmann::json config;  // parsed config_json
  double accepted_load = 0, latency_avg = 0, offered_load = 0;
  double generated_load = -1;  // -1: not recorded
  bool has_metrics = false;
};

// The current UTC time as 2026-01-31T12:00:00Z (the `created` column's format).
std::string now_utc();

// Flattens a JSON object into (column, value) pairs: nested objects joined with '_',
// arrays kept as JSON values.
std::vector<std::pair<std::string, nlohmann::json>> flatten_columns(const nlohmann::json& j,
                                                                   const std::string& prefix = "");

// The revision a sweep run records into (ResultsDb::use_revision).
struct SweepRevision {
  int number = 0;
  bool fresh = false;      // created by this call
  int previous = 0;        // the latest revision before this one (0: none)
  size_t kept = 0, added = 0, dropped = 0;  // points against `previous` (when fresh)
};

// What ResultsDb::claim found.
enum class Claim { Claimed, Stored, Busy };

class ResultsDb {
 public:
  explicit ResultsDb(const std::string& path);  // creates the file and tables if needed
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  std::set<std::string> hashes(bool include_failed) const;
  // Inserts (or, for a failed point being retried, replaces) one point with its series,
  // in one transaction: an interrupted sweep never leaves half a point.
  int64_t insert(const PointRecord& r);
  std::vector<StoredPoint> points_with_hashes(const std::set<std::string>& hashes) const;
  int64_t count(const std::string& table) const;
  // The revision of sweep `sweep` for `definition`: the latest when it has this definition,
  // else a new one (numbered one past the latest), listing `hashes` as its points. One
  // transaction, so two sweeps started at once agree.
  SweepRevision use_revision(const std::string& sweep, const std::string& definition,
                             const std::vector<std::string>& hashes, const std::string& source);
  // Adds points to a revision (an adaptive sweep's loads, found as it runs).
  void add_revision_points(const std::string& sweep, int revision, const std::vector<std::string>& hashes);
  // Claims point `hash` for this process before running it: Stored when the database has it
  // (status ok, or any status unless `retry_failed`), Busy when a live process claimed it,
  // else Claimed (a stale claim of a dead process on this host is taken over).
  Claim claim(const std::string& hash, bool retry_failed);
  // Drops this process' claims (a sweep's end, normal or interrupted).
  void release_claims();
  // The stored point `hash` (id 0 when absent).
  StoredPoint stored_point(const std::string& hash) const;
  // Copies the points of database `path` (a Slurm task's shard) into this one with their
  // time series, in one transaction: a point whose hash is absent here, or recorded here as
  // failed while `path` has it ok, is taken; every other is left (merging twice adds
  // nothing). With `only`, only those hashes are considered. Columns this database lacks
  // are added. Returns {points taken, points left as they were}.
  std::pair<int64_t, int64_t> merge_from(const std::string& path, const std::set<std::string>* only = nullptr);
  // Replaces the saturation rows of `sweep`.
  void write_saturation(const std::string& sweep, const nlohmann::json& rows);
  // The saturation rows of `sweep` (objects with the columns of write_saturation).
  nlohmann::json saturation_rows(const std::string& sweep) const;
  // Point `hash`'s values of the named columns (null where absent); metric lists stored as
  // JSON text come back parsed. Empty object if the point is not there.
  nlohmann::json point_values(const std::string& hash, const std::vector<std::string>& cols) const;
  // Column `col` of the time series of point `point_id`, in bin order (null for NULL).
  std::vector<nlohmann::json> timeseries_column(int64_t point_id, const std::string& col) const;
  // An SQL condition on `points` (or, with `point_id`, on a series table's point_id) that
  // keeps the points of the revisions asked for: `sweep` (empty: every sweep) and
  // `revision` ("" = the latest of each sweep, "all", or a number). Empty string: no
  // condition (every point; also a database that records no revisions). DbError: no such
  // sweep or revision, or a revision number without the sweep when several are stored.
  std::string revision_condition(const std::string& sweep, const std::string& revision, bool point_id) const;
  // Writes table `table` as CSV (header + rows) to `path` (whole, sc_main/output_file.h);
  // returns the row count. For points, timeseries and switch_series only the rows of
  // `where` (revision_condition; empty: all). DbError: no such table, or `path` cannot be
  // written; WriteError: the write failed.
  int64_t export_csv(const std::string& table, const std::string& path, const std::string& where = "") const;

 private:
  void exec(const std::string& sql) const;
  void ensure_column(const std::string& table, const std::string& col, const nlohmann::json& v);
  std::set<std::string> columns(const std::string& table) const;

  sqlite3* m_db = nullptr;
  std::string m_path;
  std::set<std::string> m_point_cols;
};

}  // namespace scfly
