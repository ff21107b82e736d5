#!/usr/bin/env python3
"""scfly plot: figures and CSV from a results database written by `scfly sweep`.

Usage (through `scfly plot DB ...`, or directly with Debian's /usr/bin/python3):
  scfly plot DB --x COL --y COL [--y COL ...] [--series COL[,COL...]] [--facet COL]
             [--where SQL] [--status ok|error|all] [-o FILE.png|.svg|.pdf]
             [--title T] [--logy] [--ymax V] [--ideal]
  scfly plot DB --recipe latency|throughput [any option above overrides the recipe's]
  scfly plot DB --recipe transient (--point ID | --where SQL) [--cycles] [--switches 0,3]
                 [--switch-series NAME,...]
  scfly plot DB --recipe transients [--where SQL] [--series COLS] [--switch-series NAME
                 --switches S] [--cycles] [--logy] [--ymax V]   (several transients overlaid)
  scfly plot DB --recipe fairness (--point ID | --where SQL)
  scfly plot DB --recipe group-fairness [--where SQL] [--series COLS] [--group G]
  scfly plot DB [--where SQL] [--status ok|error|all] --csv FILE.csv   (export, no plot)
  any DB form also takes [--sweep NAME] [--revision N|all] (below: Revisions)
  scfly plot CARD.json --recipe card-permutations|card-stability|card-hops
                 (from `scfly report-card --json`: the histogram of each column's
                 per-permutation saturation throughputs (GAL paper Fig. 9), the accepted
                 load over time past saturation (Figs. 13-14), the hop-count distributions
                 of the latency row (sec. IV.D))
  scfly plot BLOCK.json [BLOCK.json ...] --recipe card-permutations
                 (blocks of one permutation row run with `report-card --permutations A-B`,
                 merged by seed; prints each column's count, mean, SD, standard error,
                 min and max)
  scfly plot TVLB.json --recipe tvlb
                 (from `scfly tvlb -o`: Step 1's mean LP throughput per Table 1 point with
                 its standard error, the T-UGAL paper's Figs. 4-5)

Revisions: a sweep re-run from a changed file is a new revision of that sweep in the
database (its unchanged points are shared, not run again). Every recipe shows the latest
revision of each sweep; --sweep NAME keeps one sweep, --revision N shows its revision N
and --revision all every point of every revision (the old points mixed with the new, as
the database holds them). --point picks its point whatever its revision.

Columns are those of the `points` table: config keys with '.' -> '_', and the metrics.
Rows of one series at the same x (e.g. seeds) are averaged; a band shows their min..max.
NULL values are skipped. Only status='ok' rows unless --status says otherwise (--point
picks its point whatever its status). --logy/--ymax apply to every panel of a generic
plot and to the latency panel of the transient recipe.
Exit codes: 0 ok, 2 bad input (one line on stderr), 3 matplotlib missing.
"""
import argparse
import csv
import json
import math
import os
import sqlite3
import sys
import urllib.parse

PREFIX = "scfly plot"
FORMATS = (".png", ".svg", ".pdf")
UNITS = {
    "load": "phits/node/cycle", "offered_load": "phits/node/cycle",
    "accepted_load": "phits/node/cycle", "generated_load": "phits/node/cycle",
    "switch_accepted_min": "phits/node/cycle", "switch_accepted_max": "phits/node/cycle",
    "accepted_packets": "packets/node/cycle", "hops_avg": "hops", "local_hops_avg": "hops",
    "global_hops_avg": "hops", "jain_fairness": "index", "wall_s": "s", "clock_ghz": "GHz",
}
RECIPES = {
    "latency": {"x": "load", "y": ["latency_avg"], "series": "routing", "facet": "traffic",
                "title": "Latency vs offered load"},
    "throughput": {"x": "load", "y": ["accepted_load"], "series": "routing", "facet": "traffic",
                   "ideal": True, "title": "Accepted vs offered load"},
}


