#!/usr/bin/env python3
"""FOGSim against scfly through the QCN-Switch transients on dfly(4,8,4) (issue 52, item 1),
bin by bin. Python 3 stdlib. The qcn-tiny comparison is compare_qcn_fogsim.py beside it.

  compare_qcn_fogsim_d484.py import --scfly-json DIR [--fogsim-runs DIR] [--data DIR]
      scfly's JSONs (tests/peers/fogsim-qcn/scfly_run_d484.sh: <variant>_<set>_sN.json) ->
      per-bin CSVs in FOGSim's format (docs/data/qcn-fogsim/fogsim-d484/) under
      docs/data/qcn-fogsim/scfly-d484/ (<variant>_<set>_sN.csv, <variant>_<set>_mean.csv) and
      the run totals (totals.csv: CNMs sent / received / local updates, skipped generations);
      with --fogsim-runs (FOGSim's run directories, <set>_sN/out.bins, e.g.
      /work/fogsim-work/runs) also FOGSim's P_mid_mean per bin (fogsim-d484/fogsim_<set>_sN_pmid.csv)
  compare_qcn_fogsim_d484.py report [--data DIR]
      the tables (Markdown), FOGSim (fogsim-d484/) against every scfly variant (scfly-d484/)
  compare_qcn_fogsim_d484.py events --scfly-json DIR --fogsim-runs DIR [--data DIR]
      P-decrease events per window after the change, both sides, from every switch's P at every
      2,000-cycle bin end (scfly's per-switch series, FOGSim's out.bins): a (switch, port) whose P
      fell in a bin counts once, split by port (port 10 of switches 0-6 = toward S_out; global
      ports 11-14; other local ports) and, for scfly, by whether the switch received a CNM in that
      bin (none: the drop was a local update of the switch's own congestion point) ->
      scfly-d484/events.csv and a table; plus the CNMs scfly's S_out switches (index 7) sent

Sets (cycles of 10 ns; FOGSim's pieces, docs/data/qcn-fogsim/fogsim-d484/COMMANDS.txt):
  d484_un2adv   UN, ADV+1 from cycle 5,000; bins to 60,000 (0.55 ms after the change)
  d484_adv2un   ADV+1 from cold, UN from cycle 20,000; bins to 44,000 (0.24 ms after)
Bins are 2,000 cycles from cycle 0, so under UN -> ADV+1 the change falls in the middle of the
bin [4,000, 6,000) (t_rel -1,000): times after the change are bin ends, 0.01, 0.03, ... ms.

scfly columns in FOGSim's format (parse.py's docstring has FOGSim's side):
  lat_avg          network_latency_avg (delivered in the bin; from the injection buffer, as
                   FOGSim's latency)
  lat_gen_avg      latency_inj_avg: packets generated in the bin, from generation at the NIC
                   (with source.when_full: queue this includes the unbounded source queue;
                   FOGSim has none). NOT FOGSim's definition under queue
  misrouted        nonminimal_fraction (delivered in the bin)
  accepted_load, generated_load   phits/node/cycle (scfly's generated load is the offered
                   0.4 with the queue, what found room with skip)
  cnm_sent, cnm_rx the per-switch cumulative qcn_cnms_sent / qcn_cnms_received summed over
                   switches, differenced
  P                qcn_p10_local of switch 1 (group 0, index 1) at the bin's end: its local
                   port toward switch 7 = S_out (owner of group 0's global link to group 1),
                   FOGSim's P of switch 1's port 10
  misrouted_gen, pkts_gen, netlat_avg, cnm_local, cnm_dropped   not per bin in scfly (empty;
                   scfly's local updates are a run total in totals.csv)
  scfly only, appended: lat_total_avg (latency_avg: from generation, source queue included),
                   packets (delivered in the bin), P_mid_mean (mean over groups of the mean P
                   toward S_out of switches 0-6: the network-wide counterpart of P)

Definitions used by `report` (the same code for both sides, per seed, then mean and (min-max)):
  F                mean lat_avg over the last 0.1 ms (10,000 cycles) of the set's bins
                   (un2adv 0.45-0.55 ms, adv2un 0.14-0.24 ms after the change). Neither side is
                   in steady state there (the windows are FOGSim's, cut to ~10 CPU-minutes a
                   piece), so F is "where the run ends", not a steady value
  settling time    start (t_rel) of the first bin after the change from which every bin's lat_avg
                   up to the end is within +-20 % of F
"""
import argparse
import csv
import json
import os
import sys

