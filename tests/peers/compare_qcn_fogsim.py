#!/usr/bin/env python3
"""FOGSim against scfly through the QCN-Switch paper's UN <-> ADV+1 transients (sec. 5.2) on
qcn-tiny's dfly(2,4,2), bin by bin (issue 52, item 1). Python 3 stdlib (+ matplotlib for `plot`).

  compare_qcn_fogsim.py import --fogsim-csv DIR --scfly-json DIR [--data DIR]
      FOGSim's per-seed CSVs (tests/peers/fogsim-qcn/README.md: parse.py's output,
      <set>_sN.csv, <set>_sN_b500.csv, <set>_sN_per_switch.csv) and scfly's JSONs
      (<set>_sN.json, <set>_sN_b500.json, <set>_sN_fw.json) -> the compact CSVs in --data
      (default docs/data/qcn-fogsim).
  compare_qcn_fogsim.py report [--data DIR]      the tables (Markdown) from those CSVs
  compare_qcn_fogsim.py plot [--data DIR] [--out DIR]   docs/figures/qcn-fogsim-{un-adv,adv-un}.png

Common columns (one row per bin [t_start, t_end), cycles of 10 ns; t_rel = t_start - change):
  lat_deliv        mean latency of the data packets delivered in the bin, from their entry into
                   the switch's injection buffer to tail delivery: FOGSim `lat_avg` (its latency
                   starts at `inCycle`, the generation into the injection buffer: it has no source
                   queue), scfly `network_latency_avg`
  lat_gen          mean latency of the packets generated in the bin. NOT the same definition:
                   FOGSim `lat_gen_avg` (from the injection buffer, as above), scfly
                   `latency_inj_avg` (from generation at the NIC, its unbounded source queue
                   included)
  misrouted_deliv  fraction of the delivered packets that went non-minimally (FOGSim
                   `misrouted`: >= 1 global misroute; scfly `nonminimal_fraction`)
  misrouted_gen    FOGSim only (by generation cycle, its `.transient`)
  accepted_load, generated_load   phits/node/cycle (FOGSim generates only into free buffer room)
  cnm_sent, cnm_rx CNMs sent into the network / applied at their destination switch in the bin
                   (scfly: the per-switch cumulative `qcn_cnms_sent` / `qcn_cnms_received`
                   summed over switches, differenced)
  cnm_local        FOGSim only per bin (local updates: culprit from the CP switch itself)
  P                percent, at the bin's end, of port 4 of switch 1 (group 0, index 1): its local
                   port toward switch 3 = S_out, owner of group 0's global link to group 1
                   (FOGSim `P_sw1_port4`; scfly `per_switch.qcn_p4_local[bin][1]`; both number
                   ports hosts 0..p-1, local p..p+a-2 by neighbour index skipping itself)

Definitions used by `report` (the same code for both simulators, per seed, then mean and
min-max over seeds):
  final value F    mean of lat_deliv over the last 0.2 ms (20,000 cycles) of the record window
                   that ends 1.0 ms after the change
  settling time    the start (t_rel) of the first bin at or after the change from which every
                   bin's lat_deliv up to the end of the record window is within +-20 % of F;
                   0 means the first bin after the change already is. 20 us bins (2,000
                   cycles), and 5 us bins (500 cycles) for ADV+1 -> UN
  value at time t  misrouted: the 5 us bin ending at t ([t - 5 us, t)); P: the sample at t
                   (the end of the 5 us bin ending at t)
  final window     the last 0.4 ms of the run (40,000 cycles: 0.8-1.2 ms after the change),
                   per source switch: scfly `metrics.switch_accepted` of a run whose summary
                   window is moved there (warm-up = run - 40,000; its time series is the same as
                   the warm-up-0 run's, checked by `import`), FOGSim the packets its hosts write
                   into their injection buffers (`inj_sw`: in steady state what they get
                   delivered, FOGSim drops nothing); FOGSim by destination switch (`rx_sw`) too
"""
import argparse
import csv
import json
import math
import os
import sys