class PlotError(Exception):
    """Bad input: reported as `scfly plot: error: ...`, exit code 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise PlotError(f"{message} (see --help)")


def label(col):
    """Axis label with the unit of a known column, else the bare column name."""
    if col.startswith(("latency", "network_latency")) or col.endswith("_cycles"):
        unit = "cycles"
    elif col.endswith("_fraction") or col.startswith("policy_fractions"):
        unit = "fraction"
    else:
        unit = UNITS.get(col)
    return f"{col} ({unit})" if unit else col


def num_or_nan(v):
    """v as a float; NaN for null (a metric not measured) or text."""
    return float(v) if is_num(v) else float("nan")


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v)


def sort_key(v):
    """Orders numbers numerically, then text, then NULL, without comparing across types."""
    if v is None:
        return (2, 0, "")
    return (0, v, "") if is_num(v) else (1, 0, str(v))


def y_limits(ax, logy, ymax):
    """--logy and --ymax; with a linear --ymax the bottom follows the data, not the clipped peaks."""
    if logy:
        ax.set_yscale("log")
    if ymax is None:
        return
    lo = ax.dataLim.y0
    if logy or not math.isfinite(lo) or lo >= ymax:
        ax.set_ylim(top=ymax)
    else:
        ax.set_ylim(lo - 0.04 * (ymax - lo), ymax)


# ----------------------------------------------------------------------------- database
def open_db(path):
    if not os.path.isfile(path):
        raise PlotError(f"results database '{path}' does not exist")
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
        db.row_factory = sqlite3.Row
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as e:
        raise PlotError(f"'{path}' cannot be read as an SQLite database: {e}")
    if "points" not in tables:
        raise PlotError(f"'{path}' has no table 'points' (not an scfly results database)")
    return db, tables


def columns(db, table="points"):
    return [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]


def check_columns(db, option, names):
    have = columns(db)
    for n in names:
        if n not in have:
            raise PlotError(f"{option}: unknown column '{n}'; available: {', '.join(have)}")


def query(db, sql, params=(), what="query"):
    try:
        return [dict(r) for r in db.execute(sql, params)]
    except sqlite3.Error as e:
        raise PlotError(f"{what}: {e}")


# The condition that keeps the points of the chosen revisions (revision_condition), or None.
_REVISION = None


def revision_condition(db, tables, a):
    """(SQL, params) selecting the points of the revisions --sweep/--revision ask for (default:
    the latest revision of each sweep); None to select every point."""
    rev = a.revision
    if rev is not None and rev != "all":
        try:
            rev = int(rev)
            if rev < 1:
                raise ValueError
        except ValueError:
            raise PlotError(f"--revision '{a.revision}' is not allowed; expected a revision number (1, 2, ...) or all")
    if "sweep_revisions" not in tables:  # a database written before revisions: one per sweep
        if a.sweep:
            return ("sweep = ?", [a.sweep])
        if rev not in (None, "all", 1):
            raise PlotError(f"--revision {rev}: this database records no revisions (each sweep has revision 1)")
        return None
    revs = {}
    for r in db.execute("SELECT sweep, revision FROM sweep_revisions ORDER BY sweep, revision"):
        revs.setdefault(r[0], []).append(r[1])
    if not revs:  # a Slurm task's shard: its points belong to no revision yet
        if rev not in (None, "all"):
            raise PlotError(f"--revision {rev}: this database records no revisions")
        return ("sweep = ?", [a.sweep]) if a.sweep else None
    if a.sweep and a.sweep not in revs:
        raise PlotError(f"--sweep '{a.sweep}': no such sweep in the database; it holds "
                        + (", ".join(sorted(revs)) or "no sweep"))
    if rev == "all":
        return ("hash IN (SELECT hash FROM sweep_points WHERE sweep = ?)", [a.sweep]) if a.sweep else None
    if rev is not None:
        name = a.sweep
        if not name:
            if len(revs) != 1:
                raise PlotError(f"--revision {rev}: the database holds the sweeps {', '.join(sorted(revs))}; "
                                "name one with --sweep")
            name = next(iter(revs))
        if rev not in revs[name]:
            raise PlotError(f"--revision {rev}: sweep '{name}' has revisions "
                            + ", ".join(str(x) for x in revs[name]))
        return ("hash IN (SELECT hash FROM sweep_points WHERE sweep = ? AND revision = ?)", [name, rev])
    latest = ("hash IN (SELECT sp.hash FROM sweep_points sp JOIN (SELECT sweep, MAX(revision) AS r FROM "
              "sweep_revisions GROUP BY sweep) l ON sp.sweep = l.sweep AND sp.revision = l.r")
    if a.sweep:
        return (latest + " WHERE sp.sweep = ?)", [a.sweep])
    return (latest + ")", [])


def select(db, where, status, extra=None):
    """Rows of `points` after the revision, --where and --status filters (or one id), by id."""
    conds, params = [], []
    if _REVISION and not extra:
        conds.append(_REVISION[0])
        params.extend(_REVISION[1])
    if status != "all" and "status" in columns(db):
        conds.append("status = ?")
        params.append(status)
    if extra:
        conds.append(extra[0])
        params.append(extra[1])
    if where:
        conds.append(f"({where})")
    sql = "SELECT * FROM points" + (" WHERE " + " AND ".join(conds) if conds else "") + " ORDER BY id"
    rows = query(db, sql, params, f"--where '{where}'" if where else "points")
    if not rows:
        raise PlotError(f"no rows selected (status {status}" + (f", --where '{where}'" if where else "")
                        + (", the latest revision of each sweep" if _REVISION and not extra else "") + ")")
    return rows


def one_point(db, a):
    """The single point a per-point recipe draws: --point ID, or --where selecting one row."""
    status = a.status or ("all" if a.point is not None else "ok")
    extra = ("id = ?", a.point) if a.point is not None else None
    try:
        rows = select(db, a.where, status, extra)
    except PlotError:
        if a.point is not None:
            raise PlotError(f"--point {a.point}: no such point"
                            + (f" with status {status}" if status != "all" else "")
                            + (f" matching --where '{a.where}'" if a.where else ""))
        raise
    if len(rows) != 1:
        ids = ", ".join(str(r["id"]) for r in rows[:12]) + (", ..." if len(rows) > 12 else "")
        raise PlotError(f"--recipe {a.recipe} needs exactly one point (--point ID or --where); "
                        f"{len(rows)} selected (ids {ids})")
    return rows[0]


def load_json(p, col, default):
    text = p.get(col)
    if text in (None, ""):
        return default
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        raise PlotError(f"point {p['id']}: column '{col}' is not valid JSON")


def describe(p, phases=None):
    """Short title text for one point; with phases, their traffic and load replace the point's."""
    parts = [f"point {p['id']}", str(p.get("routing", ""))]
    if phases:
        parts.append(" → ".join(f"{t}" + (f" @ {ld:g}" if is_num(ld) else "") for _, t, ld in phases))
    else:
        parts.append(str(p.get("traffic", "")))
        if is_num(p.get("load")):
            parts.append(f"load {p['load']:g}")
    if all(p.get(f"topology_{k}") is not None for k in "pahg"):
        parts.append("dfly({},{},{},{})".format(*(p[f"topology_{k}"] for k in "pahg")))
    return " ".join(x for x in parts if x and x != "None")