SETS = {
    # set: (transient, change cycle, last bin end)
    "d484_un2adv": ("UN -> ADV+1", 5000, 60000),
    "d484_adv2un": ("ADV+1 -> UN", 20000, 44000),
}
VARIANTS = {
    "pfc": "qcn-dfly-4-8-4.yaml (PFC, source queue) + FOGSim's allocator",
    "fog": "pfc + credit flow control, source.when_full=skip, switch.output_credits=inside",
    "fogio": "fog + one output FIFO per port, credits at the grant, XbarDelay at the output, "
             "transfer crossbar, consume port on idle host",
    "fogq": "fog + qcn.cp_queue=output (the output FIFO only, culprit its first packet)",
    "fogql": "fogq + qcn.local_update_port=minimal (local update on the culprit's minimal port)",
    "fogioq": "fogio + qcn.cp_queue=output",
    "fogioql": "fogioq + qcn.local_update_port=minimal",
    "fogioqlt": "fogioql + qcn.sampling_clock=time",
}
SEEDS = [1, 2, 3]
BIN = 2000
A, P_PORT, P_SWITCH = 8, 10, 1
FOG_COLS = ["t_start", "t_end", "t_rel", "runs", "lat_gen_avg", "misrouted_gen", "pkts_gen", "lat_avg",
            "netlat_avg", "misrouted", "accepted_load", "generated_load", "cnm_sent", "cnm_rx", "cnm_local",
            "cnm_dropped", "P"]
SC_COLS = FOG_COLS + ["lat_total_avg", "packets", "P_mid_mean"]
FINAL = 10000          # F over the last 0.1 ms of the bins
BAND = 0.20
CPMS = 100000          # cycles per ms


def fnum(x):
    return "" if x is None else ("%.6g" % x)


def num(s):
    return None if s in ("", None) else float(s)


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# ---------------------------------------------------------------- import
def scfly_rows(d, change, last):
    ts = d["timeseries"]
    ps = ts["per_switch"]
    key = "qcn_p%d_local" % P_PORT
    out = []
    prev_s = prev_r = 0.0
    for i in range(len(ts["t_start"])):
        s = sum(ps["qcn_cnms_sent"][i])
        r = sum(ps["qcn_cnms_received"][i])
        row = ps[key][i]
        nsw = len(row)
        groups = nsw // A
        pm = [sum(row[g * A + k] for k in range(A - 1)) / (A - 1) for g in range(groups)]
        t0, t1 = int(ts["t_start"][i]), int(ts["t_end"][i])
        if t1 <= last:
            assert t1 - t0 == BIN, (t0, t1)
            out.append({
                "t_start": t0, "t_end": t1, "t_rel": t0 - change, "runs": 1,
                "lat_gen_avg": ts["latency_inj_avg"][i], "lat_avg": ts["network_latency_avg"][i],
                "misrouted": ts["nonminimal_fraction"][i], "accepted_load": ts["accepted_load"][i],
                "generated_load": ts["generated_load"][i], "cnm_sent": s - prev_s, "cnm_rx": r - prev_r,
                "P": row[P_SWITCH], "lat_total_avg": ts["latency_avg"][i], "packets": ts["packets"][i],
                "P_mid_mean": sum(pm) / len(pm),
            })
        prev_s, prev_r = s, r
    return out


def write_rows(path, rows, cols):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([fnum(r.get(c)) if not isinstance(r.get(c), int) else r.get(c) for c in cols])


def mean_rows(per_seed):
    out = []
    for i in range(len(per_seed[0])):
        rr = [s[i] for s in per_seed]
        m = {"t_start": rr[0]["t_start"], "t_end": rr[0]["t_end"], "t_rel": rr[0]["t_rel"]}
        n = 0
        for c in SC_COLS[4:]:
            xs = [r.get(c) for r in rr if r.get(c) is not None]
            m[c] = sum(xs) / len(xs) if xs else None
            n = max(n, len(xs))
        m["runs"] = n
        out.append(m)
    return out


