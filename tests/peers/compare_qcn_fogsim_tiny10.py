#!/usr/bin/env python3
"""The qcn-tiny FOGSim comparison (compare_qcn_fogsim.py) repeated over 10 scfly seeds under the
FOGSim-matching variants of tests/peers/fogsim-qcn/TRACE.md (issue 52, item 1). Python 3 stdlib.

  compare_qcn_fogsim_tiny10.py import --scfly-json DIR [--fogsim-runs DIR] [--data DIR]
      scfly's JSONs (tests/peers/fogsim-qcn/scfly_run_variant.sh: <variant>_<set>_sN.json,
      _b500.json, <variant>_tiny_un2adv_short_sN.json) -> docs/data/qcn-fogsim/scfly-variants/
      (bins_<variant>_<set>.csv and bins500_..., compare_qcn_fogsim.py's compact format, side =
      the variant; totals.csv: run counters, whole run and the first 0.1 ms after UN -> ADV+1).
      With --fogsim-runs (FOGSim's run directories, e.g. /work/fogsim-work/runs) also FOGSim's
      mean P toward S_out over the 27 non-S_out switches (in pmid.csv, 500-cycle bins). With
      --fogsim-csv (parse.py's per-seed CSVs, <set>_sN.csv and <set>_sN_b500.csv, e.g.
      /work/fogsim-work/csv) also FOGSim's `tinylong_adv2un` over seeds 1-10 (side fogsim10)
  compare_qcn_fogsim_tiny10.py report [--data DIR]
      the tables: FOGSim (docs/data/qcn-fogsim/bins*_<set>.csv, side fogsim) against scfly's
      committed qcn-tiny data (side scfly there, PFC + queue, 10 seeds, binary of 35f4916) and
      every variant here (the committed scfly data equals the `pfc` rerun value for value)

  compare_qcn_fogsim_tiny10.py late --scfly-json DIR --fogsim-runs DIR [--variant fog]
      UN -> ADV+1 (tiny_un2adv, 10 seeds): P decreases per group, counted the same way on both
      sides on 500-cycle bins (a port whose P fell within a bin counts once), in 0-0.4 and
      0.4-1.0 ms after the change, at S_out's port toward G+1 (switch 3 port 6), S_out's other
      global port (port 5) and the mid switches' port 4; and S_out's P toward G+1 and P_mid at
      0.4 and 0.8 ms (from scfly's _b500 JSONs and FOGSim's out.bins)

Variants (all with FOGSim's allocator: 2 passes, transit priority):
  pfc     qcn-tiny.yaml as committed (PFC, source queue), rerun with the current binary
  credit  + switch.flow_control=credit
  skip    + source.when_full=skip (FOGSim's generator, generator/generatorModule.cc:199-202)
  fog     + switch.output_credits=inside (FOGSim's output FIFO in the credit loop,
          switch/ioqSwitchModule.cc:405-413)
  fogq    + qcn.cp_queue=output (the output FIFO only, culprit its first packet,
          switch/ioqSwitchModule.cc:498, :512-516)
  fogioq  fogq + the rest of FOGSim's IOQ switch (transfer crossbar, one output FIFO per port,
          credits at the grant, XbarDelay at the output, consume port on idle host)
  fogioql fogioq + qcn.local_update_port=minimal (switch/ioqSwitchModule.cc:546-550)
  fogioqlt fogioql + qcn.sampling_clock=time (FOGSim's cycle-timer sampling);
          = sc_main/configs/qcn-fogsim-tiny.yaml
  pfcskip pfc + source.when_full=skip (FOGSim's generator under PFC)
Variants with no JSON in --scfly-json keep their committed CSVs and totals rows.
Definitions (settling, F, times): compare_qcn_fogsim.py's docstring. P_mid = mean over the 27
switches of indices 0-2 of every group of P of their port 4 (toward S_out = switch 3).
"""
import argparse
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_qcn_fogsim as base  # noqa: E402