# ----------------------------------------------------------------------------- generic curves
def plot_curves(plt, a, db, rows):
    ys = [y.strip() for arg in a.y for y in arg.split(",") if y.strip()]
    if not ys:
        raise PlotError("--y: no column given (the value is empty)")
    series = [c.strip() for c in (a.series or "").split(",") if c.strip()]
    check_columns(db, "--x", [a.x])
    check_columns(db, "--y", ys)
    check_columns(db, "--series", series)
    if a.facet:
        check_columns(db, "--facet", [a.facet])
    facets = sorted({r[a.facet] for r in rows}, key=sort_key) if a.facet else [None]
    xs_all = {r[a.x] for r in rows if r[a.x] is not None}
    categorical = not all(is_num(v) for v in xs_all)
    xpos = {v: i for i, v in enumerate(sorted(xs_all, key=sort_key))} if categorical else None

    def skey(r):
        return tuple(r[c] for c in series)

    keys = sorted({skey(r) for r in rows}, key=lambda k: tuple(sort_key(v) for v in k))
    cmap = plt.get_cmap("tab10" if len(keys) <= 10 else "tab20")
    style = {k: (cmap(i % cmap.N), "osD^v<>ph*"[i % 10]) for i, k in enumerate(keys)}

    def name_of(k, ycol):
        return ", ".join(str(v) for v in k) if series else ycol

    ncols = min(len(facets), 4)
    frows = -(-len(facets) // ncols)
    legend_w = 0.0
    if series or a.ideal:
        legend_w = 0.9 + 0.075 * max(len(name_of(k, y)) for k in keys for y in ys)
    fig, axes = plt.subplots(frows * len(ys), ncols, squeeze=False,
                             figsize=(4.5 * ncols + legend_w, 3.4 * frows * len(ys)))
    bounds, bounds_traffic = bounds_of(a.ideal), ideal_traffic(a.ideal)
    handles = {}   # one legend for the figure: a series has the same colour in every panel
    plotted = {y: 0 for y in ys}
    for yi, ycol in enumerate(ys):
        for fi, fv in enumerate(facets):
            ax = axes[yi * frows + fi // ncols][fi % ncols]
            groups = {}
            for r in rows:
                if a.facet and r[a.facet] != fv:
                    continue
                xv, yv = r[a.x], r[ycol]
                if xv is None or not is_num(yv):
                    continue
                groups.setdefault(skey(r), {}).setdefault(xpos[xv] if categorical else xv, []).append(yv)
            for k in keys:
                if k not in groups:
                    continue
                pts = sorted(groups[k].items())
                px = [x for x, _ in pts]
                color, marker = style[k]
                name = name_of(k, ycol)
                mean = [sum(v) / len(v) for _, v in pts]
                if categorical:   # no line between categories; min..max as error bars
                    ax.errorbar(px, mean, yerr=[[max(0.0, m - min(v)) for m, (_, v) in zip(mean, pts)],
                                                [max(0.0, max(v) - m) for m, (_, v) in zip(mean, pts)]],
                                fmt=marker, markersize=5, capsize=3, color=color, label=name)
                else:
                    ax.plot(px, mean, marker=marker, markersize=4, color=color, label=name)
                if not categorical and any(len(v) > 1 for _, v in pts):
                    ax.fill_between(px, [min(v) for _, v in pts], [max(v) for _, v in pts],
                                    color=color, alpha=0.18, linewidth=0)
                plotted[ycol] += len(pts)
            if a.ideal and groups:
                hi = max(x for g in groups.values() for x in g)
                ax.plot([0, hi], [0, hi], color="0.3", linestyle="--", linewidth=0.9,
                        label="ideal (y = x)")
                # The bounds are of one traffic pattern (scfly ideal's): drawn in its own panel
                # only when the panels are the traffic patterns.
                if a.facet != "traffic" or bounds_traffic is None or str(fv) == bounds_traffic:
                    for name, value, line in bounds:
                        ax.axhline(value, color="0.25", linestyle=line, linewidth=0.9, label=name)
            if categorical:
                ax.set_xticks(range(len(xpos)))
                ax.set_xticklabels([str(v) for v in xpos], rotation=30, ha="right", fontsize=8)
            y_limits(ax, a.logy, a.ymax)
            ax.set_xlabel(label(a.x))
            ax.set_ylabel(label(ycol))
            ax.grid(True, alpha=0.3)
            if a.facet:
                ax.set_title(f"{a.facet} = {fv}", fontsize=10)
            if not groups:
                ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center", color="0.5")
            for h, lab in zip(*ax.get_legend_handles_labels()):
                handles.setdefault(lab, h)
        for k in range(len(facets), frows * ncols):
            axes[yi * frows + k // ncols][k % ncols].axis("off")
    empty = [y for y, n in plotted.items() if n == 0]
    if empty:
        raise PlotError(f"no numeric values of {', '.join(empty)} (vs {a.x}) in the {len(rows)} "
                        "selected rows (all NULL or text)")
    sweeps = sorted({str(r.get("sweep")) for r in rows if r.get("sweep")})
    title = a.title or a.default_title or f"{', '.join(ys)} vs {a.x}"
    if not a.title and len(sweeps) == 1:
        title += f" ({sweeps[0]})"
    fig.suptitle(title)
    if not series and not a.ideal:   # one unnamed curve per panel: its y label says it all
        return fig
    order = [name_of(k, y) for y in ys for k in keys] + ["ideal (y = x)"] + [n for n, _, _ in bounds]
    labels = sorted(handles, key=lambda lab: order.index(lab) if lab in order else len(order))
    axes[0][ncols - 1].legend([handles[lab] for lab in labels], labels, loc="upper left",
                              bbox_to_anchor=(1.02, 1.0), fontsize=8, title=",".join(series) or None,
                              title_fontsize=8)
    return fig


def ideal_doc(ideal):
    """The `scfly ideal --json` document of --ideal FILE; None for the bare flag."""
    if not isinstance(ideal, str):
        return None
    try:
        with open(ideal) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise PlotError(f"--ideal '{ideal}': not the JSON of scfly ideal --json ({e})")
    if not isinstance(doc, dict):
        raise PlotError(f"--ideal '{ideal}': not the JSON of scfly ideal --json (not an object)")
    return doc


def ideal_traffic(ideal):
    """The traffic pattern the bounds of --ideal FILE are for (None if not known)."""
    doc = ideal_doc(ideal)
    t = doc.get("traffic") if doc else None
    return str(t) if t is not None else None


def bounds_of(ideal):
    """(label, value, line style) of each bound in a `scfly ideal --json` file; [] for a flag."""
    doc = ideal_doc(ideal)
    if doc is None:
        return []
    of = f" ({doc['traffic']})" if doc.get("traffic") is not None else ""
    out = []
    if is_num(doc.get("ideal")):
        out.append((f"ideal throughput {doc['ideal']:.3f}{of}", doc["ideal"], "-."))
    for k, o in enumerate(doc.get("oblivious", [])):
        if isinstance(o, dict) and is_num(o.get("theta")):
            out.append((f"{o.get('routing')} bound {o['theta']:.3f}{of}", o["theta"],
                        [":", (0, (5, 2, 1, 2))][k % 2]))
    return out


# ----------------------------------------------------------------------------- transient
def phase_list(p):
    """Phases with traffic and load filled in from the previous phase (or the point)."""
    out, traffic, load = [], p.get("traffic"), p.get("load")
    for ph in load_json(p, "phases", []) or []:
        if not isinstance(ph, dict) or not is_num(ph.get("start")):
            raise PlotError(f"point {p['id']}: column 'phases' has an entry without a numeric 'start'")
        traffic, load = ph.get("traffic", traffic), ph.get("load", load)
        out.append((ph["start"], traffic, load))
    return sorted(out, key=lambda t: t[0])


def plot_transient(plt, a, db, tables):
    p = one_point(db, a)
    ts = query(db, "SELECT * FROM timeseries WHERE point_id = ? ORDER BY bin", (p["id"],)) \
        if "timeseries" in tables else []
    if not ts:
        raise PlotError(f"point {p['id']} (status {p.get('status')}) has no timeseries rows "
                        "(run it with timeseries.bin_cycles > 0)")
    names = [r["name"] for r in query(db, "SELECT DISTINCT name FROM switch_series WHERE point_id = ?"
                                          " ORDER BY name", (p["id"],))] \
        if "switch_series" in tables else []
    if a.switch_series:
        pick = [n.strip() for n in a.switch_series.split(",") if n.strip()]
        unknown = [n for n in pick if n not in names]
        if unknown:
            raise PlotError(f"--switch-series: point {p['id']} has no series '{unknown[0]}' "
                            f"(it has: {', '.join(names) or 'none'})")
        names = pick
    want = None
    if a.switches:
        try:
            want = [int(s) for s in a.switches.split(",") if s.strip()]
        except ValueError:
            raise PlotError(f"--switches '{a.switches}': give switch numbers like 0,3")
        if not names:
            raise PlotError(f"--switches: point {p['id']} has no per-switch series "
                            "(run it with timeseries.per_switch: true)")
    ghz = p.get("clock_ghz")
    if a.cycles or not is_num(ghz) or ghz <= 0:
        scale, xlabel = 1.0, "time (cycles)"
    else:
        scale, xlabel = 1.0 / (ghz * 1000.0), "time (µs)"
    mid = {r["bin"]: (r["t_start"] + r["t_end"]) / 2 * scale for r in ts}
    width = ts[0]["t_end"] - ts[0]["t_start"]
    phases = phase_list(p)

    panels = [("latency_avg", [("latency_inj_avg", "latency_inj_avg (by generation bin)", ":"),
                               ("network_latency_avg", "network_latency_avg", "--")]),
              ("accepted_load", [("generated_load", "generated", ":")]),
              ("nonminimal_fraction", [])]
    n = len(panels) + len(names)
    fig, axes = plt.subplots(n, 1, figsize=(8.0, 2.3 * n + 0.6), sharex=True, squeeze=False)
    a.layout_rect = (0, 0, 1, 1 - 0.3 / (2.3 * n + 0.6))   # room for the phase labels over the title
    axes = [r[0] for r in axes]

    def line(ax, col, lab, ls="-", lw=1.4, marker="."):
        # NULL bins become NaN: nothing is drawn there and the line shows the gap
        ys = [r[col] if is_num(r[col]) else math.nan for r in ts]
        ax.plot([mid[r["bin"]] for r in ts], ys, linestyle=ls, linewidth=lw, marker=marker,
                markersize=3 if marker else 0, label=lab)
        return sum(1 for y in ys if not math.isnan(y))

    for ax, (col, extras) in zip(axes, panels):
        if line(ax, col, col) == 0:
            ax.text(0.5, 0.5, f"no {col} values", transform=ax.transAxes, ha="center", color="0.5")
        for ecol, lab, ls in extras:
            if ecol in ts[0]:
                line(ax, ecol, lab, ls=ls, lw=1.0, marker=None)
        ax.set_ylabel(label(col).replace(" (", "\n("), fontsize=9)
    if phases or is_num(p.get("load")):   # offered load as a step line
        t_end = ts[-1]["t_end"]
        steps = phases or [(0, p.get("traffic"), p.get("load"))]
        sx = [s * scale for s, _, _ in steps] + [t_end * scale]
        sy = [ld for _, _, ld in steps]
        if all(is_num(v) for v in sy):
            axes[1].step(sx, sy + sy[-1:], where="post", color="0.4", linewidth=0.9, label="offered")
    y_limits(axes[0], a.logy, a.ymax)
    axes[2].set_ylim(-0.03, 1.03)

    for k, name in enumerate(names):
        ax = axes[len(panels) + k]
        by_bin = {}
        for b, s, v in db.execute("SELECT bin, switch, value FROM switch_series WHERE point_id = ? "
                                  "AND name = ?", (p["id"], name)):
            if is_num(v):
                by_bin.setdefault(b, {})[s] = v
        bins = sorted(by_bin)
        bx = [mid.get(b, (b + 0.5) * width * scale) for b in bins]
        if want:
            present = {s for d in by_bin.values() for s in d}
            missing = [s for s in want if s not in present]
            if missing:
                raise PlotError(f"--switches: switch {missing[0]} has no '{name}' values "
                                f"(switches {min(present)}..{max(present)})")
            for s in want:
                ax.plot(bx, [by_bin[b].get(s, math.nan) for b in bins], linewidth=1.2,
                        label=f"switch {s}")
        else:
            ax.plot(bx, [sum(by_bin[b].values()) / len(by_bin[b]) for b in bins], linewidth=1.4,
                    label=f"mean over {len({s for d in by_bin.values() for s in d})} switches")
            ax.plot(bx, [max(by_bin[b].values()) for b in bins], linewidth=0.7, label="max")
        ax.set_ylabel(name, fontsize=9)

    warm = p.get("warmup_cycles")
    for ax in axes:
        if is_num(warm) and warm > 0:
            ax.axvspan(ts[0]["t_start"] * scale, warm * scale, color="0.92", zorder=0,
                       label="warm-up" if ax is axes[-1] else None)
        for start, _, _ in phases:
            if start > ts[0]["t_start"]:
                ax.axvline(start * scale, color="k", linestyle="--", linewidth=0.9)
        ax.grid(True, alpha=0.3)
        if len(ax.get_legend_handles_labels()[0]) > 1 or (want and ax in axes[len(panels):]):
            ax.legend(fontsize=7, loc="best")
    for start, traffic, load in phases:
        text = f"{traffic}" + (f" @ {load:g}" if is_num(load) else "")
        axes[0].annotate(text, (max(start, ts[0]["t_start"]) * scale, 1.0),
                         xycoords=("data", "axes fraction"),
                         xytext=(2, 3), textcoords="offset points", va="bottom", fontsize=8,
                         bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "0.7", "alpha": 0.85})
    axes[-1].set_xlabel(xlabel)
    axes[-1].set_xlim(ts[0]["t_start"] * scale, ts[-1]["t_end"] * scale)
    fig.suptitle(a.title or f"Transient: {describe(p, phases)}")
    return fig


def label_columns(db, pts, option):
    """Columns naming each point of a multi-point recipe: --series, else the sweep's
    named-variant columns that differ between the points, else the differing config keys."""
    series = [c.strip() for c in (option or "").split(",") if c.strip()]
    cols = columns(db)
    for c in series:
        if c not in cols:
            raise PlotError(f"--series: no column '{c}' in the points table")
    if series:
        return series
    # a sweep's named-variant columns sit between the config keys and the metrics
    skip = {"id", "hash", "sweep", "created", "wall_s", "git_rev", "config_json", "status", "error"}
    lo = cols.index("watchdog_cycles") + 1 if "watchdog_cycles" in cols else 0
    hi = cols.index("accepted_load") if "accepted_load" in cols else len(cols)
    differs = [c for c in cols if c not in skip and len({json.dumps(p.get(c)) for p in pts}) > 1]
    return [c for c in differs if lo <= cols.index(c) < hi] or \
        [c for c in differs if cols.index(c) < lo] or ["id"]


def plot_transients(plt, a, db, tables):
    """Several transients on common axes: per point its latency by generation bin and its
    misrouted fraction, and with --switch-series NAME --switches S that series of switch S.
    One line per point, labelled by the --series columns (default: the point's sweep axes
    that differ between the points)."""
    pts = select(db, a.where, a.status or "ok")
    if "timeseries" not in tables:
        raise PlotError("the database has no timeseries (run the points with timeseries.bin_cycles > 0)")
    series = label_columns(db, pts, a.series)
    name = None
    if a.switch_series or a.switches:
        name = (a.switch_series or "").strip()
        try:
            sws = [int(x) for x in (a.switches or "").split(",") if x.strip()]
        except ValueError:
            raise PlotError(f"--switches '{a.switches}': give one switch number")
        if not name or "," in name or len(sws) != 1:
            raise PlotError("--recipe transients: give one --switch-series NAME and one --switches S")
        sw = sws[0]
    panels = ["latency_inj_avg", "nonminimal_fraction"] + ([name] if name else [])
    fig, axes = plt.subplots(len(panels), 1, figsize=(8.0, 2.6 * len(panels) + 0.6), sharex=True,
                             squeeze=False)
    axes = [r[0] for r in axes]
    drawn, t_lo, t_hi, phase_starts = 0, None, None, set()
    for p in pts:
        ts = query(db, "SELECT * FROM timeseries WHERE point_id = ? ORDER BY bin", (p["id"],))
        if not ts:
            continue
        ghz = p.get("clock_ghz")
        scale = 1.0 if (a.cycles or not is_num(ghz) or ghz <= 0) else 1.0 / (ghz * 1000.0)
        mid = {r["bin"]: (r["t_start"] + r["t_end"]) / 2 * scale for r in ts}
        lab = ", ".join(f"{p.get(c)}" for c in series)
        line = None
        for ax, col in zip(axes, panels[:2]):
            ys = [r[col] if is_num(r[col]) else math.nan for r in ts]
            (ln,) = ax.plot([mid[r["bin"]] for r in ts], ys, linewidth=1.2,
                            color=line.get_color() if line else None, label=lab)
            line = line or ln
        if name:
            rows = db.execute("SELECT bin, value FROM switch_series WHERE point_id = ? AND name = ? "
                              "AND switch = ? ORDER BY bin", (p["id"], name, sw)).fetchall() \
                if "switch_series" in tables else []
            if not rows:
                raise PlotError(f"point {p['id']} has no series '{name}' of switch {sw} "
                                "(run it with timeseries.per_switch: true)")
            axes[2].plot([mid.get(b, math.nan) for b, _ in rows], [v if is_num(v) else math.nan for _, v in rows],
                         linewidth=1.0, color=line.get_color(), label=lab)
        t_lo = ts[0]["t_start"] * scale if t_lo is None else min(t_lo, ts[0]["t_start"] * scale)
        end = ts[-1]["t_end"]   # up to the end of the run's window: drain bins generate nothing
        if is_num(p.get("warmup_cycles")) and is_num(p.get("measure_cycles")):
            end = min(end, p["warmup_cycles"] + p["measure_cycles"])
        t_hi = end * scale if t_hi is None else max(t_hi, end * scale)
        phase_starts |= {s * scale for s, _, _ in phase_list(p) if s > ts[0]["t_start"]}
        drawn += 1
    if not drawn:
        raise PlotError("no selected point has timeseries rows (run them with timeseries.bin_cycles > 0)")
    y_limits(axes[0], a.logy, a.ymax)
    axes[1].set_ylim(-0.03, 1.03)
    for ax, col in zip(axes, panels):
        ax.set_ylabel((label(col) if col != name else f"{name}\nswitch {sw}").replace(" (", "\n("), fontsize=9)
        for t in phase_starts:
            ax.axvline(t, color="k", linestyle="--", linewidth=0.9)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7, loc="best", title=",".join(series), title_fontsize=7)
    axes[-1].set_xlabel("time (cycles)" if a.cycles else "time (µs)")
    axes[-1].set_xlim(t_lo, t_hi)
    fig.suptitle(a.title or f"Transients: {drawn} points")
    return fig


# ----------------------------------------------------------------------------- fairness
def plot_fairness(plt, a, db):
    p = one_point(db, a)
    v = load_json(p, "switch_accepted", None)
    if not isinstance(v, list) or not v or not all(is_num(x) for x in v):
        raise PlotError(f"point {p['id']} (status {p.get('status')}) has no per-switch accepted load "
                        "(column 'switch_accepted')")
    n, mean = len(v), sum(v) / len(v)
    fig, ax = plt.subplots(figsize=(min(12.0, max(6.5, n * 0.05)) + 2.6, 4.0))
    ax.bar(range(n), v, width=0.9 if n <= 64 else 1.0, color="tab:blue", edgecolor="none")
    lo, hi = min(range(n), key=v.__getitem__), max(range(n), key=v.__getitem__)
    for val, ls, color, text in ((v[hi], ":", "tab:green", f"max  {v[hi]:.4f} (switch {hi})"),
                                 (mean, "--", "k", f"mean {mean:.4f}"),
                                 (v[lo], ":", "tab:red", f"min  {v[lo]:.4f} (switch {lo})")):
        ax.axhline(val, color=color, linestyle=ls, linewidth=1.2, zorder=3, label=text)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, prop={"family": "monospace"},
              title=f"{n} switches", title_fontsize=8)
    per_group = p.get("topology_a")
    if is_num(per_group) and 0 < per_group < n and n % per_group == 0 and n // per_group <= 80:
        for g in range(1, n // per_group):
            ax.axvline(g * per_group - 0.5, color="0.6", linewidth=0.6, zorder=2.5)
        ax.set_xlabel(f"source switch (groups of {per_group} separated by grey lines)")
    else:
        ax.set_xlabel("source switch")
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(0, max(v) * 1.12 if max(v) > 0 else 1)
    ax.set_ylabel(label("accepted_load"))
    ax.grid(True, axis="y", alpha=0.3)
    jain = p.get("jain_fairness")
    fig.suptitle(a.title or f"Fairness: {describe(p)}"
                 + (f" — Jain index {jain:.4f}" if is_num(jain) else ""))
    return fig


def plot_group_fairness(plt, a, db):
    """Accepted load of each switch of one group (--group, default 0), one bar per selected
    point side by side: the QCN paper's Figs. 7 and 9."""
    pts = select(db, a.where, a.status or "ok")
    series = label_columns(db, pts, a.series)
    g = a.group if a.group is not None else 0
    bars = []
    for p in pts:
        v = load_json(p, "switch_accepted", None)
        per = p.get("topology_a")
        if not isinstance(v, list) or not v or not is_num(per) or per <= 0:
            raise PlotError(f"point {p['id']} has no per-switch accepted load or no topology_a")
        if (g + 1) * per > len(v) or g < 0:
            raise PlotError(f"--group {g}: point {p['id']} has {len(v) // per} groups (0..{len(v) // per - 1})")
        bars.append((", ".join(f"{p.get(c)}" for c in series), v[g * per:(g + 1) * per], int(per)))
    per = bars[0][2]
    if any(b[2] != per for b in bars):
        raise PlotError("the selected points have different group sizes (topology_a)")
    fig, ax = plt.subplots(figsize=(max(7.0, 0.9 * per + 3.0), 4.2))
    w = 0.85 / len(bars)
    for k, (lab, vals, _) in enumerate(bars):
        ax.bar([i - 0.425 + (k + 0.5) * w for i in range(per)], vals, width=w, label=lab)
    ax.set_xticks(range(per))
    ax.set_xticklabels([str(g * per + i) for i in range(per)])
    ax.set_xlabel(f"switch of group {g}")
    ax.set_ylabel(label("accepted_load"))
    load = {p.get("load") for p in pts}
    if len(load) == 1 and is_num(next(iter(load))):
        ax.axhline(next(iter(load)), color="k", linestyle="--", linewidth=0.9, label="offered")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title=",".join(series), title_fontsize=8)
    fig.suptitle(a.title or f"Accepted load per switch of group {g}")
    return fig