def fogsim_pmid(path, change):
    """P_mid_mean at each 2,000-cycle bin end from a FOGSim .bins file (500-cycle rows)."""
    with open(path) as f:
        h = f.readline().rstrip("\n").split("\t")
        col = {k: i for i, k in enumerate(h) if k}
        out = []
        for line in f:
            x = line.rstrip("\n").split("\t")
            t0, t1 = int(x[col["t_start"]]), int(x[col["t_end"]])
            if t1 % BIN:
                continue
            groups, pm = 0, []
            while "P_sw%d_port%d" % (groups * A, P_PORT) in col:
                pm.append(sum(float(x[col["P_sw%d_port%d" % (groups * A + k, P_PORT)]]) for k in range(A - 1)) / (A - 1))
                groups += 1
            out.append({"t_start": t1 - BIN, "t_end": t1, "t_rel": t1 - BIN - change, "P_mid_mean": sum(pm) / len(pm)})
    return out


def cmd_import(a):
    if a.fogsim_runs:
        for st, (_, change, last) in SETS.items():
            for seed in SEEDS:
                rows = [r for r in fogsim_pmid(os.path.join(a.fogsim_runs, "%s_s%d" % (st, seed), "out.bins"), change)
                        if r["t_end"] <= last]
                write_rows(os.path.join(a.data, "fogsim-d484", "fogsim_%s_s%d_pmid.csv" % (st, seed)), rows,
                           ["t_start", "t_end", "t_rel", "P_mid_mean"])
    out = os.path.join(a.data, "scfly-d484")
    os.makedirs(out, exist_ok=True)
    totals = []
    # Variants with no JSON here keep their committed totals rows.
    present = {v for v in VARIANTS for st in SETS for seed in SEEDS
               if os.path.exists(os.path.join(a.scfly_json, "%s_%s_s%d.json" % (v, st, seed)))}
    tpath = os.path.join(out, "totals.csv")
    if os.path.exists(tpath):
        with open(tpath) as f:
            totals = [r for r in list(csv.reader(f))[1:] if r and r[0] not in present]
    for v in VARIANTS:
        for st, (_, change, last) in SETS.items():
            per = []
            for seed in SEEDS:
                p = os.path.join(a.scfly_json, "%s_%s_s%d.json" % (v, st, seed))
                if not os.path.exists(p):
                    print("missing %s" % p, file=sys.stderr)
                    continue
                with open(p) as f:
                    d = json.load(f)
                rows = scfly_rows(d, change, last)
                write_rows(os.path.join(out, "%s_%s_s%d.csv" % (v, st, seed)), rows, SC_COLS)
                per.append(rows)
                c = d["metrics"]["counters"]
                totals.append([v, st, seed, c["qcn_cnms_sent"], c["qcn_cnms_received"], c["qcn_local_updates"],
                               c.get("qcn_samples", ""), c.get("qcn_congested_samples", ""),
                               c.get("source_skipped_generations", 0)])
            if per:
                write_rows(os.path.join(out, "%s_%s_mean.csv" % (v, st)), mean_rows(per), SC_COLS)
    with open(os.path.join(out, "totals.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "set", "seed", "cnm_sent", "cnm_received", "local_updates", "samples",
                    "congested_samples", "skipped_generations"])
        w.writerows(totals)
    print("wrote %s" % out)


# ---------------------------------------------------------------- report
def load(data, side, st, seed):
    """side 'fogsim' or a scfly variant; rows with numbers."""
    pm = {}
    if side == "fogsim":
        p = os.path.join(data, "fogsim-d484", "fogsim_%s_s%d.csv" % (st, seed))
        pp = os.path.join(data, "fogsim-d484", "fogsim_%s_s%d_pmid.csv" % (st, seed))
        if os.path.exists(pp):
            pm = {int(r["t_start"]): num(r["P_mid_mean"]) for r in read_csv(pp)}
    else:
        p = os.path.join(data, "scfly-d484", "%s_%s_s%d.csv" % (side, st, seed))
    if not os.path.exists(p):
        return None
    rows = []
    last = SETS[st][2]
    for r in read_csv(p):
        rr = {k: num(v) for k, v in r.items()}
        if rr["t_end"] <= last:
            if side == "fogsim":
                rr["P_mid_mean"] = pm.get(int(rr["t_start"]))
            rows.append(rr)
    return rows


