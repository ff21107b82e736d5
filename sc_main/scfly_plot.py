#!/usr/bin/env python3
"""scfly plot: figures from a results database written by `scfly sweep`.

Usage (run through `scfly plot DB ...`, or directly with Debian's /usr/bin/python3):
  scfly plot DB --x load --y latency_avg [--y accepted_load] [--series routing[,seed]]
             [--facet traffic] [--where "topology_g=33"] [--status ok|error|all]
             [-o fig.png|fig.svg|fig.pdf] [--title T] [--logy] [--ymax V]
  scfly plot DB --recipe latency|throughput [options above override the recipe]
  scfly plot DB --recipe transient (--point ID | --where ...) [--cycles] [--switches 0,3]
  scfly plot DB --recipe fairness (--point ID | --where ...)
  scfly plot DB [--where ...] --csv points.csv        (export the selected rows, no plot)

Points with the same x in one series (e.g. several seeds) are averaged; the band shows
their min..max. NULL values are skipped. Exit codes: 0 ok, 2 bad input (message on
stderr), 3 matplotlib missing.
"""
import argparse
import csv
import json
import math
import os
import sqlite3
import sys

UNITS = {
    "load": "phits/node/cycle", "offered_load": "phits/node/cycle",
    "accepted_load": "phits/node/cycle", "generated_load": "phits/node/cycle",
    "accepted_packets": "packets/node/cycle", "switch_accepted_min": "phits/node/cycle",
    "switch_accepted_max": "phits/node/cycle", "hops_avg": "hops", "local_hops_avg": "hops",
    "global_hops_avg": "hops", "nonminimal_fraction": "fraction", "jain_fairness": "index",
    "wall_s": "s",
}

RECIPES = {
    "latency": {"x": "load", "y": ["latency_avg"], "series": "routing", "facet": "traffic"},
    "throughput": {"x": "load", "y": ["accepted_load"], "series": "routing", "facet": "traffic"},
}


class PlotError(Exception):
    pass


def label(col):
    if col.startswith("latency") or col.startswith("network_latency"):
        return f"{col} (cycles)"
    if col.startswith("policy_fractions"):
        return f"{col} (fraction)"
    unit = UNITS.get(col)
    return f"{col} ({unit})" if unit else col


def connect(path):
    if not os.path.isfile(path):
        raise PlotError(f"results database '{path}' does not exist")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "points" not in tables:
        raise PlotError(f"'{path}' has no table 'points' (not an scfly results database)")
    return db, tables


def columns(db, table="points"):
    return [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]


def check_columns(db, names):
    have = columns(db)
    for n in names:
        if n and n not in have:
            raise PlotError(f"unknown column '{n}'; available: {', '.join(have)}")


def select(db, where, status):
    sql = "SELECT * FROM points"
    conds = []
    if status != "all":
        conds.append(f"status = '{status}'")
    if where:
        conds.append(f"({where})")
    if conds:
        sql += " WHERE " + " AND ".join(conds)
    try:
        rows = [dict(r) for r in db.execute(sql + " ORDER BY id")]
    except sqlite3.Error as e:
        raise PlotError(f"--where '{where}': {e}")
    if not rows:
        raise PlotError("no points selected" + (f" by --where '{where}'" if where else ""))
    return rows


def save(fig, out):
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise PlotError(f"-o '{out}': unknown format '{ext}'; use .png, .svg or .pdf")
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=120 if ext == ".png" else None)
    except OSError as e:
        raise PlotError(f"-o '{out}': {e}")
    print(f"wrote {out}")


def key_of(row, cols):
    return ", ".join(f"{c}={row[c]}" for c in cols) if cols else "all"