# ----------------------------------------------------------------------------- main
def read_json_file(path, producer):
    """The JSON written by `producer` (for the error message), or a PlotError naming the file."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise PlotError(f"'{path}': {e.strerror or e}")
    except ValueError as e:
        raise PlotError(f"'{path}' is not the JSON of {producer}: {e}")


def load_card(path):
    card = read_json_file(path, "scfly report-card --json")
    if not isinstance(card, dict) or "rows" not in card or "columns" not in card:
        raise PlotError(f"'{path}' is not the JSON of scfly report-card --json (no rows/columns)")
    return card


def card_rows(card, kind, what):
    rows = [r for r in card["rows"] if r.get("kind") == kind and
            (kind != "saturation" or any("permutations" in c for c in r["values"].values()))]
    if not rows:
        raise PlotError(f"the card '{card.get('name')}' has no {what}")
    return rows


def seed_ranges(seeds):
    """'1-200, 301-400' for a sorted list of seeds."""
    out, start, prev = [], None, None
    for x in seeds:
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append(f"{start}-{prev}" if prev > start else f"{start}")
            start = prev = x
    if start is not None:
        out.append(f"{start}-{prev}" if prev > start else f"{start}")
    return ", ".join(out)


def merge_cards(paths):
    """The card of paths[0] with its permutation row's cells merged by seed over every file
    (blocks of `report-card --permutations A-B`). A seed in two files must have one value."""
    cards = [load_card(p) for p in paths]
    first = cards[0]
    row0 = card_rows(first, "saturation", "row with permutations")[0]
    merged = {c: {} for c in first["columns"]}
    of = None
    for path, card in zip(paths, cards):
        if card.get("name") != first.get("name") or card["columns"] != first["columns"]:
            raise PlotError(f"'{path}' is card '{card.get('name')}' with columns {card['columns']}; "
                            f"'{paths[0]}' is '{first.get('name')}' with {first['columns']}")
        rows = [r for r in card_rows(card, "saturation", "row with permutations") if r["name"] == row0["name"]]
        if not rows:
            raise PlotError(f"'{path}' has no permutation row '{row0['name']}'")
        for c in first["columns"]:
            cell = rows[0]["values"].get(c, {})
            vals = cell.get("permutations", [])
            seeds = cell.get("seeds")
            if seeds is None or len(seeds) != len(vals):
                raise PlotError(f"'{path}' lists no seeds for column {c} (written by an older scfly); "
                                f"rerun its report-card command on its database to rewrite it")
            if of is not None and cell.get("of") != of:
                raise PlotError(f"'{path}': column {c} has {cell.get('of')} permutations in all, not {of}")
            of = cell.get("of")
            for sd, v in zip(seeds, vals):
                if sd in merged[c] and merged[c][sd] != v:
                    raise PlotError(f"seed {sd} of column {c} has two values ({merged[c][sd]} and {v}; "
                                    f"the second in '{path}'): blocks of different card files?")
                merged[c][sd] = v
    for c in first["columns"]:
        seeds = sorted(merged[c])
        row0["values"][c] = {"permutations": [merged[c][sd] for sd in seeds], "seeds": seeds, "of": of}
    return first


def permutation_summary(card, row):
    """Lines of each column's count, mean, SD, standard error, min and max."""
    lines = [f"card {card.get('name')}, row {row['name']}:"]
    lines.append(f"{'column':<10} {'n':>5} {'seeds':<16} {'mean':>7} {'sd':>7} {'se':>7} {'min':>7} {'max':>7}")
    for c in card["columns"]:
        cell = row["values"].get(c, {})
        v = [x for x in cell.get("permutations", []) if is_num(x)]
        seeds = cell.get("seeds") or list(range(1, len(cell.get("permutations", [])) + 1))
        if not v:
            lines.append(f"{c:<10} {0:>5}")
            continue
        n, m = len(v), sum(v) / len(v)
        sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
        lines.append(f"{c:<10} {n:>5} {seed_ranges(sorted(seeds)):<16} {m:7.4f} {sd:7.4f} {sd / math.sqrt(n):7.4f} "
                     f"{min(v):7.4f} {max(v):7.4f}")
    return "\n".join(lines)