def settling(rows):
    after = [r for r in rows if r["t_rel"] + BIN > 0]
    end = after[-1]["t_rel"] + BIN
    fin = [r["lat_avg"] for r in after if r["t_rel"] >= end - FINAL and r["lat_avg"] is not None]
    F = sum(fin) / len(fin)
    t = None
    for r in reversed(after):
        x = r["lat_avg"]
        if x is None or abs(x - F) > BAND * F:
            break
        t = max(r["t_rel"], 0)
    return t, F


def at_end(rows, t_rel_end, col):
    for r in rows:
        if r["t_rel"] + BIN == t_rel_end:
            return r.get(col)
    return None


def window_sum(rows, lo, hi, col):
    return sum(r[col] or 0 for r in rows if lo <= r["t_rel"] + BIN <= hi)


def stat(xs, fmt="%.0f", scale=1.0):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "—"
    m = sum(xs) / len(xs) * scale
    lo, hi = min(xs) * scale, max(xs) * scale
    if len(xs) == 1 or (fmt % lo) == (fmt % hi):
        return fmt % m
    return (fmt + " (" + fmt + "–" + fmt + ")") % (m, lo, hi)


def sides(data):
    out = ["fogsim"]
    for v in VARIANTS:
        if os.path.exists(os.path.join(data, "scfly-d484", "%s_d484_un2adv_s1.csv" % v)):
            out.append(v)
    return out


def label(side):
    return "FOGSim" if side == "fogsim" else "scfly `%s`" % side


def times(st):
    # bin ends after the change, cycles relative to it
    if st == "d484_un2adv":
        return [1000, 3000, 5000, 11000, 21000, 31000, 41000, 51000, 55000]
    return [2000, 4000, 10000, 16000, 20000, 24000]


