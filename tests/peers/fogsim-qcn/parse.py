#!/usr/bin/env python3
"""Turn the output of a FOGSim transient run into a CSV of time bins.

Usage:
  parse.py [options] RUN [RUN ...]  > out.csv

RUN is the run's OutputFileName prefix, e.g. runs/un2adv_s1/out. The parser reads whatever
of these exists:
  RUN.transient   FOGSim's per-cycle record, keyed by generation cycle: latency sum,
                  packets, misrouted packets (only packets delivered before the run ended)
  RUN.bins        the fogsim-bins instrumentation (CHANGES.md), one line per 500 cycles:
                  delivered packets and their latency sums, generated packets, CNMs sent /
                  received / local updates / dropped, per-switch injected and delivered
                  packets, P of every transit port of every switch at the bin's end
  RUN.log         FOGSim's stdout: every 100 cycles the applied and accepted load of the
                  last 100 cycles and the cumulative CNMs sent / received (the fallback for
                  the stock binary, which writes no .bins)
  RUN.qcnPortEnruteMinProbability   P of group-0 switches at every update (QCNG0Transient)

With several RUNs (seeds) every column is the mean over the runs that have a value in
that bin (a bin with no packet in one run does not count for that run), and `runs` says
how many runs the bin has data from (the most over the columns).

Columns (bins [t_start, t_end), cycles; t_rel = t_start - change cycle):
  FOGSim has no source queue: a host generates a packet only while its injection buffer has
  room for it (the offered load is lost, not queued, when the buffer is full), and a packet's
  latency runs from its entry into the injection buffer (`inCycle`) to its delivery. That is
  scfly's *network* latency (head leaving the NIC to tail delivery), not scfly's latency_avg
  (which includes the unbounded source queue under qcn-tiny's source.when_full: queue).
  All latencies below add PacketSize, as FOGSim's "Average Total Latency" does (tail
  delivery).
  lat_gen_avg        mean latency of the packets *generated* in the bin (only those delivered
                     before the run ended). From .transient. scfly's latency_inj_avg is keyed
                     the same way but counts from generation at the NIC.
  misrouted_gen      fraction of those packets misrouted (FOGSim: >= 1 global misroute; a CRG
                     "misroute" whose port is the minimal one still counts)
  pkts_gen           packets generated in the bin and delivered by the end of the run
  lat_avg            mean latency of the packets *delivered* in the bin: compare with scfly's
                     network_latency_avg. From .bins.
  netlat_avg         the same without the wait in the injection buffer (FOGSim's injLatency,
                     generation to the head's crossbar grant at the source switch). From .bins.
  misrouted          fraction of the packets delivered in the bin that were misrouted
                     (scfly's nonminimal_fraction). From .bins.
  accepted_load      delivered phits/node/cycle (.bins, else .log)
  generated_load     phits/node/cycle written into injection buffers (= FOGSim's generation)
                     (.bins, else .log)
  cnm_sent           CNMs injected into the network in the bin (.bins, else .log)
  cnm_rx             CNMs delivered to their destination NIC (after their switch applied
                     them) (.bins, else .log)
  cnm_local          local updates: the sampled culprit came from the CP switch itself, no
                     CNM is sent, the switch updates minOutputPort(culprit.dst) (.bins only)
  cnm_dropped        CNMs dropped because the CP switch's QCN injection queue was full
                     (.bins only)
  P                  P (percent) of port --p-port of switch --p-switch at the bin's end
                     (.bins; else from .qcnPortEnruteMinProbability for group 0 switches)

Options:
  --bin N            bin width in cycles (default 2000 = 20 us at 10 ns/cycle, the paper's
                     bins); a multiple of 500 for .bins columns, of 100 for .log columns
  --change C         the traffic change cycle (default: WarmupCycles + transientTrafficCycle,
                     read from RUN's main output file)
  --packet N         packet size in phits (default: read from RUN's main output)
  --p-switch S       switch label for P (default 1: group 0, index 1, a mid-group switch)
  --p-port Q         FOGSim port number (default p+a-2, the last local port: for switches
                     0 .. a-2 of group 0 the local port toward switch a-1 = S_out, which owns
                     group 0's global link to group 1 under palmtree; 4 on dfly(2,4,2), 10 on
                     dfly(4,8,4). FOGSim ports: hosts 0..p-1, local p..p+a-2 in the order of
                     the neighbour's index, skipping itself, global p+a-1..p+a-2+h)
  --per-switch FILE  also write per-switch injected and accepted load per bin (long format:
                     t_start,t_end,switch,injected_load,accepted_load; mean over RUNs)
"""
import argparse
import collections
import math
import os
import re
import sys