def plot_card(plt, a, card):
    cols = card["columns"]
    if a.recipe == "card-permutations":
        row = card_rows(card, "saturation", "row with permutations")[0]
        fig, axes = plt.subplots(1, len(cols), figsize=(3.2 * len(cols), 3.0), sharex=True, squeeze=False)
        vals = {c: [v for v in row["values"][c].get("permutations", []) if is_num(v)] for c in cols}
        allv = [v for c in cols for v in vals[c]]
        if not allv:
            raise PlotError(f"row {row['name']} has no finished permutation yet")
        print(permutation_summary(card, row))
        lo, hi = min(allv), max(allv)
        width = 0.02  # a default bin width (the paper's is not stated)
        edges = [math.floor(lo / width) * width + i * width for i in range(int((hi - lo) / width) + 3)]
        for ax, c in zip(axes[0], cols):
            v = vals[c]
            ax.hist(v, bins=edges, color="tab:blue")
            if v:
                m = sum(v) / len(v)
                ax.axvline(m, color="k", ls="--", lw=1)
                ax.set_title(f"{c}: mean {m:.3f} ({len(v)})", fontsize=9)
            ax.set_xlabel("saturation throughput (phits/node/cycle)")
        axes[0][0].set_ylabel("permutations")
        fig.suptitle(a.title or f"{card['name']}: {row['label']}", fontsize=10)
        a.layout_rect = (0, 0, 1, 0.93)
        return fig
    if a.recipe == "card-stability":
        row = card_rows(card, "stability", "stability row")[0]
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        for c in cols:
            cell = row["values"].get(c, {})
            s = cell.get("series")
            if not s:
                continue
            b = cell.get("bin_cycles", 1)
            xs = [(i + 0.5) * b for i in range(len(s))]
            ys = [v if is_num(v) else float("nan") for v in s]
            stable = "stable" if cell.get("stable") else "unstable"
            ax.plot(xs, ys, label=f"{c} ({stable})")
        ax.set_xlabel("cycle")
        ax.set_ylabel("accepted load (phits/node/cycle)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
        ax.set_title(a.title or f"{card['name']}: {row['label']}", fontsize=10)
        return fig
    row = card_rows(card, "latency", "latency row")[0]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    n = len(cols)
    for k, c in enumerate(cols):
        h = row["values"].get(c, {}).get("hops_histogram") or []
        xs = [i + (k - (n - 1) / 2) * 0.8 / n for i in range(len(h))]
        ax.bar(xs, h, width=0.8 / n, label=f"{c} (mean {num_or_nan(row['values'][c].get('hops_avg')):.2f})")
    ax.set_xlabel("hops")
    ax.set_ylabel("fraction of packets")
    ax.legend(fontsize=8)
    ax.set_title(a.title or f"{card['name']}: hop distribution, {row['label']}", fontsize=10)
    return fig


def plot_tvlb(plt, a, path):
    """T-VLB Step 1 (scfly tvlb -o): mean LP throughput of each Table 1 point with its standard
    error, as the T-UGAL paper's Figs. 4-5; the strategic and reference points as lines."""
    r = read_json_file(path, "scfly tvlb -o")
    if not isinstance(r, dict) or "points" not in r:
        raise PlotError(f"'{path}' is not the JSON of scfly tvlb -o (no points)")
    if r.get("skipped"):
        raise PlotError(f"'{path}': Step 1 was skipped (one link per group pair); nothing to draw")
    extra = ("i5src", "i5dst", "all (generic segments)", "min")
    main = [p for p in r["points"] if p["name"] not in extra]
    others = [p for p in r["points"] if p["name"] in extra]
    if not main and not others:
        raise PlotError(f"'{path}' has no points")
    fig, ax = plt.subplots(figsize=(max(6.4, 0.28 * len(main) + 2), 4.0))
    xs = list(range(len(main)))
    ax.errorbar(xs, [p["mean"] for p in main], yerr=[p["sem"] for p in main], fmt="o-", ms=3, capsize=2,
                label="Table 1 points (mean ± s.e.m.)")
    for (p, style) in zip(others, ["--", ":", "-.", (0, (1, 3))]):
        ax.axhline(p["mean"], ls=style, lw=1, color="gray" if "generic" in p["name"] else None,
                   label=f"{p['name']}: {p['mean']:.4f}")
    if r.get("best") in [p["name"] for p in main]:
        k = [p["name"] for p in main].index(r["best"])
        ax.plot([k], [main[k]["mean"]], "r*", ms=12, label=f"best: {r['best']}")
    ax.set_xticks(xs)
    ax.set_xticklabels([p["name"] for p in main], rotation=70, fontsize=7)
    ax.set_ylabel("LP throughput (phits/node/cycle)")
    ax.legend(fontsize=7, loc="lower right")
    n = len(r.get("patterns", []))
    ax.set_title(a.title or f"T-VLB Step 1, {r.get('topology', '')}: mean over {n} patterns", fontsize=10)
    return fig


def export_csv(db, a):
    rows = select(db, a.where, a.status or "ok")
    try:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(list(rows[0].keys()))
            w.writerows([list(r.values()) for r in rows])
    except OSError as e:
        raise PlotError(f"--csv '{a.csv}': {e.strerror or e}")
    print(f"wrote {a.csv} ({len(rows)} rows)")


def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"{PREFIX}: matplotlib is not available (apt-get install python3-matplotlib)",
              file=sys.stderr)
        sys.exit(3)
    return plt