SETS = {
    # set: (transient, change cycle, run length, FOGSim seeds (= scfly seeds))
    "tiny_un2adv": ("UN -> ADV+1", 20000, 140000, 10),
    "tinyrr_un2adv": ("UN -> ADV+1", 20000, 140000, 3),
    "tiny_adv2un": ("ADV+1 -> UN", 20000, 140000, 10),
    "tinyrr_adv2un": ("ADV+1 -> UN", 20000, 140000, 3),
    "tinylong_adv2un": ("ADV+1 -> UN", 100000, 220000, 3),
}
SET_NOTE = {
    "tiny_un2adv": "FOGSim's allocator (2 passes, transit priority)",
    "tinyrr_un2adv": "one allocator pass, round-robin arbiters",
    "tiny_adv2un": "FOGSim's allocator; 0.2 ms of ADV+1 from cold",
    "tinyrr_adv2un": "one pass, round-robin; 0.2 ms of ADV+1 from cold",
    "tinylong_adv2un": "FOGSim's allocator; 1.0 ms of ADV+1 first",
}
COLS = ["lat_deliv", "lat_gen", "misrouted_deliv", "misrouted_gen", "accepted_load", "generated_load",
        "cnm_sent", "cnm_rx", "cnm_local", "P"]
RECORD_MS = 1.0        # the record window ends this long after the change
FINAL_MS = 0.2         # F = mean over the last FINAL_MS of the record window
BAND = 0.20            # settling band, fraction of F
CYCLES_PER_MS = 100000  # 10 ns cycles
MIS_TIMES_US = [5, 20, 100, 200, 400, 800]
P_TIMES_US = [5, 20, 50, 100, 200, 400, 800]
FW_CYCLES = 40000      # the final window (per-switch loads)
SIDES = ["fogsim", "scfly"]


def fnum(x):
    return "" if x is None else ("%.5g" % x)


def num(s):
    return None if s in ("", None) else float(s)


# ---------------------------------------------------------------- import
def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def fogsim_rows(path):
    out = []
    for r in read_csv(path):
        out.append({
            "t_start": int(r["t_start"]), "t_end": int(r["t_end"]),
            "lat_deliv": num(r["lat_avg"]), "lat_gen": num(r["lat_gen_avg"]),
            "misrouted_deliv": num(r["misrouted"]), "misrouted_gen": num(r["misrouted_gen"]),
            "accepted_load": num(r["accepted_load"]), "generated_load": num(r["generated_load"]),
            "cnm_sent": num(r["cnm_sent"]), "cnm_rx": num(r["cnm_rx"]), "cnm_local": num(r["cnm_local"]),
            "P": num(r["P"]),
        })
    return out


def scfly_rows(d):
    ts = d["timeseries"]
    ps = ts["per_switch"]
    out = []
    prev_s = prev_r = 0.0
    for i in range(len(ts["t_start"])):
        s = sum(ps["qcn_cnms_sent"][i])
        r = sum(ps["qcn_cnms_received"][i])
        out.append({
            "t_start": int(ts["t_start"][i]), "t_end": int(ts["t_end"][i]),
            "lat_deliv": ts["network_latency_avg"][i], "lat_gen": ts["latency_inj_avg"][i],
            "misrouted_deliv": ts["nonminimal_fraction"][i], "misrouted_gen": None,
            "accepted_load": ts["accepted_load"][i], "generated_load": ts["generated_load"][i],
            "cnm_sent": s - prev_s, "cnm_rx": r - prev_r, "cnm_local": None,
            "P": ps["qcn_p4_local"][i][1],
        })
        prev_s, prev_r = s, r
    return out


def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q > 0 else None


def write_bins(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["side", "seed", "t_start", "t_end", "t_rel"] + COLS)
        for r in rows:
            w.writerow([r["side"], r["seed"], r["t_start"], r["t_end"], r["t_rel"]] + [fnum(r[c]) for c in COLS])