def read_main(run):
    """Parameters from the main output file (RUN itself)."""
    info = {}
    try:
        text = open(run).read()
    except OSError:
        return info
    for key, name in [("Packet Size (in phits)", "packet"), ("P", "p"), ("A", "a"), ("H", "h"),
                      ("Total Number Of Cycles", "total"), ("Max Cycles", "max"),
                      ("First Pattern End Cycle", "tcycle")]:
        m = re.search(r"^" + re.escape(key) + r": ([0-9.e+-]+)", text, re.M)
        if m:
            info[name] = float(m.group(1))
    if "total" in info and "max" in info:
        info["warmup"] = info["total"] - info["max"]  # FOGSim prints warm-up + max as the total
    return info


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        header = [h for h in header if h != ""]
        rows = []
        for line in f:
            parts = line.rstrip("\n").rstrip("\t").split("\t")
            if len(parts) < len(header):
                continue
            rows.append(parts)
    return header, rows


def parse_run(run, args):
    """Returns {bin_index: {column: value}} and per-switch {bin_index: (inj[], acc[])}."""
    info = read_main(run)
    packet = args.packet or int(info.get("packet", 20))
    p, a, h = int(info.get("p", 2)), int(info.get("a", 4)), int(info.get("h", 2))
    nodes = (a * h + 1) * a * p
    B = args.bin
    p_port = args.p_port if args.p_port is not None else p + a - 2
    bins = collections.defaultdict(dict)
    per_sw = {}

    # --- .transient: per generation cycle
    path = run + ".transient"
    if os.path.exists(path):
        header, rows = read_tsv(path)
        acc = collections.defaultdict(lambda: [0.0, 0, 0])
        for r in rows:
            cyc = int(float(r[0]))
            lat, n, mis = float(r[2]), int(float(r[3])), int(float(r[4]))
            a_ = acc[cyc // B]
            a_[0] += lat
            a_[1] += n
            a_[2] += mis
        for k, (lat, n, mis) in acc.items():
            bins[k]["pkts_gen"] = n
            if n:
                bins[k]["lat_gen_avg"] = lat / n + packet
                bins[k]["misrouted_gen"] = mis / n

    # --- .bins: fogsim-bins instrumentation
    path = run + ".bins"
    have_bins = os.path.exists(path)
    if have_bins:
        header, rows = read_tsv(path)
        col = {name: i for i, name in enumerate(header)}
        nsw = sum(1 for name in header if name.startswith("inj_sw"))
        pcol = col.get("P_sw%d_port%d" % (args.p_switch, p_port))
        acc = collections.defaultdict(lambda: collections.defaultdict(float))
        sw_acc = collections.defaultdict(lambda: ([0] * nsw, [0] * nsw))
        last_p = {}
        for r in rows:
            t0, t1 = int(r[col["t_start"]]), int(r[col["t_end"]])
            k = t0 // B
            d = acc[k]
            for name in ["gen_pkts", "rx_pkts", "rx_lat_sum", "rx_netlat_sum", "rx_misrouted", "cnm_sent",
                         "cnm_rx", "cnm_local_updates", "cnm_dropped"]:
                d[name] += float(r[col[name]])
            d["cycles"] += t1 - t0
            inj, rx = sw_acc[k]
            for s in range(nsw):
                inj[s] += int(r[col["inj_sw%d" % s]])
                rx[s] += int(r[col["rx_sw%d" % s]])
            if pcol is not None:
                last_p[k] = float(r[pcol])
        for k, d in acc.items():
            if d["cycles"] < B:  # incomplete last bin
                continue
            b = bins[k]
            n = d["rx_pkts"]
            if n:
                b["lat_avg"] = d["rx_lat_sum"] / n + packet
                b["netlat_avg"] = d["rx_netlat_sum"] / n + packet
                b["misrouted"] = d["rx_misrouted"] / n
            b["accepted_load"] = n * packet / (nodes * B)
            b["generated_load"] = d["gen_pkts"] * packet / (nodes * B)
            b["cnm_sent"] = d["cnm_sent"]
            b["cnm_rx"] = d["cnm_rx"]
            b["cnm_local"] = d["cnm_local_updates"]
            b["cnm_dropped"] = d["cnm_dropped"]
            if k in last_p:
                b["P"] = last_p[k]
            inj, rx = sw_acc[k]
            per_sw[k] = ([x * packet / (p * B) for x in inj], [x * packet / (p * B) for x in rx])

    # --- .log (stdout): fallback for the stock binary
    path = run + ".log"
    if not have_bins and os.path.exists(path):
        loads = collections.defaultdict(lambda: [0.0, 0.0, 0])
        cnm = {}
        for line in open(path):
            m = re.match(r"cycle:\s*(\d+)\s+Messages sent:.*Applied load:\s*([0-9.e+-]+)\s+Accepted load:\s*([0-9.e+-]+)",
                         line)
            if m:
                c = int(m.group(1))
                if c == 0:
                    continue
                k = (c - 1) // B  # the line at cycle c covers (c-100, c]
                l_ = loads[k]
                l_[0] += float(m.group(2))
                l_[1] += float(m.group(3))
                l_[2] += 1
                continue
            m = re.match(r"cycle:\s*(\d+)\s+CNMs sent\s*:\s*(\d+)\s+CNMs received\s*:\s*(\d+)", line)
            if m:
                cnm[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        for k, (ap, ac, n) in loads.items():
            if n == B // 100:
                bins[k]["generated_load"] = ap / n
                bins[k]["accepted_load"] = ac / n
        for k in list(bins.keys()):
            c0, c1 = k * B, (k + 1) * B
            if c0 in cnm and c1 in cnm:
                bins[k]["cnm_sent"] = cnm[c1][0] - cnm[c0][0]
                bins[k]["cnm_rx"] = cnm[c1][1] - cnm[c0][1]

    # --- P of group-0 switches from QCNG0Transient, when .bins has none
    path = run + ".qcnPortEnruteMinProbability"
    if os.path.exists(path) and not have_bins:
        name = "Sw%dPort%d" % (args.p_switch, p_port)
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            if name in header:
                i = header.index(name)
                updates = []
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    v = float(parts[i])
                    if v != -1:
                        updates.append((int(parts[0]), v))
                value, j = 100.0, 0
                for k in sorted(bins.keys()):
                    end = (k + 1) * B
                    while j < len(updates) and updates[j][0] < end:
                        value = updates[j][1]
                        j += 1
                    bins[k]["P"] = value

    change = args.change
    if change is None:
        change = int(info.get("warmup", 0) + info.get("tcycle", 0))
    return bins, per_sw, change


COLUMNS = ["lat_gen_avg", "misrouted_gen", "pkts_gen", "lat_avg", "netlat_avg", "misrouted", "accepted_load",
           "generated_load", "cnm_sent", "cnm_rx", "cnm_local", "cnm_dropped", "P"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--bin", type=int, default=2000)
    ap.add_argument("--change", type=int, default=None)
    ap.add_argument("--packet", type=int, default=None)
    ap.add_argument("--p-switch", type=int, default=1)
    ap.add_argument("--p-port", type=int, default=None)
    ap.add_argument("--per-switch", default=None)
    args = ap.parse_args()

    parsed = [parse_run(r, args) for r in args.runs]
    changes = {c for _, _, c in parsed}
    change = sorted(changes)[0]
    if len(changes) > 1:
        print("warning: runs change traffic at different cycles: %s" % sorted(changes), file=sys.stderr)
    keys = sorted(set().union(*[set(b.keys()) for b, _, _ in parsed]))
    out = sys.stdout
    out.write("t_start,t_end,t_rel,runs," + ",".join(COLUMNS) + "\n")
    for k in keys:
        vals = []
        runs = 0
        for c in COLUMNS:
            xs = [b[k][c] for b, _, _ in parsed if k in b and c in b[k]]
            runs = max(runs, len(xs))
            vals.append("" if not xs else ("%.6g" % (sum(xs) / len(xs))))
        out.write("%d,%d,%d,%d,%s\n" % (k * args.bin, (k + 1) * args.bin, k * args.bin - change, runs, ",".join(vals)))

    if args.per_switch:
        with open(args.per_switch, "w") as f:
            f.write("t_start,t_end,t_rel,switch,injected_load,accepted_load\n")
            kk = sorted(set().union(*[set(s.keys()) for _, s, _ in parsed]))
            for k in kk:
                have = [s[k] for _, s, _ in parsed if k in s]
                nsw = len(have[0][0])
                for sw in range(nsw):
                    inj = sum(h[0][sw] for h in have) / len(have)
                    acc = sum(h[1][sw] for h in have) / len(have)
                    f.write("%d,%d,%d,%d,%.6g,%.6g\n" % (k * args.bin, (k + 1) * args.bin, k * args.bin - change, sw,
                                                         inj, acc))


if __name__ == "__main__":
    main()