def parse_args(argv):
    ap = Parser(prog=PREFIX, description=__doc__.split("\n")[0],
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="\n".join(__doc__.split("\n")[2:]))
    ap.add_argument("db", nargs="+", help="results database (SQLite) written by scfly sweep, a report card's "
                                          "JSON (several: blocks of one permutation row, --recipe "
                                          "card-permutations), or scfly tvlb -o's JSON (--recipe tvlb)")
    ap.add_argument("--recipe", choices=["latency", "throughput", "transient", "transients", "fairness",
                                        "group-fairness", "card-permutations", "card-stability", "card-hops",
                                        "tvlb"])
    ap.add_argument("--group", metavar="G", type=int, help="group-fairness: the group whose switches to draw (default 0)")
    ap.add_argument("--x", metavar="COL", help="x column")
    ap.add_argument("--y", metavar="COL", action="append",
                    help="y column (repeatable or comma-separated)")
    ap.add_argument("--series", metavar="COLS", help="columns that make one line each, comma-separated")
    ap.add_argument("--facet", metavar="COL", help="column that makes one subplot per value")
    ap.add_argument("--where", metavar="SQL", help="SQL condition on the points table")
    ap.add_argument("--status", choices=["ok", "error", "all"], help="rows by status (default ok)")
    ap.add_argument("--sweep", metavar="NAME", help="only the points of this sweep")
    ap.add_argument("--revision", metavar="N|all",
                    help="the sweep's revision N, or all (default: the latest revision of each sweep)")
    ap.add_argument("--point", metavar="ID", type=int, help="point id (transient, fairness)")
    ap.add_argument("--switches", metavar="LIST",
                    help="transient: plot these switches individually, e.g. 0,3")
    ap.add_argument("--switch-series", metavar="NAMES",
                    help="transient: only these per-switch series, comma-separated (e.g. qcn_p10_local)")
    ap.add_argument("--cycles", action="store_true", help="transient: time in cycles, not µs")
    ap.add_argument("-o", "--output", metavar="FILE", default="scfly-plot.png",
                    help="figure file: .png, .svg or .pdf (default scfly-plot.png)")
    ap.add_argument("--title", metavar="T")
    ap.add_argument("--logy", action="store_true", help="logarithmic y axis (transient: latency panel)")
    ap.add_argument("--ymax", metavar="V", type=float, help="upper y limit (transient: latency panel)")
    ap.add_argument("--ideal", nargs="?", const=True, default=None, metavar="BOUNDS.json",
                    help="draw the y = x line; with the JSON of `scfly ideal --json`, also its bounds as "
                         "horizontal lines (the ideal and each oblivious routing's)")
    ap.add_argument("--csv", metavar="FILE",
                    help="export the selected rows to this CSV file instead of plotting")
    # Bytes that are not UTF-8 reach Python as surrogates, which SQLite and the file system
    # refuse later with a message that names no option.
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            where = f"{argv[i - 1]}: " if i > 0 and argv[i - 1].startswith("-") else ""
            raise PlotError(f"{where}value '{arg.encode('utf-8', 'backslashreplace').decode()}' is not valid UTF-8")
    a = ap.parse_args(argv)
    if a.ymax is not None and not math.isfinite(a.ymax):
        raise PlotError(f"--ymax: value {a.ymax} is not allowed; expected a finite number")
    a.inputs = a.db
    if len(a.inputs) > 1 and a.recipe != "card-permutations":
        raise PlotError(f"{len(a.inputs)} inputs given ({', '.join(a.inputs)}); only --recipe card-permutations "
                        f"takes several (blocks of one report card's permutation row)")
    a.db = a.inputs[0]
    return a