VARIANTS = ["pfc", "credit", "skip", "fog", "fogq", "fogioq", "fogioql", "fogioqlt", "pfcskip"]
SETS = ["tiny_un2adv", "tiny_adv2un", "tinylong_adv2un"]
SEEDS = list(range(1, 11))
A = 4
CPMS = base.CYCLES_PER_MS
SAME_AS_COMMITTED = ("tiny_un2adv", "tiny_adv2un")  # pfc: checked equal to the committed data, read from there
PMID_TIMES = (10000, 20000, 40000, 80000)   # P_mid kept at these times after the change (cycles)


def pmid_row(ps, i):
    row = ps["qcn_p4_local"][i]
    groups = len(row) // A
    return sum(row[g * A + k] for g in range(groups) for k in range(A - 1)) / (groups * (A - 1))


def cmd_import(a):
    out = os.path.join(a.data, "scfly-variants")
    os.makedirs(out, exist_ok=True)
    totals, pmid = [], []
    present = {v for v in VARIANTS if any(f.startswith(v + "_") for f in os.listdir(a.scfly_json))}
    for name, keep in (("totals.csv", totals), ("pmid.csv", pmid)):
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path) as f:
                keep.extend(r for r in list(csv.reader(f))[1:] if r and r[0] not in present)
    for v in VARIANTS:
        if v not in present:
            continue
        for st in SETS:
            _, change, length, _ = base.SETS[st]
            for b, sfx in [(2000, ""), (500, "_b500")]:
                rows = []
                for seed in SEEDS:
                    p = os.path.join(a.scfly_json, "%s_%s_s%d%s.json" % (v, st, seed, sfx))
                    if not os.path.exists(p):
                        print("missing %s" % p, file=sys.stderr)
                        continue
                    with open(p) as f:
                        d = json.load(f)
                    ps = d["timeseries"]["per_switch"]
                    for i, r in enumerate(base.scfly_rows(d)):
                        if r["t_end"] > length:
                            continue
                        r.update(side=v, seed=seed, t_rel=r["t_start"] - change)
                        rows.append(r)
                        if b == 500 and r["t_rel"] + 500 in PMID_TIMES:
                            pmid.append([v, st, seed, r["t_end"], r["t_rel"], "%.4g" % pmid_row(ps, i)])
                    if b == 2000:
                        c = d["metrics"]["counters"]
                        totals.append([v, st, "run", seed, c["qcn_cnms_sent"], c["qcn_cnms_received"],
                                       c["qcn_local_updates"], c.get("source_skipped_generations", 0)])
                name = os.path.join(out, "bins%s_%s_%s.csv" % ("" if b == 2000 else "500", v, st))
                if not rows:
                    continue  # not run for this variant
                if v == "pfc" and st in SAME_AS_COMMITTED:
                    # the committed scfly data of compare_qcn_fogsim.py is this variant: check, do not store twice
                    ref = {(r["seed"], r["t_start"]): r for rr in base.load_bins(a.data, st, b == 500).items()
                           if rr[0][0] == "scfly" for r in rr[1]}
                    for r in rows:
                        q = ref[(r["seed"], r["t_start"])]
                        for k in ("lat_deliv", "misrouted_deliv", "accepted_load", "cnm_sent", "P"):
                            assert base.fnum(r[k]) == base.fnum(q[k]), ("pfc differs from the committed data", st, r, k)
                    if os.path.exists(name):
                        os.remove(name)
                    continue
                base.write_bins(name, rows)
        for seed in SEEDS:
            p = os.path.join(a.scfly_json, "%s_tiny_un2adv_short_s%d.json" % (v, seed))
            if os.path.exists(p):
                with open(p) as f:
                    c = json.load(f)["metrics"]["counters"]
                totals.append([v, "tiny_un2adv", "first_0.1ms", seed, c["qcn_cnms_sent"], c["qcn_cnms_received"],
                               c["qcn_local_updates"], c.get("source_skipped_generations", 0)])
    with open(os.path.join(out, "totals.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["variant", "set", "window", "seed", "cnm_sent", "cnm_received", "local_updates",
                    "skipped_generations"])
        w.writerows(totals)
    if a.fogsim_csv:
        st = "tinylong_adv2un"
        _, change, length, _ = base.SETS[st]
        for b, sfx in [(2000, ""), (500, "_b500")]:
            rows = []
            for seed in SEEDS:
                p = os.path.join(a.fogsim_csv, "%s_s%d%s.csv" % (st, seed, sfx))
                if not os.path.exists(p):
                    print("missing %s" % p, file=sys.stderr)
                    continue
                for r in base.fogsim_rows(p):
                    if r["t_end"] > length:
                        continue
                    r.update(side="fogsim10", seed=seed, t_rel=r["t_start"] - change)
                    rows.append(r)
            base.write_bins(os.path.join(out, "bins%s_fogsim10_%s.csv" % ("" if b == 2000 else "500", st)), rows)
    if a.fogsim_runs:
        jobs = [("fogsim", st, base.SETS[st][3]) for st in SETS]
        if a.fogsim_csv:
            jobs.append(("fogsim10", "tinylong_adv2un", 10))
        for side, st, ns in jobs:
            _, change, length, _ = base.SETS[st]
            for seed in range(1, ns + 1):
                path = os.path.join(a.fogsim_runs, "%s_s%d" % (st, seed), "out.bins")
                with open(path) as f:
                    h = f.readline().rstrip("\n").split("\t")
                    col = {k: i for i, k in enumerate(h) if k}
                    for line in f:
                        x = line.rstrip("\n").split("\t")
                        t1 = int(x[col["t_end"]])
                        if t1 > length or t1 - change not in PMID_TIMES:
                            continue
                        groups, vals = 0, []
                        while "P_sw%d_port4" % (groups * A) in col:
                            vals += [float(x[col["P_sw%d_port4" % (groups * A + k)]]) for k in range(A - 1)]
                            groups += 1
                        pmid.append([side, st, seed, t1, t1 - 500 - change, "%.4g" % (sum(vals) / len(vals))])
    with open(os.path.join(out, "pmid.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["side", "set", "seed", "t_end", "t_rel", "P_mid"])
        w.writerows(pmid)
    print("wrote %s" % out)


def load(a, side, st, b500):
    """{seed: rows} of one side: fogsim / scfly (committed) from the base data, else a variant."""
    if side in ("fogsim", "scfly"):
        allb = base.load_bins(a.data, st, b500)
        return {s: r for (sd, s), r in allb.items() if sd == side}
    p = os.path.join(a.data, "scfly-variants", "bins%s_%s_%s.csv" % ("500" if b500 else "", side, st))
    if side == "pfc" and st in SAME_AS_COMMITTED:
        return load(a, "scfly", st, b500)
    if not os.path.exists(p):
        return {}
    out = {}
    for r in base.read_csv(p):
        rr = {k: (int(v) if k in ("seed", "t_start", "t_end", "t_rel") else (v if k == "side" else base.num(v)))
              for k, v in r.items()}
        out.setdefault(rr["seed"], []).append(rr)
    for v in out.values():
        v.sort(key=lambda r: r["t_start"])
    return out


def label(side):
    return {"fogsim": "FOGSim", "fogsim10": "FOGSim (seeds 1-10)", "scfly": "scfly committed (PFC, queue; 35f4916)"}.get(side, "scfly `%s`" % side)


def cmd_report(a):
    pr = print
    # scfly's committed qcn-tiny data (side "scfly" of the base CSVs) is the `pfc` variant; the
    # rerun is identical to it value for value (binary 3bf31dd against 35f4916), so it is not shown twice
    sides = ["fogsim", "fogsim10"] + VARIANTS
    pm = base.read_csv(os.path.join(a.data, "scfly-variants", "pmid.csv"))
    tot = base.read_csv(os.path.join(a.data, "scfly-variants", "totals.csv"))
    ftot = base.read_csv(os.path.join(a.data, "totals.csv"))
    pr("qcn-tiny dfly(2,4,2), load 0.4; mean (min–max) over seeds; settling and F as compare_qcn_fogsim.py "
       "(F = mean latency over 0.8–1.0 ms after the change, band ±20 %).\n")
    for st in SETS:
        tr, change, length, nf = base.SETS[st]
        pr("#### %s (`%s`)\n" % (tr, st))
        pr("| side | seeds | F | settling, ms (20 µs bins) | settled | settling, ms (5 µs bins) | misrouted at "
           + " / ".join("%g" % t for t in base.MIS_TIMES_US) + " µs, % | P sw1 port 4 at 0.1 / 0.2 / 0.4 / 0.8 ms"
           " | P_mid at 0.1 / 0.2 / 0.4 / 0.8 ms | misrouted before (last 20 µs), % | backlog at the change, packets |")
        pr("|---|---|---|---|---|---|---|---|---|---|---|")
        for side in sides:
            b20, b5 = load(a, side, st, False), load(a, side, st, True)
            if not b20:
                continue
            seeds = sorted(b20)
            t20 = [base.settling(b20[s], 2000) for s in seeds]
            t5 = [base.settling(b5[s], 500) for s in seeds if s in b5]
            mis = " / ".join(base.stat([base.at_end(b5[s], t * 100, "misrouted_deliv") for s in seeds if s in b5],
                                       "%.1f", 100) for t in base.MIS_TIMES_US)
            P = " / ".join(base.stat([base.at_end(b5[s], t, "P") for s in seeds if s in b5], "%.1f")
                           for t in (10000, 20000, 40000, 80000))
            pmc = []
            for t in (10000, 20000, 40000, 80000):
                xs = [float(r["P_mid"]) for r in pm if r["side"] == side and r["set"] == st and int(r["t_rel"]) + 500 == t]
                pmc.append(base.stat(xs, "%.1f"))
            before = base.stat([base.at_end(b20[s], 0, "misrouted_deliv") for s in seeds], "%.1f", 100)
            # generated - accepted up to the change, in packets (72 hosts, 20-phit packets)
            backlog = base.stat([sum((r["generated_load"] - r["accepted_load"]) * 72 * 2000 / 20 for r in b20[s]
                                     if r["t_rel"] < 0) for s in seeds])
            pr("| %s | %d | %s | %s | %d | %s | %s | %s | %s | %s | %s |" % (
                label(side), len(seeds), base.stat([F for _, F in t20]),
                base.stat([t for t, _ in t20], "%.3f", 1 / CPMS), sum(1 for t, _ in t20 if t is not None),
                base.stat([t for t, _ in t5], "%.3f", 1 / CPMS), mis, P, " / ".join(pmc), before, backlog))
        if st == "tiny_un2adv":
            pr("\nCNMs and local updates, UN -> ADV+1: sent in the first 0.1 ms after the change, local updates in "
               "the first 0.1 ms (scfly: the counters of a 30,000-cycle run; FOGSim: its per-bin `cnm_local`), "
               "whole run sent / local updates:\n")
            pr("| side | sent, 0–0.1 ms | local updates, 0–0.1 ms | run: sent | run: local updates |")
            pr("|---|---|---|---|---|")
            for side in sides:
                b20 = load(a, side, st, False)
                if not b20:
                    continue
                seeds = sorted(b20)
                sent = base.stat([sum(r["cnm_sent"] for r in b20[s] if 0 <= r["t_rel"] < 10000) for s in seeds], "%.1f")
                if side == "fogsim10":
                    continue
                if side == "fogsim":
                    loc = base.stat([sum(r["cnm_local"] for r in b20[s] if 0 <= r["t_rel"] < 10000) for s in seeds],
                                    "%.1f")
                    tt = [r for r in ftot if r["side"] == "fogsim" and r["set"] == st]
                elif side == "scfly":
                    loc = "—"
                    tt = [r for r in ftot if r["side"] == "scfly" and r["set"] == st]
                else:
                    loc = base.stat([base.num(r["local_updates"]) for r in tot if r["variant"] == side
                                     and r["window"] == "first_0.1ms"], "%.1f")
                    tt = [r for r in tot if r["variant"] == side and r["set"] == st and r["window"] == "run"]
                pr("| %s | %s | %s | %s | %s |" % (label(side), sent, loc,
                                                    base.stat([base.num(r["cnm_sent"]) for r in tt], "%.1f"),
                                                    base.stat([base.num(r["local_updates"]) for r in tt], "%.1f")))
        pr("\nLatency by delivery (cycles) in the 20 µs bin ending at t after the change:\n")
        pr("| side | before | 20 µs | 0.1 ms | 0.2 ms | 0.4 ms | 0.8 ms | 1.0 ms |")
        pr("|---|---|---|---|---|---|---|---|")
        for side in sides:
            b20 = load(a, side, st, False)
            if not b20:
                continue
            pr("| %s | %s |" % (label(side), " | ".join(
                base.stat([base.at_end(b20[s], t, "lat_deliv") for s in sorted(b20)])
                for t in (0, 2000, 10000, 20000, 40000, 80000, 100000))))
        pr("")


def late_series_fogsim(path):
    with open(path) as f:
        h = f.readline().rstrip("\n").split("\t")
        col = {k: i for i, k in enumerate(h) if k}
        for line in f:
            x = line.rstrip("\n").split("\t")
            yield int(x[col["t_end"]]), lambda sw, p, x=x: float(x[col["P_sw%d_port%d" % (sw, p)]])


def late_series_scfly(path):
    with open(path) as f:
        d = json.load(f)
    ps = d["timeseries"]["per_switch"]
    for i, t in enumerate(d["timeseries"]["t_end"]):
        yield int(t), lambda sw, p, i=i: ps["qcn_p%d_%s" % (p, "local" if p <= 4 else "global")][i][sw]


def cmd_late(a):
    st, change, groups = "tiny_un2adv", 20000, 9
    wins = {"early": (0, 40000), "late": (40000, 100000)}
    for side in ("fogsim", a.variant):
        acc = {}
        for seed in SEEDS:
            ser = (late_series_fogsim(os.path.join(a.fogsim_runs, "%s_s%d" % (st, seed), "out.bins")) if side == "fogsim"
                   else late_series_scfly(os.path.join(a.scfly_json, "%s_%s_s%d_b500.json" % (side, st, seed))))
            prev = None
            for t, P in ser:
                cur = {(g, k): P(g * A + A - 1, k) for g in range(groups) for k in (5, 6)}
                cur.update({(g, "mid%d" % m): P(g * A + m, 4) for g in range(groups) for m in range(A - 1)})
                tr = t - change
                if prev is not None:
                    for w, (lo, hi) in wins.items():
                        if lo < tr <= hi:
                            for key, v in cur.items():
                                if v < prev[key] - 0.01:
                                    name = {5: "sout_p5", 6: "sout_p6"}.get(key[1], "mid_p4")
                                    acc[(w, name)] = acc.get((w, name), 0) + 1
                for tt in (40000, 80000):
                    if tr == tt:
                        acc[("P_sout_p6", tt)] = acc.get(("P_sout_p6", tt), 0) + sum(cur[(g, 6)] for g in range(groups)) / groups
                        acc[("P_mid", tt)] = acc.get(("P_mid", tt), 0) + sum(
                            cur[(g, "mid%d" % m)] for g in range(groups) for m in range(A - 1)) / (groups * (A - 1))
                prev = cur
        n = len(SEEDS)
        print("%s: decreases per group (mean of %d seeds): " % (label(side), n) + ", ".join(
            "%s %s %.2f" % (w, name, acc.get((w, name), 0) / n / groups) for w in wins for name in ("sout_p6", "sout_p5", "mid_p4"))
            + "; P S_out toward G+1 at 0.4 / 0.8 ms %.1f / %.1f %%, P_mid %.1f / %.1f %%" % tuple(
                acc.get((k, t), 0) / n for k in ("P_sout_p6", "P_mid") for t in (40000, 80000)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("import")
    i.add_argument("--scfly-json", required=True)
    i.add_argument("--fogsim-runs")
    i.add_argument("--fogsim-csv")
    r = sub.add_parser("report")
    lt = sub.add_parser("late")
    lt.add_argument("--scfly-json", required=True)
    lt.add_argument("--fogsim-runs", required=True)
    lt.add_argument("--variant", default="fog", choices=VARIANTS)
    for p in (i, r, lt):
        p.add_argument("--data", default=os.path.join(root, "docs", "data", "qcn-fogsim"))
    a = ap.parse_args()
    {"import": cmd_import, "report": cmd_report, "late": cmd_late}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