def curves(plt, args, db, rows):
    series = [c for c in (args.series or "").split(",") if c]
    check_columns(db, [args.x, args.facet] + args.y + series)
    facets = sorted({r[args.facet] for r in rows}, key=str) if args.facet else [None]
    ny = len(args.y)
    fig, axes = plt.subplots(ny, len(facets), figsize=(4.8 * len(facets), 3.6 * ny), squeeze=False)
    for fi, fv in enumerate(facets):
        frows = [r for r in rows if not args.facet or r[args.facet] == fv]
        for yi, ycol in enumerate(args.y):
            ax = axes[yi][fi]
            groups = {}
            for r in frows:
                if r[args.x] is None or r[ycol] is None:
                    continue
                groups.setdefault(key_of(r, series), {}).setdefault(r[args.x], []).append(r[ycol])
            for name in sorted(groups):
                pts = sorted(groups[name].items())
                xs = [p[0] for p in pts]
                ys = [sum(v) / len(v) for _, v in pts]
                ax.plot(xs, ys, marker="o", markersize=3, label=name)
                if any(len(v) > 1 for _, v in pts):
                    ax.fill_between(xs, [min(v) for _, v in pts], [max(v) for _, v in pts], alpha=0.2)
            if args.ideal and groups:
                lo = min(min(g) for g in groups.values())
                hi = max(max(g) for g in groups.values())
                ax.plot([lo, hi], [lo, hi], "k--", linewidth=0.8, label="offered")
            if args.logy:
                ax.set_yscale("log")
            if args.ymax is not None:
                ax.set_ylim(top=args.ymax)
            ax.set_xlabel(label(args.x))
            ax.set_ylabel(label(ycol))
            ax.grid(True, alpha=0.3)
            if args.facet:
                ax.set_title(f"{args.facet} = {fv}")
            if groups:
                ax.legend(fontsize=7)
    if args.title:
        fig.suptitle(args.title)
    return fig


def one_point(db, args):
    if args.point is not None:
        rows = [dict(r) for r in db.execute("SELECT * FROM points WHERE id = ?", (args.point,))]
        if not rows:
            raise PlotError(f"--point {args.point}: no such point")
        return rows[0]
    rows = select(db, args.where, args.status)
    if len(rows) != 1:
        raise PlotError(f"the {args.recipe} recipe needs exactly one point (--point ID or --where); "
                        f"{len(rows)} selected (ids {', '.join(str(r['id']) for r in rows[:10])})")
    return rows[0]


def transient(plt, args, db, tables):
    p = one_point(db, args)
    ts = [dict(r) for r in db.execute("SELECT * FROM timeseries WHERE point_id = ? ORDER BY bin", (p["id"],))] \
        if "timeseries" in tables else []
    if not ts:
        raise PlotError(f"point {p['id']} has no time series (run it with timeseries.bin_cycles)")
    names = [r[0] for r in db.execute("SELECT DISTINCT name FROM switch_series WHERE point_id = ? ORDER BY name",
                                      (p["id"],))] if "switch_series" in tables else []
    ghz = p.get("clock_ghz") or 1.0
    scale, xunit = (1.0, "cycles") if args.cycles else (1.0 / (ghz * 1000.0), "us")
    x = [(r["t_start"] + r["t_end"]) / 2 * scale for r in ts]
    panels = [("latency_avg", "latency (cycles)"), ("accepted_load", "accepted (phits/node/cycle)"),
              ("nonminimal_fraction", "non-minimal (fraction)")]
    fig, axes = plt.subplots(len(panels) + len(names), 1, figsize=(7.5, 2.2 * (len(panels) + len(names))),
                             sharex=True, squeeze=False)
    for i, (col, ylab) in enumerate(panels):
        ax = axes[i][0]
        xs = [xv for xv, r in zip(x, ts) if r[col] is not None]
        ys = [r[col] for r in ts if r[col] is not None]
        ax.plot(xs, ys, marker=".", markersize=3)
        if col == "latency_avg":
            inj = [(xv, r["latency_inj_avg"]) for xv, r in zip(x, ts) if r["latency_inj_avg"] is not None]
            ax.plot([a for a, _ in inj], [b for _, b in inj], linestyle=":", label="by generation bin")
            ax.legend(fontsize=7)
        if col == "accepted_load":
            ax.plot(x, [r["generated_load"] for r in ts], linestyle=":", label="generated")
            ax.legend(fontsize=7)
        ax.set_ylabel(ylab)
        ax.grid(True, alpha=0.3)
    want = [int(s) for s in args.switches.split(",")] if args.switches else None
    for k, name in enumerate(names):
        ax = axes[len(panels) + k][0]
        rows = db.execute("SELECT bin, switch, value FROM switch_series WHERE point_id = ? AND name = ?",
                          (p["id"], name)).fetchall()
        by_bin = {}
        for b, s, v in rows:
            by_bin.setdefault(b, {})[s] = v
        bins = sorted(by_bin)
        bx = [x[b] if b < len(x) else x[-1] for b in bins]
        if want:
            for s in want:
                ax.plot(bx, [by_bin[b].get(s, math.nan) for b in bins], label=f"switch {s}")
        else:
            ax.plot(bx, [sum(by_bin[b].values()) / len(by_bin[b]) for b in bins], label="mean over switches")
            ax.plot(bx, [max(by_bin[b].values()) for b in bins], linewidth=0.6, label="max")
        ax.set_ylabel(name)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    phases = json.loads(p["phases"]) if p.get("phases") else []
    for ph in phases[1:]:
        for row in axes:
            row[0].axvline(ph["start"] * scale, color="k", linestyle="--", linewidth=0.8)
    for ph in phases:
        axes[0][0].annotate(f"{ph['traffic']} {ph['load']}", (ph["start"] * scale, 1.0),
                            xycoords=("data", "axes fraction"), fontsize=7, va="bottom")
    axes[-1][0].set_xlabel(f"time ({xunit})")
    fig.suptitle(args.title or f"point {p['id']}: {p.get('routing')} {p.get('traffic')}")
    return fig


