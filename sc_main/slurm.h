// Sweeps on a Slurm cluster (`scfly sweep SWEEP.yaml --slurm | --gather | --slurm-task DIR`).
//
// The same sweep file runs unchanged. `--slurm` writes a job-array script and submits it
// with sbatch; each array task runs its chunk of the sweep's work units (a point, or a whole
// adaptive series under saturation_search or stop_after_saturation: see SweepPlan) with
// the same binary and writes to a SQLite shard of its own, so no two processes ever write
// one file on a shared file system. `--gather` merges the shards into the sweep database
// (idempotent), reports progress from the shards, the tasks' status files, squeue and
// (where accounting is enabled) sacct, lists failed points with their error, and prints the
// saturation summary once every point is in. A new `--slurm` first gathers, then submits
// only the units still missing (resume).
//
// Layout, beside the database DB:
//   DB.slurm/sub-N/           submission N (1, 2, ... one per --slurm)
//     job.sh                  the array script (readable, editable: modules, accounts)
//     tasks.json              the units of each task (the task reads its own line)
//     jobid                   the job id sbatch returned (absent after --dry-run)
//     shard-I.sqlite          task I's results (series units start with what DB had)
//     task-I.status           written by task I when it ends: {"exit": code, ...}
//     logs/task-I.out         task I's stdout and stderr
// Every path in the script is absolute; the task runs in the submitting directory
// (--chdir), where the sweep file's relative `base` resolves as it did at submission.
#pragma once

#include <string>
#include <vector>

#include "sc_main/sweep.h"

namespace scfly {

struct SlurmOptions {
  std::string partition, time, mem;  // #SBATCH --partition/--time/--mem (empty: site default)
  int max_parallel = 0;              // array throttle %N (0: none)
  bool max_parallel_given = false;   // --max-parallel given: then at least 1
  int units_per_task = 1;            // --points-per-task: points (or adaptive series) per task
  std::vector<std::string> sbatch_args;  // extra #SBATCH lines, verbatim
  bool dry_run = false;              // write the submission, do not call sbatch
};

// "" when the options can go into a job script, else the error naming the option, its value
// and what is allowed: --max-parallel at least 1; --time in one of Slurm's time formats;
// --mem a whole number with an optional K/M/G/T suffix; --partition names of letters,
// digits, '_', '-', '.' (a comma-separated list allowed); each --sbatch-arg one option
// `-x`/`--name=value` without whitespace, quotes, newlines or shell metacharacters.
std::string slurm_options_problem(const SlurmOptions& so);

// Whether `prog` is an executable file in a directory of $PATH.
bool in_path(const std::string& prog);

// The directory of a database's cluster runs: DB.slurm.
std::string slurm_dir(const std::string& db_path);

// `--slurm`: gathers what earlier submissions finished, then writes and submits the job
// array of the units still missing. Prints the job id on stdout. Exit 0 (also when nothing
// is missing), 2 on bad input, a Slurm command failing, or an earlier job still queued or
// running.
int slurm_submit(const std::string& sweep_path, const SweepSpec& spec, const SweepOptions& opt,
                 const SlurmOptions& so);

// `--slurm-task DIR`: runs task `task` of submission DIR (-1: $SLURM_ARRAY_TASK_ID) into its
// shard with $SLURM_CPUS_PER_TASK jobs (default 1), then writes its status file. Exit code
// as run_sweep's.
int slurm_task(const SweepSpec& spec, const SweepOptions& opt, const std::string& dir, int task);

// `--gather`: merges every shard into the database and reports. Exit 0 when every point is
// in and ok, 3 when every point is in and some failed, 4 while points are still missing,
// 2 on error.
int slurm_gather(const SweepSpec& spec, const SweepOptions& opt);

}  // namespace scfly