def run(argv):
    a = parse_args(argv)
    if a.recipe == "tvlb":
        ext = output_format(a)
        return save(plot_tvlb(import_pyplot(), a, a.db), a, ext)
    if a.recipe and a.recipe.startswith("card-"):
        card = merge_cards(a.inputs) if len(a.inputs) > 1 else load_card(a.db)
        ext = output_format(a)
        return save(plot_card(import_pyplot(), a, card), a, ext)
    db, tables = open_db(a.db)
    global _REVISION
    _REVISION = revision_condition(db, tables, a)
    if a.csv:
        export_csv(db, a)
        return 0
    ext = output_format(a)
    plt = import_pyplot()
    if a.recipe == "transient":
        fig = plot_transient(plt, a, db, tables)
    elif a.recipe == "transients":
        fig = plot_transients(plt, a, db, tables)
    elif a.recipe == "fairness":
        fig = plot_fairness(plt, a, db)
    elif a.recipe == "group-fairness":
        fig = plot_group_fairness(plt, a, db)
    else:
        r = RECIPES.get(a.recipe, {})
        a.x = a.x or r.get("x")
        a.y = a.y or r.get("y")
        a.series = a.series if a.series is not None else r.get("series")
        a.facet = a.facet if a.facet is not None else r.get("facet")
        a.ideal = a.ideal if a.ideal is not None else r.get("ideal", False)
        a.default_title = r.get("title")
        if not a.x or not a.y:
            raise PlotError("give --x and --y, or a --recipe")
        fig = plot_curves(plt, a, db, select(db, a.where, a.status or "ok"))
    return save(fig, a, ext)


def output_format(a):
    ext = os.path.splitext(a.output)[1].lower()
    if ext not in FORMATS:
        raise PlotError(f"-o '{a.output}': unknown format '{ext or '(none)'}'; use {', '.join(FORMATS)}")
    return ext


def save(fig, a, ext):
    fig.tight_layout(rect=getattr(a, "layout_rect", None))
    try:
        fig.savefig(a.output, dpi=120 if ext == ".png" else None)
    except (OSError, ValueError) as e:
        raise PlotError(f"-o '{a.output}': {getattr(e, 'strerror', None) or e}")
    print(f"wrote {a.output}")
    return 0


def main(argv):
    try:
        return run(argv)
    except PlotError as e:
        print(f"{PREFIX}: error: {e}", file=sys.stderr)
        return 2
    except sqlite3.Error as e:
        print(f"{PREFIX}: error: database: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug here, or input nobody foresaw: one line, not a traceback
        if os.environ.get("SCFLY_PLOT_TRACEBACK"):
            raise
        print(f"{PREFIX}: error: unexpected {type(e).__name__}: {e} "
              "(SCFLY_PLOT_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
