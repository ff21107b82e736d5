#!/usr/bin/env python3
"""The allocator design-space study (issue 49, item 3): throughput beside area.

For every switch.allocator x passes of the study's sweep files (allocator-study-*.yaml here):
  1. the saturation throughput of each workload (the sweep's saturation search);
  2. the mean latency at half that throughput (a second sweep, one point per series,
     written next to the database as <sweep>-half.yaml);
  3. the allocator's SystemVerilog synthesized by Yosys at the network's radix, VCs, passes
     and connections per port: cells and logic depth (the longest topological path, Yosys
     `ltp -noff`, in cells: the timing proxy). An allocator without an SV twin in
     rtl_models/verilog/ gets no area.
Then the Markdown table (allocator-study.md) and the throughput-versus-area figure
(allocator-study.png) in --out. Every run is a point of one results database, so a rerun
resumes and reuses what is stored, and the Yosys results are cached (cells.json).

  python3 sc_main/experiments/allocator-study.py --out allocator-study --jobs 2
"""
import argparse
import csv
import hashlib
import json
import os
import re
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VERILOG = os.path.join(ROOT, "rtl_models", "verilog")
STUDIES = [("allocator-study-dfly-4-8-4.yaml", "dfly(4,8,4)"), ("allocator-study-torus-8x8.yaml", "8-ary 2-cube")]
# switch.allocator -> its SystemVerilog twin (file, top module); parameters P (ports), V (VCs
# per port), ITERS (passes), CAP_MAX (connections per port).
SV = {
    "separable-input": ("sep_allocator.sv", "sep_allocator"),
    "separable-output": ("alloc_output_first.sv", "alloc_output_first"),
    "wavefront": ("alloc_wavefront.sv", "alloc_wavefront"),
    "islip": ("alloc_islip.sv", "alloc_islip"),
}
ORDER = ["separable-input", "separable-output", "wavefront", "islip"]


def run(cmd, ok=(0,)):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    rc = subprocess.run(cmd).returncode
    if rc not in ok:
        sys.exit(f"allocator-study: {cmd[0]} exited with {rc}")
    return rc


def export(scfly, db, table, path):
    subprocess.run([scfly, "export", db, "--table", table, "-o", path], check=True, stdout=subprocess.DEVNULL)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def parse_series(label):
    """'workload=MIN UN switch.allocator=islip switch.allocator_iterations=2' -> dict."""
    out = {}
    for part in re.split(r" (?=[a-z_.]+=)", label):
        k, v = part.split("=", 1)
        out[k] = v
    return out


def network_shape(config_json):
    """Radix, VCs per port and connections per port of a stored point's configuration."""
    c = json.loads(config_json)
    t, sw = c["topology"], c["switch"]
    if t.get("kind", "dragonfly") == "dragonfly":
        radix = t["p"] + t["a"] - 1 + t["h"]
    else:
        radix = 2 * t["n"] + t.get("p", 1)
    vcs = max(v for v in sw["vcs"].values() if isinstance(v, int))
    cap = 1 if sw.get("crossbar") == "transfer" else sw["speedup"]
    return radix, vcs, cap


def widths_package(cache):
    """scfly_pkg.sv generated from widths.def as the build does (rtl_models/verilog/check.sh)."""
    out = os.path.join(cache["_dir"], "scfly_pkg.sv")
    if not os.path.exists(out):
        iface = os.path.join(ROOT, "rtl_models", "interface")
        subprocess.run(["cmake", "-DDEF=" + os.path.join(iface, "widths.def"),
                        "-DOUT_H=" + os.path.join(cache["_dir"], "scfly_widths.h"), "-DOUT_SV=" + out,
                        "-P", os.path.join(iface, "gen_widths.cmake")], check=True, stdout=subprocess.DEVNULL)
    return out