def fairness(plt, args, db):
    p = one_point(db, args)
    if not p.get("switch_accepted"):
        raise PlotError(f"point {p['id']} has no per-switch accepted load")
    v = json.loads(p["switch_accepted"])
    fig, ax = plt.subplots(figsize=(max(6.0, len(v) * 0.05), 3.6))
    ax.bar(range(len(v)), v, width=1.0)
    mean = sum(v) / len(v)
    for val, style, name in ((min(v), ":", "min"), (mean, "--", "mean"), (max(v), ":", "max")):
        ax.axhline(val, color="k", linestyle=style, linewidth=0.8)
        ax.annotate(f"{name} {val:.4f}", (len(v) - 1, val), fontsize=7, ha="right", va="bottom")
    ax.set_xlabel("source switch")
    ax.set_ylabel(label("accepted_load"))
    jain = p.get("jain_fairness")
    ax.set_title(args.title or f"point {p['id']}: {p.get('routing')} {p.get('traffic')} load {p.get('load')}"
                 + (f", Jain {jain:.4f}" if jain is not None else ""))
    return fig


def main(argv):
    ap = argparse.ArgumentParser(prog="scfly plot", description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("--recipe", choices=["latency", "throughput", "transient", "fairness"])
    ap.add_argument("--x")
    ap.add_argument("--y", action="append")
    ap.add_argument("--series")
    ap.add_argument("--facet")
    ap.add_argument("--where")
    ap.add_argument("--status", default="ok", choices=["ok", "error", "all"])
    ap.add_argument("--point", type=int)
    ap.add_argument("--switches")
    ap.add_argument("--cycles", action="store_true")
    ap.add_argument("-o", "--output", default="scfly-plot.png")
    ap.add_argument("--title")
    ap.add_argument("--logy", action="store_true")
    ap.add_argument("--ymax", type=float)
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    args.ideal = False
    try:
        db, tables = connect(args.db)
        if args.csv:
            rows = select(db, args.where, args.status)
            with open(args.csv, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
                w.writeheader()
                w.writerows(rows)
            print(f"wrote {len(rows)} rows to {args.csv}")
            return 0
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("scfly plot: matplotlib is not available (apt-get install python3-matplotlib)", file=sys.stderr)
            return 3
        if args.recipe == "transient":
            fig = transient(plt, args, db, tables)
        elif args.recipe == "fairness":
            fig = fairness(plt, args, db)
        else:
            r = RECIPES.get(args.recipe, {})
            args.x = args.x or r.get("x")
            args.y = args.y or r.get("y")
            args.series = args.series if args.series is not None else r.get("series")
            args.facet = args.facet if args.facet is not None else r.get("facet")
            args.ideal = args.recipe == "throughput"
            if not args.x or not args.y:
                raise PlotError("give --x and --y (or a --recipe)")
            fig = curves(plt, args, db, select(db, args.where, args.status))
        save(fig, args.output)
        return 0
    except PlotError as e:
        print(f"scfly plot: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