def cmd_report(a):
    pr = print
    sd = sides(a.data)
    pr("dfly(4,8,4), load 0.4, 3 seeds per side; mean (min–max) over seeds. Latency: cycles of 10 ns, packets "
       "delivered in the bin, from the injection buffer. Times: the end of the 20 µs bin, after the change.\n")
    for st, (tr, change, last) in SETS.items():
        data = {s: [load(a.data, s, st, n) for n in SEEDS] for s in sd}
        data = {s: [r for r in v if r is not None] for s, v in data.items()}
        ts = times(st)
        pr("#### %s (`%s`: change at cycle %d, bins to %d)\n" % (tr, st, change, last))
        pr("| side | seeds | F (last 0.1 ms) | settling time, ms | settled seeds | latency before the change |"
           " latency at " + " / ".join("%g" % (t / CPMS) for t in ts[2::2]) + " ms |")
        pr("|---|---|---|---|---|---|---|")
        for s in sd:
            ss = [settling(r) for r in data[s]]
            before = stat([at_end(r, -1000 if st == "d484_un2adv" else 0, "lat_avg") for r in data[s]])
            lat = " / ".join(stat([at_end(r, t, "lat_avg") for r in data[s]]) for t in ts[2::2])
            pr("| %s | %d | %s | %s | %d | %s | %s |" % (
                label(s), len(data[s]), stat([F for _, F in ss]),
                stat([t for t, _ in ss], "%.2f", 1 / CPMS), sum(1 for t, _ in ss if t is not None), before, lat))
        pr("\nMisrouted fraction (%, delivered in the bin):\n")
        pr("| side | " + " | ".join("%g ms" % (t / CPMS) for t in ts) + " |")
        pr("|---|" + "---|" * len(ts))
        for s in sd:
            pr("| %s | %s |" % (label(s), " | ".join(stat([at_end(r, t, "misrouted") for r in data[s]], "%.1f", 100)
                                                    for t in ts)))
        pr("\nP (%%) of switch 1's port %d toward S_out at the bin's end (in brackets `P_mid_mean`: the mean of "
           "the same port's P over switches 0-6 of every group, 231 switches):\n" % P_PORT)
        pr("| side | " + " | ".join("%g ms" % (t / CPMS) for t in ts) + " |")
        pr("|---|" + "---|" * len(ts))
        for s in sd:
            cells = []
            for t in ts:
                c = stat([at_end(r, t, "P") for r in data[s]], "%.1f")
                c += " [%s]" % stat([at_end(r, t, "P_mid_mean") for r in data[s]], "%.1f")
                cells.append(c)
            pr("| %s | %s |" % (label(s), " | ".join(cells)))
        pr("\nAccepted / generated load (phits/node/cycle) in the bin:\n")
        pr("| side | " + " | ".join("%g ms" % (t / CPMS) for t in ts) + " |")
        pr("|---|" + "---|" * len(ts))
        for s in sd:
            pr("| %s | %s |" % (label(s), " | ".join(
                "%s / %s" % (stat([at_end(r, t, "accepted_load") for r in data[s]], "%.3f"),
                             stat([at_end(r, t, "generated_load") for r in data[s]], "%.3f")) for t in ts)))
        pr("\nCNMs sent network-wide (received in brackets) per 0.1 ms after the change, then over the whole run "
           "(FOGSim's local updates are its `cnm_local` sum; scfly's its `qcn_local_updates` counter):\n")
        n01 = (last - change) // 10000
        wins = [(-change, 0)] + [(i * 10000, (i + 1) * 10000) for i in range(n01)]
        pr("| side | before | " + " | ".join("%.1f–%.1f ms" % (lo / CPMS, hi / CPMS) for lo, hi in wins[1:])
           + " | run: sent | received | local updates |")
        pr("|---|---|" + "---|" * (len(wins) - 1) + "---|---|---|")
        tot = read_csv(os.path.join(a.data, "scfly-d484", "totals.csv"))
        for s in sd:
            cells = []
            for lo, hi in wins:
                # a bin counts in the window its end falls in (un2adv: the change bin ends at +1,000)
                sent = [sum(r["cnm_sent"] or 0 for r in rr if lo < r["t_rel"] + BIN <= hi) for rr in data[s]]
                rx = [sum(r["cnm_rx"] or 0 for r in rr if lo < r["t_rel"] + BIN <= hi) for rr in data[s]]
                cells.append("%s [%s]" % (stat(sent, "%.1f"), stat(rx, "%.1f")))
            if s == "fogsim":
                run = (stat([sum(r["cnm_sent"] for r in rr) for rr in data[s]], "%.1f"),
                       stat([sum(r["cnm_rx"] for r in rr) for rr in data[s]], "%.1f"),
                       stat([sum(r["cnm_local"] for r in rr) for rr in data[s]], "%.1f"))
            else:
                tt = [r for r in tot if r["variant"] == s and r["set"] == st]
                run = tuple(stat([num(r[k]) for r in tt], "%.1f") for k in ("cnm_sent", "cnm_received",
                                                                             "local_updates"))
            pr("| %s | %s | %s | %s | %s |" % (label(s), " | ".join(cells), *run))
        pr("")


def p_series_fogsim(path):
    with open(path) as f:
        h = f.readline().rstrip("\n").split("\t")
        col = {k: i for i, k in enumerate(h) if k}
        out = []
        for line in f:
            x = line.rstrip("\n").split("\t")
            t1 = int(x[col["t_end"]])
            if t1 % BIN:
                continue
            n = 0
            while "P_sw%d_port4" % n in col:
                n += 1
            out.append((t1, {(sw, p): float(x[col["P_sw%d_port%d" % (sw, p)]]) for sw in range(n) for p in range(4, 15)},
                        None, None))
    return out


def p_series_scfly(path):
    with open(path) as f:
        d = json.load(f)
    ts = d["timeseries"]
    ps = ts["per_switch"]
    n = len(ps["qcn_cnms_received"][0])
    keys = {p: "qcn_p%d_%s" % (p, "local" if p <= P_PORT else "global") for p in range(4, 15)}
    return [(int(ts["t_end"][i]), {(sw, p): ps[keys[p]][i][sw] for sw in range(n) for p in range(4, 15)},
             ps["qcn_cnms_received"][i], ps["qcn_cnms_sent"][i]) for i in range(len(ts["t_end"]))]


def port_class(sw, p):
    if p == P_PORT and sw % A != A - 1:
        return "to_sout"
    return "global" if p > P_PORT else "local"


