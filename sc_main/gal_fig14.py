#!/usr/bin/env python3
"""GAL's Fig. 14 transient measured by generation phase (docs/repro-gal.md, Stability).

The GAL paper's Fig. 14: UR at 1.1 phits/node/cycle, then TOR at 0.55. Past saturation the
source queues (unbounded, FIFO) hold a UR backlog when the traffic changes, so the packets
delivered right after the change are UR packets. This script runs each variant once with
`scfly run --packet-trace`, and splits every bin's deliveries by the phase their packet was
generated in: the TOR phase's own throughput, latency and non-minimal fraction (packets
generated at or after the change), and the UR backlog's drain (packets generated before).

    /usr/bin/python3 sc_main/gal_fig14.py [--scfly build/scfly] [--out DIR] [--variants a,b]

Writes DIR/fig14.md (the table), DIR/fig14.json (every bin) and DIR/fig14.png (the curves;
needs matplotlib, Debian's python3-matplotlib). DIR defaults to docs/data/gal-fig14.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

BASE = "sc_main/configs/torus-8x8-1port.yaml"
COMMON = ["topology.terminal_ports=4", "switch.vcs.injection=4", "warmup_cycles=0"]
# name -> (label, overrides)
VARIANTS = {
    "gal-lower": ("GAL, adaptive T, the rule as published (gal.tie lower)", ["routing=gal"]),
    "gal-raise": ("GAL, adaptive T, a tie raises T (gal.tie raise)", ["routing=gal", "gal.tie=raise"]),
    "gal-hold": ("GAL, adaptive T, a tie holds T (gal.tie hold)", ["routing=gal", "gal.tie=hold"]),
    "gal-raise-129": ("GAL, adaptive T, a tie raises T, T_max = queue depth + 1",
                      ["routing=gal", "gal.tie=raise", "gal.t_max=129"]),
    "gal-fixed-128": ("GAL, fixed T = 128", ["routing=gal", "gal.adaptive=false", "gal.threshold=128"]),
    "min-ad": ("MIN AD", ["routing=min-ad"]),
    "goal": ("GOAL", ["routing=goal"]),
    "val": ("VAL", ["routing=val"]),
}


def run(scfly, name, overrides, args, trace):
    phases = ("phases=[{start: 0, traffic: un, load: %g}, {start: %d, traffic: tor, load: %g}]"
              % (args.ur_load, args.switch, args.tor_load))
    cmd = ["nice", "-n", "10", scfly, "run", BASE, *COMMON, *overrides, "seed=%d" % args.seed,
           "measure_cycles=%d" % args.cycles, phases, "--packet-trace", trace, "-q"]
    print("running", name, ":", " ".join(cmd[3:]), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def analyse(trace, args, nodes=64):
    nb = (args.cycles + args.bin - 1) // args.bin
    keys = ("tor_phits", "tor_pkts", "tor_lat", "tor_nonmin", "ur_phits", "ur_pkts", "ur_nonmin")
    bins = [dict.fromkeys(keys, 0) for _ in range(nb)]
    gen_lat = [[0, 0] for _ in range(nb)]  # TOR packets by generation bin: latency sum, count
    last_ur = -1
    first_tor = -1
    with open(trace) as f:
        for r in csv.DictReader(f):
            d, g = int(r["deliver_cycle"]), int(r["gen_cycle"])
            b = bins[min(d // args.bin, nb - 1)]
            ph, nm = int(r["phits"]), int(r["nonminimal"])
            if g >= args.switch:
                b["tor_phits"] += ph
                b["tor_pkts"] += 1
                b["tor_lat"] += int(r["latency"])
                b["tor_nonmin"] += nm
                gl = gen_lat[min(g // args.bin, nb - 1)]
                gl[0] += int(r["latency"])
                gl[1] += 1
                first_tor = d if first_tor < 0 else min(first_tor, d)
            else:
                b["ur_phits"] += ph
                b["ur_pkts"] += 1
                b["ur_nonmin"] += nm
                last_ur = max(last_ur, d)
    out = []
    for i, b in enumerate(bins):
        t0 = i * args.bin
        span = min(args.bin, args.cycles - t0) * nodes
        out.append({
            "t_start": t0,
            "accepted_tor": b["tor_phits"] / span,
            "accepted_ur": b["ur_phits"] / span,
            "latency_tor": b["tor_lat"] / b["tor_pkts"] if b["tor_pkts"] else None,
            "latency_tor_by_gen": gen_lat[i][0] / gen_lat[i][1] if gen_lat[i][1] else None,
            "nonminimal_tor": b["tor_nonmin"] / b["tor_pkts"] if b["tor_pkts"] else None,
            "nonminimal_ur": b["ur_nonmin"] / b["ur_pkts"] if b["ur_pkts"] else None,
        })
    return {"bins": out, "last_ur_delivery": last_ur, "first_tor_delivery": first_tor}


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def summary(res, args):
    bins = res["bins"]
    ur = [b for b in bins if args.switch // 2 <= b["t_start"] < args.switch]
    # The TOR phase's own steady state: the last quarter of the run.
    tail = [b for b in bins if b["t_start"] >= args.cycles - args.cycles // 4 and b["t_start"] + args.bin <= args.cycles]
    after = [b for b in bins if args.switch <= b["t_start"] < args.switch + 5000]
    return {
        "ur_accepted": mean([b["accepted_ur"] for b in ur]),
        "after_switch_accepted_all": mean([b["accepted_ur"] + b["accepted_tor"] for b in after]),
        "after_switch_accepted_tor": mean([b["accepted_tor"] for b in after]),
        "tail_accepted_tor": mean([b["accepted_tor"] for b in tail]),
        "tail_accepted_ur": mean([b["accepted_ur"] for b in tail]),
        "tail_latency_tor": mean([b["latency_tor"] for b in tail]),
        "tail_nonminimal_tor": mean([b["nonminimal_tor"] for b in tail]),
        "first_tor_delivery": res["first_tor_delivery"],
        "last_ur_delivery": res["last_ur_delivery"],
    }


def fmt(x, p=3):
    return "—" if x is None or x < 0 else ("%.*f" % (p, x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scfly", default="build/scfly")
    ap.add_argument("--out", default="docs/data/gal-fig14")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--cycles", type=int, default=40000, help="cycles simulated (default 40,000)")
    ap.add_argument("--switch", type=int, default=10000, help="cycle of the UR -> TOR change (default 10,000)")
    ap.add_argument("--bin", type=int, default=500, help="bin width, cycles (default 500)")
    ap.add_argument("--ur-load", type=float, default=1.1)
    ap.add_argument("--tor-load", type=float, default=0.55)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep-traces", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = {}
    for name in args.variants.split(","):
        if name not in VARIANTS:
            sys.exit("gal_fig14.py: unknown variant '%s'; allowed: %s" % (name, ", ".join(VARIANTS)))
        trace = os.path.join(args.out, name + ".csv")
        run(args.scfly, name, VARIANTS[name][1], args, trace)
        res = analyse(trace, args)
        res["summary"] = summary(res, args)
        res["label"] = VARIANTS[name][0]
        results[name] = res
        if not args.keep_traces:
            os.remove(trace)
        with open(os.path.join(args.out, "fig14.json"), "w") as f:
            json.dump({"args": vars(args), "variants": results}, f, indent=1)
    a = args
    lines = [
        "UR %g until cycle %d, then TOR %g; %d cycles, seed %d, %d-cycle bins. Accepted in phits/node/cycle."
        % (a.ur_load, a.switch, a.tor_load, a.cycles, a.seed, a.bin), "",
        "| variant | UR accepted (cycles %d-%d) | accepted, all packets, %d-%d | of it TOR packets | "
        "first TOR packet delivered | last UR packet delivered | TOR packets' accepted, last quarter | "
        "their latency | their non-minimal fraction |" % (a.switch // 2, a.switch, a.switch, a.switch + 5000),
        "|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        s = r["summary"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, fmt(s["ur_accepted"]), fmt(s["after_switch_accepted_all"]), fmt(s["after_switch_accepted_tor"]),
            s["first_tor_delivery"], s["last_ur_delivery"] if s["last_ur_delivery"] >= 0 else "—",
            fmt(s["tail_accepted_tor"]), fmt(s["tail_latency_tor"], 0),
            "—" if s["tail_nonminimal_tor"] is None else "%.0f %%" % (100 * s["tail_nonminimal_tor"])))
    with open(os.path.join(args.out, "fig14.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("gal_fig14.py: no matplotlib; figure not drawn", file=sys.stderr)
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for name, r in results.items():
        t = [b["t_start"] + a.bin / 2 for b in r["bins"]]
        line, = ax1.plot(t, [b["accepted_tor"] for b in r["bins"]], label=name + ": TOR packets")
        ax1.plot(t, [b["accepted_ur"] for b in r["bins"]], ls=":", color=line.get_color(), label=name + ": UR packets")
        ax2.plot(t, [b["nonminimal_tor"] if b["nonminimal_tor"] is not None else b["nonminimal_ur"] for b in r["bins"]],
                 color=line.get_color(), label=name)
    for ax in (ax1, ax2):
        ax.axvline(a.switch, color="grey", lw=0.8)
    ax1.set_ylabel("accepted (phits/node/cycle)\nby generation phase")
    ax1.legend(fontsize=7, ncol=2)
    ax2.set_ylabel("non-minimal fraction\n(packets delivered)")
    ax2.set_xlabel("cycle")
    ax1.set_title("GAL paper Fig. 14: UR %g -> TOR %g at cycle %d" % (a.ur_load, a.tor_load, a.switch))
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "fig14.png"), dpi=110)


if __name__ == "__main__":
    main()