def cmd_import(a):
    os.makedirs(a.data, exist_ok=True)
    totals, fw = [], []
    for st, (_, change, length, nseeds) in SETS.items():
        for b, sfx in [(2000, ""), (500, "_b500")]:
            rows = []
            for seed in range(1, nseeds + 1):
                fr = fogsim_rows(os.path.join(a.fogsim_csv, "%s_s%d%s.csv" % (st, seed, sfx)))
                with open(os.path.join(a.scfly_json, "%s_s%d%s.json" % (st, seed, sfx))) as f:
                    d = json.load(f)
                sr = scfly_rows(d)
                for side, rr in (("fogsim", fr), ("scfly", sr)):
                    for r in rr:
                        assert r["t_end"] - r["t_start"] == b, (st, side, seed, r)
                        if r["t_end"] > length:
                            continue
                        r.update(side=side, seed=seed, t_rel=r["t_start"] - change)
                        rows.append(r)
                if b == 2000:
                    m = d["metrics"]
                    c = m["counters"]
                    last = d["timeseries"]["per_switch"]
                    assert sum(last["qcn_cnms_sent"][-1]) == c["qcn_cnms_sent"], (st, seed)
                    totals.append(["scfly", st, seed, c["qcn_cnms_sent"], c["qcn_cnms_received"],
                                   c["qcn_local_updates"], c.get("qcn_samples", ""),
                                   c.get("qcn_congested_samples", ""), m["generated_load"], m["accepted_load"]])
                    totals.append(["fogsim", st, seed, sum(r["cnm_sent"] for r in fr), sum(r["cnm_rx"] for r in fr),
                                   sum(r["cnm_local"] for r in fr), "", "",
                                   sum(r["generated_load"] for r in fr) / len(fr),
                                   sum(r["accepted_load"] for r in fr) / len(fr)])
                    # final window: scfly's summary-window run
                    with open(os.path.join(a.scfly_json, "%s_s%d_fw.json" % (st, seed))) as f:
                        dfw = json.load(f)
                    n = len(d["timeseries"]["t_start"])
                    for k in ("network_latency_avg", "nonminimal_fraction", "accepted_load"):
                        assert dfw["timeseries"][k][:n - FW_CYCLES // 2000] == d["timeseries"][k][:n - FW_CYCLES // 2000], \
                            ("the summary window changed the time series", st, seed, k)
                    sa = dfw["metrics"]["switch_accepted"]
                    fw.append(["scfly", st, seed, "source", length - FW_CYCLES, length, min(sa), max(sa),
                               sum(sa) / len(sa), jain(sa)])
                    ps = read_csv(os.path.join(a.fogsim_csv, "%s_s%d_per_switch.csv" % (st, seed)))
                    for key, name in (("injected_load", "source"), ("accepted_load", "destination")):
                        per = {}
                        for r in ps:
                            if int(r["t_start"]) >= length - FW_CYCLES and int(r["t_end"]) <= length:
                                per.setdefault(int(r["switch"]), []).append(float(r[key]))
                        xs = [sum(v) / len(v) for _, v in sorted(per.items())]
                        fw.append(["fogsim", st, seed, name, length - FW_CYCLES, length, min(xs), max(xs),
                                   sum(xs) / len(xs), jain(xs)])
            write_bins(os.path.join(a.data, "bins%s_%s.csv" % ("" if b == 2000 else "500", st)), rows)
            if b == 2000:
                write_mean(os.path.join(a.data, "mean_%s.csv" % st), rows)
    with open(os.path.join(a.data, "totals.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["side", "set", "seed", "cnm_sent", "cnm_received", "local_updates", "samples",
                    "congested_samples", "generated_load", "accepted_load"])
        w.writerows([[fnum(x) if isinstance(x, float) else x for x in r] for r in totals])
    with open(os.path.join(a.data, "final_window.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["side", "set", "seed", "per", "t_start", "t_end", "min", "max", "mean", "jain"])
        w.writerows([[fnum(x) if isinstance(x, float) else x for x in r] for r in fw])
    print("wrote %s" % a.data)


def write_mean(path, rows):
    keys = sorted({(r["side"], r["t_start"]) for r in rows})
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["side", "t_start", "t_end", "t_rel", "seeds"] + COLS + [c + "_min" for c in ("lat_deliv", "misrouted_deliv", "P")]
                   + [c + "_max" for c in ("lat_deliv", "misrouted_deliv", "P")])
        by = {}
        for r in rows:
            by.setdefault((r["side"], r["t_start"]), []).append(r)
        for k in keys:
            rr = by[k]
            vals, lo, hi = [], [], []
            for c in COLS:
                xs = [r[c] for r in rr if r[c] is not None]
                vals.append(fnum(sum(xs) / len(xs)) if xs else "")
            for c in ("lat_deliv", "misrouted_deliv", "P"):
                xs = [r[c] for r in rr if r[c] is not None]
                lo.append(fnum(min(xs)) if xs else "")
                hi.append(fnum(max(xs)) if xs else "")
            w.writerow([k[0], k[1], rr[0]["t_end"], rr[0]["t_rel"], len(rr)] + vals + lo + hi)


# ---------------------------------------------------------------- report
def load_bins(data, st, b500=False):
    rows = read_csv(os.path.join(data, "bins%s_%s.csv" % ("500" if b500 else "", st)))
    out = {}
    for r in rows:
        rr = {k: (int(v) if k in ("seed", "t_start", "t_end", "t_rel") else (v if k == "side" else num(v)))
              for k, v in r.items()}
        out.setdefault((rr["side"], rr["seed"]), []).append(rr)
    for v in out.values():
        v.sort(key=lambda r: r["t_start"])
    return out


def settling(series, bin_cycles):
    """series: bins of one seed (t_rel, lat_deliv). Returns (t_settle cycles or None, F)."""
    rec_end = int(RECORD_MS * CYCLES_PER_MS)
    fin0 = rec_end - int(FINAL_MS * CYCLES_PER_MS)
    after = [r for r in series if 0 <= r["t_rel"] and r["t_rel"] + bin_cycles <= rec_end]
    fin = [r["lat_deliv"] for r in after if r["t_rel"] >= fin0 and r["lat_deliv"] is not None]
    F = sum(fin) / len(fin)
    t = None
    for r in reversed(after):
        x = r["lat_deliv"]
        if x is None or abs(x - F) > BAND * F:
            break
        t = r["t_rel"]
    return t, F


def at_end(series, t_cycles, col):
    for r in series:
        if r["t_rel"] + (r["t_end"] - r["t_start"]) == t_cycles:
            return r[col]
    return None


def stat(xs, fmt="%.0f", scale=1.0):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "—"
    m = sum(xs) / len(xs) * scale
    lo, hi = min(xs) * scale, max(xs) * scale
    if len(xs) == 1 or (fmt % lo) == (fmt % hi):
        return fmt % m
    return (fmt + " (" + fmt + "–" + fmt + ")") % (m, lo, hi)


def cmd_report(a):
    pr = print
    pr("Means over seeds, (min–max) over seeds. Latency: cycles of 10 ns, packets delivered in the bin,"
       " from the injection buffer (FOGSim latency, scfly network latency).\n")
    pr("### Settling time (latency by delivery within ±%d %% of F = its mean over %.1f–%.1f ms)\n"
       % (BAND * 100, RECORD_MS - FINAL_MS, RECORD_MS))
    pr("| set | transient | seeds | FOGSim F | scfly F | FOGSim settles (20 µs bins), ms | scfly settles (20 µs bins), ms"
       " | FOGSim settles (5 µs bins), ms | scfly settles (5 µs bins), ms | FOGSim not settled (seeds) | scfly not settled |")
    pr("|---|---|---|---|---|---|---|---|---|---|---|")
    for st, (tr, _, _, ns) in SETS.items():
        b20, b5 = load_bins(a.data, st), load_bins(a.data, st, True)
        cells, Fs, uns = {}, {}, {}
        for side in SIDES:
            t20 = [settling(b20[(side, s)], 2000) for s in range(1, ns + 1)]
            t5 = [settling(b5[(side, s)], 500) for s in range(1, ns + 1)]
            Fs[side] = stat([F for _, F in t20])
            cells[side] = (stat([t for t, _ in t20], "%.3f", 1 / CYCLES_PER_MS),
                           stat([t for t, _ in t5], "%.3f", 1 / CYCLES_PER_MS))
            uns[side] = sum(1 for t, _ in t20 if t is None)
        pr("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %d | %d |" % (
            st, tr, ns, Fs["fogsim"], Fs["scfly"], cells["fogsim"][0], cells["scfly"][0], cells["fogsim"][1],
            cells["scfly"][1], uns["fogsim"], uns["scfly"]))
    pr("\n### Misrouted fraction (by delivery, %%) in the 5 µs bin ending at t after the change"
       " (FOGSim by generation in brackets)\n")
    pr("| set | side | " + " | ".join("%g µs" % t for t in MIS_TIMES_US) + " | before the change (last 20 µs) |")
    pr("|---|---|" + "---|" * (len(MIS_TIMES_US) + 1))
    for st, (tr, _, _, ns) in SETS.items():
        b5, b20 = load_bins(a.data, st, True), load_bins(a.data, st)
        for side in SIDES:
            cells = []
            for t in MIS_TIMES_US:
                c = stat([at_end(b5[(side, s)], t * 100, "misrouted_deliv") for s in range(1, ns + 1)], "%.1f", 100)
                if side == "fogsim":
                    c += " [%s]" % stat([at_end(b5[(side, s)], t * 100, "misrouted_gen") for s in range(1, ns + 1)],
                                        "%.1f", 100)
                cells.append(c)
            before = stat([at_end(b20[(side, s)], 0, "misrouted_deliv") for s in range(1, ns + 1)], "%.1f", 100)
            pr("| %s | %s | %s | %s |" % (st, side, " | ".join(cells), before))
    pr("\n### P (%%) of switch 1's port 4 (toward S_out), sampled t after the change\n")
    pr("| set | side | at the change | " + " | ".join("%g µs" % t for t in P_TIMES_US) + " | 1.0 ms |")
    pr("|---|---|---|" + "---|" * (len(P_TIMES_US) + 1))
    for st, (tr, _, _, ns) in SETS.items():
        b5 = load_bins(a.data, st, True)
        for side in SIDES:
            cells = [stat([at_end(b5[(side, s)], t, "P") for s in range(1, ns + 1)], "%.1f")
                     for t in [0] + [x * 100 for x in P_TIMES_US] + [100000]]
            pr("| %s | %s | %s |" % (st, side, " | ".join(cells)))
    pr("\n### CNMs (network-wide)\n")
    pr("Per 0.1 ms after the change (sent; received in brackets), then totals over the whole run"
       " (sent / received / local updates).\n")
    pr("| set | side | before | " + " | ".join("%.1f–%.1f ms" % (i / 10, (i + 1) / 10) for i in range(10))
       + " | run total sent | received | local updates |")
    pr("|---|---|---|" + "---|" * 13)
    tot = read_csv(os.path.join(a.data, "totals.csv"))
    for st, (tr, _, _, ns) in SETS.items():
        b20 = load_bins(a.data, st)
        for side in SIDES:
            cells = []
            for lo, hi in [(-10 ** 9, 0)] + [(i * 10000, (i + 1) * 10000) for i in range(10)]:
                s_ = [sum(r["cnm_sent"] for r in b20[(side, s)] if lo <= r["t_rel"] < hi) for s in range(1, ns + 1)]
                r_ = [sum(r["cnm_rx"] for r in b20[(side, s)] if lo <= r["t_rel"] < hi) for s in range(1, ns + 1)]
                cells.append("%s [%s]" % (stat(s_, "%.1f"), stat(r_, "%.1f")))
            tt = [r for r in tot if r["side"] == side and r["set"] == st]
            pr("| %s | %s | %s | %s | %s | %s |" % (
                st, side, " | ".join(cells), stat([num(r["cnm_sent"]) for r in tt], "%.1f"),
                stat([num(r["cnm_received"]) for r in tt], "%.1f"), stat([num(r["local_updates"]) for r in tt], "%.1f")))
    pr("\n### Per-switch load in the final window (the run's last 0.4 ms: 0.8–1.2 ms after the change)\n")
    pr("| set | side | per switch of | min | max | mean | Jain |")
    pr("|---|---|---|---|---|---|---|")
    fw = read_csv(os.path.join(a.data, "final_window.csv"))
    for st in SETS:
        for side in SIDES:
            for per in ("source", "destination"):
                rr = [r for r in fw if r["set"] == st and r["side"] == side and r["per"] == per]
                if rr:
                    pr("| %s | %s | %s | %s | %s | %s | %s |" % (
                        st, side, per, stat([num(r["min"]) for r in rr], "%.3f"), stat([num(r["max"]) for r in rr], "%.3f"),
                        stat([num(r["mean"]) for r in rr], "%.3f"), stat([num(r["jain"]) for r in rr], "%.4f")))
    pr("\n### Latency by delivery (cycles) in the 20 µs bin ending at t after the change\n")
    pr("| set | side | before | 20 µs | 0.1 ms | 0.2 ms | 0.4 ms | 0.6 ms | 0.8 ms | 1.0 ms |")
    pr("|---|---|---|---|---|---|---|---|---|---|")
    for st, (tr, _, _, ns) in SETS.items():
        b20 = load_bins(a.data, st)
        for side in SIDES:
            cells = [stat([at_end(b20[(side, s)], t, "lat_deliv") for s in range(1, ns + 1)])
                     for t in (0, 2000, 10000, 20000, 40000, 60000, 80000, 100000)]
            pr("| %s | %s | %s |" % (st, side, " | ".join(cells)))


# ---------------------------------------------------------------- plot
def cmd_plot(a):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figs = {"qcn-fogsim-un-adv.png": ["tiny_un2adv", "tinyrr_un2adv"],
            "qcn-fogsim-adv-un.png": ["tinylong_adv2un", "tiny_adv2un"]}
    colors = {"fogsim": "tab:red", "scfly": "tab:blue"}
    for name, sets in figs.items():
        fig, axes = plt.subplots(3, len(sets), figsize=(6 * len(sets), 9), sharex="col", squeeze=False)
        for j, st in enumerate(sets):
            tr, change, length, ns = SETS[st]
            rows = read_csv(os.path.join(a.data, "mean_%s.csv" % st))
            for side in SIDES:
                rr = [r for r in rows if r["side"] == side]
                t = [(int(r["t_rel"]) + 1000) / CYCLES_PER_MS for r in rr]
                for i, (col, scale, lab) in enumerate([("lat_deliv", 1, "latency by delivery (cycles)"),
                                                        ("misrouted_deliv", 100, "misrouted, by delivery (%)"),
                                                        ("P", 1, "P of sw 1 port 4 toward S_out (%)")]):
                    ax = axes[i][j]
                    y = [num(r[col]) for r in rr]
                    lo = [num(r[col + "_min"]) for r in rr]
                    hi = [num(r[col + "_max"]) for r in rr]
                    ok = [k for k in range(len(t)) if y[k] is not None]
                    ax.plot([t[k] for k in ok], [y[k] * scale for k in ok], color=colors[side],
                            label="%s (mean of %d seeds)" % ("FOGSim dcdd75f" if side == "fogsim" else "scfly", ns))
                    ax.fill_between([t[k] for k in ok], [lo[k] * scale for k in ok], [hi[k] * scale for k in ok],
                                    color=colors[side], alpha=0.2, linewidth=0)
                    ax.set_ylabel(lab)
                    ax.axvline(0, color="k", linewidth=0.5)
                    if col == "lat_deliv":
                        ax.set_yscale("log")
            axes[0][j].set_title("%s: %s\n(%s)" % (st, tr, SET_NOTE[st]))
            axes[0][j].legend(fontsize=8)
            axes[2][j].set_xlabel("time after the change (ms), 20 µs bins; band = min–max over seeds")
        fig.suptitle("QCN-Switch transients on qcn-tiny dfly(2,4,2), load 0.4: FOGSim vs scfly")
        fig.tight_layout()
        out = os.path.join(a.out, name)
        fig.savefig(out, dpi=90)
        print("wrote %s" % out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("import")
    i.add_argument("--fogsim-csv", required=True)
    i.add_argument("--scfly-json", required=True)
    for p in (i, sub.add_parser("report"), sub.add_parser("plot")):
        p.add_argument("--data", default=os.path.join(root, "docs", "data", "qcn-fogsim"))
        if p.prog.endswith("plot"):
            p.add_argument("--out", default=os.path.join(root, "docs", "figures"))
    a = ap.parse_args()
    {"import": cmd_import, "report": cmd_report, "plot": cmd_plot}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