def cmd_events(a):
    rows = []
    for st, (_, change, last) in SETS.items():
        wins = [(0, 3000), (3000, 10000)] + [(i * 10000, (i + 1) * 10000) for i in range(1, (last - change) // 10000)]
        for side in ["fogsim"] + list(VARIANTS):
            for seed in SEEDS:
                if side == "fogsim":
                    ser = p_series_fogsim(os.path.join(a.fogsim_runs, "%s_s%d" % (st, seed), "out.bins"))
                else:
                    p = os.path.join(a.scfly_json, "%s_%s_s%d.json" % (side, st, seed))
                    if not os.path.exists(p):
                        continue
                    ser = p_series_scfly(p)
                for lo, hi in wins:
                    c = {}
                    sout_sent = 0
                    for (t0, P0, R0, S0), (t1, P1, R1, S1) in zip(ser, ser[1:]):
                        if not (lo < t1 - change <= hi) or t1 > last:
                            continue
                        if S1 is not None:
                            sout_sent += sum(S1[sw] - S0[sw] for sw in range(len(S1)) if sw % A == A - 1)
                        for k, v in P1.items():
                            if v < P0[k] - 0.01:
                                cls = port_class(*k)
                                c[cls] = c.get(cls, 0) + 1
                                if R1 is not None:
                                    cls += "_cnm" if R1[k[0]] > R0[k[0]] else "_nocnm"
                                    c[cls] = c.get(cls, 0) + 1
                    rows.append([st, side, seed, lo, hi] + [c.get(x, 0) for x in (
                        "to_sout", "to_sout_cnm", "to_sout_nocnm", "global", "global_cnm", "global_nocnm")]
                        + [sout_sent if side != "fogsim" else ""])
    out = os.path.join(a.data, "scfly-d484", "events.csv")
    # Variants with no JSON here keep their committed rows (FOGSim's are recomputed).
    done = {r[1] for r in rows}
    kept = []
    if os.path.exists(out):
        with open(out) as f:
            kept = [r for r in list(csv.reader(f))[1:] if r and r[1] not in done]
    sides = ["fogsim"] + list(VARIANTS)
    written = sorted(kept + rows, key=lambda r: (list(SETS).index(r[0]), sides.index(r[1]), int(r[2]), int(r[3])))
    rows += [[r[0], r[1]] + [int(float(x)) if x != "" else "" for x in r[2:]] for r in kept]
    cols = ["set", "side", "seed", "t_rel_from", "t_rel_to", "to_sout", "to_sout_cnm", "to_sout_nocnm", "global",
            "global_cnm", "global_nocnm", "sout_cnms_sent"]
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        w.writerows(written)
    print("wrote %s\n" % out)
    print("P-decrease events (a (switch, port) whose P fell within a 20 µs bin), sum over the network, mean "
          "(min–max) over 3 seeds; scfly: toward S_out = with a CNM received in the bin + without (local "
          "updates); global ports likewise; S_out sent = CNMs sent by the S_out switches (index 7)\n")
    for st in SETS:
        wins = sorted({(r[3], r[4]) for r in rows if r[0] == st})
        pr = print
        pr("| %s | " % st + " | ".join("%.2f–%.2f ms" % (lo / CPMS, hi / CPMS) for lo, hi in wins) + " |")
        pr("|---|" + "---|" * len(wins))
        for side in ["fogsim"] + list(VARIANTS):
            rr = [r for r in rows if r[0] == st and r[1] == side]
            if not rr:
                continue
            cells = []
            for lo, hi in wins:
                x = [r for r in rr if (r[3], r[4]) == (lo, hi)]
                if side == "fogsim":
                    cells.append("%s; global %s" % (stat([r[5] for r in x]), stat([r[8] for r in x])))
                else:
                    cells.append("%s (%s + %s); global %s (%s + %s); S_out sent %s" % tuple(
                        stat([r[i] for r in x]) for i in (5, 6, 7, 8, 9, 10, 11)))
            pr("| %s | %s |" % (label(side) + " toward S_out", " | ".join(cells)))
        pr("")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("import")
    i.add_argument("--scfly-json", required=True)
    i.add_argument("--fogsim-runs")
    r = sub.add_parser("report")
    e = sub.add_parser("events")
    e.add_argument("--scfly-json", required=True)
    e.add_argument("--fogsim-runs", required=True)
    for p in (i, r, e):
        p.add_argument("--data", default=os.path.join(root, "docs", "data", "qcn-fogsim"))
    a = ap.parse_args()
    {"import": cmd_import, "report": cmd_report, "events": cmd_events}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