def synthesize(kind, p, v, iters, cap, cache, run_yosys=True):
    """Yosys cells and longest topological path of one allocator instance (cached; with
    run_yosys false, only what the cache holds)."""
    sv, top = SV[kind]
    path = os.path.join(VERILOG, sv)
    if not os.path.exists(path):
        return None
    pkg = widths_package(cache)
    digest = hashlib.sha256(open(path, "rb").read() + open(pkg, "rb").read()).hexdigest()[:16]
    key = f"{kind} P={p} V={v} ITERS={iters} CAP_MAX={cap} {digest}"
    if key in cache:
        return cache[key]
    if not run_yosys:
        return None
    script = (f"read_verilog -sv {pkg} {path}; chparam -set P {p} -set V {v} -set ITERS {iters} "
              f"-set CAP_MAX {cap} {top}; synth -flatten -top {top}; tee -o /dev/stdout stat; tee -o /dev/stdout ltp -noff")
    print(f"+ yosys: {kind} P={p} V={v} ITERS={iters} CAP_MAX={cap}", file=sys.stderr, flush=True)
    log = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
    if log.returncode != 0:
        sys.exit(f"allocator-study: yosys failed on {sv}:\n{log.stdout[-2000:]}{log.stderr[-2000:]}")
    cells = re.findall(r"Number of cells:\s+(\d+)", log.stdout)
    depth = re.findall(r"Longest topological path in \S+ \(length=(\d+)\)", log.stdout)
    res = {"cells": int(cells[-1]) if cells else None, "depth": int(depth[-1]) if depth else None}
    cache[key] = res
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scfly", default=os.path.join(ROOT, "build", "scfly"))
    ap.add_argument("--out", default="allocator-study", help="directory of the database, table and figure")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-synth", action="store_true", help="run no Yosys (area from the cache only)")
    ap.add_argument("--max-synth-ports", type=int, default=0,
                    help="run Yosys only on instances of at most this many ports (0: all; a radix-15 allocator "
                         "with 4 VCs takes Yosys 4-20 minutes and up to 6 GB); larger ones come from the cache")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    db = os.path.join(a.out, "study.sqlite")
    cache_path = os.path.join(a.out, "cells.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    cache["_dir"] = os.path.abspath(a.out)

    rows = []
    for fname, net in STUDIES:
        spec_path = os.path.join(HERE, fname)
        spec = yaml.safe_load(open(spec_path))
        name = os.path.splitext(fname)[0]
        # 1. Saturation throughput of every series (exit 3: some point failed; go on).
        run([a.scfly, "sweep", spec_path, "--db", db, "--jobs", str(a.jobs)], ok=(0, 3))
        sat = [r for r in export(a.scfly, db, "saturation", os.path.join(a.out, "saturation.csv")) if r["sweep"] == name]
        workloads = spec["axes"]["workload"]
        # 2. Half the saturation throughput, one point per series.
        half = {"name": name + "-half", "base": os.path.normpath(os.path.join(HERE, spec["base"])),
                "set": spec.get("set", {}), "axes": {"point": {}}}
        meta = {}
        for r in sat:
            s = parse_series(r["series"])
            thr = float(r["saturation_throughput"]) if r["saturation_throughput"] else None
            if not thr:
                continue
            label = f"{s['workload']} | {s['switch.allocator']} | {s['switch.allocator_iterations']}"
            ov = dict(workloads[s["workload"]])
            ov["switch"] = {"allocator": s["switch.allocator"],
                            "allocator_iterations": int(s["switch.allocator_iterations"])}
            ov["load"] = round(thr / 2, 4)
            half["axes"]["point"][label] = ov
            meta[label] = (s, thr)
        half_path = os.path.join(a.out, name + "-half.yaml")
        with open(half_path, "w") as f:
            f.write("# Generated by sc_main/experiments/allocator-study.py: each series of " + fname +
                    " at half its saturation throughput.\n")
            yaml.safe_dump(half, f, sort_keys=False)
        run([a.scfly, "sweep", half_path, "--db", db, "--jobs", str(a.jobs)], ok=(0, 3))
        pts = [p for p in export(a.scfly, db, "points", os.path.join(a.out, "points.csv")) if p["sweep"] == name + "-half"]
        lat = {}
        for p in pts:
            label = p.get("point") or ""
            if p["status"] == "ok" and label:
                lat[label] = float(p["latency_avg"])
                shape = network_shape(p["config_json"])
        # 3. Area at this network's radix, VCs and connections per port.
        for label, (s, thr) in meta.items():
            kind, iters = s["switch.allocator"], int(s["switch.allocator_iterations"])
            run_yosys = not a.no_synth and not (a.max_synth_ports and shape[0] > a.max_synth_ports)
            area = synthesize(kind, shape[0], shape[1], iters, shape[2], cache, run_yosys)
            rows.append({"network": net, "workload": s["workload"], "allocator": kind, "passes": iters,
                         "saturation": thr, "latency_half": lat.get(label), "radix": shape[0], "vcs": shape[1],
                         "connections": shape[2], "cells": area and area["cells"], "depth": area and area["depth"]})
        json.dump({k: v for k, v in cache.items() if k != "_dir"}, open(cache_path, "w"), indent=1, sort_keys=True)

    rows.sort(key=lambda r: (r["network"], r["workload"], ORDER.index(r["allocator"]), r["passes"]))
    json.dump(rows, open(os.path.join(a.out, "allocator-study.json"), "w"), indent=1)
    fmt = lambda x, d: "—" if x is None else (f"{x:,}" if isinstance(x, int) else f"{x:.{d}f}")
    md = ["| network | workload | `switch.allocator` | passes | saturation throughput | latency at half (cycles) | Yosys cells | depth |",
          "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        md.append(f"| {r['network']} (radix {r['radix']}, {r['vcs']} VCs) | {r['workload']} | `{r['allocator']}` | "
                  f"{r['passes']} | {fmt(r['saturation'], 3)} | {fmt(r['latency_half'], 1)} | {fmt(r['cells'], 0)} | "
                  f"{fmt(r['depth'], 0)} |")
    with open(os.path.join(a.out, "allocator-study.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # One panel per network and workload with an area (not synthesized: no panel).
    panels = sorted({(r["network"], r["workload"]) for r in rows if r["cells"] is not None})
    if not panels:
        print("no allocator synthesized: no figure", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.4), squeeze=False)
    markers = {"separable-input": "o", "separable-output": "s", "wavefront": "^", "islip": "D"}
    for ax, (net, wl) in zip(axes[0], panels):
        for kind in ORDER:
            for passes, fill in ((1, "full"), (2, "none")):
                rs = [r for r in rows if (r["network"], r["workload"], r["allocator"], r["passes"]) == (net, wl, kind, passes)]
                for r in rs:
                    ax.plot([r["cells"]], [r["saturation"]], markers[kind], fillstyle=fill, color="C" + str(ORDER.index(kind)),
                            label=f"{kind}, {passes} pass{'es' if passes > 1 else ''}")
        ax.set_title(f"{net}\n{wl}", fontsize=9)
        ax.set_xlabel("Yosys cells", fontsize=8)
        ax.set_ylabel("saturation throughput", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    h, l = axes[0][0].get_legend_handles_labels()
    fig.legend(h, l, loc="lower center", ncol=4, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(os.path.join(a.out, "allocator-study.png"), dpi=130)
    print(f"wrote {a.out}/allocator-study.md, allocator-study.png, allocator-study.json", file=sys.stderr)


if __name__ == "__main__":
    main()
