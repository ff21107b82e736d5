#!/usr/bin/env python3
"""Write a GTKWave save file (.gtkw) for one traced scfly switch."""
import argparse

DEC, RJUST, SIGNED, ANALOG_STEP, BLANK = 0x4, 0x20, 0x400, 0x8000, 0x200
STRETCH, GRP_BEGIN, GRP_END = 0x20000, 0x800000, 0x1000000

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--switch", type=int, default=0)
    ap.add_argument("--p", type=int, default=2, help="host ports")
    ap.add_argument("--a", type=int, default=4, help="switches per group")
    ap.add_argument("--h", type=int, default=2, help="global ports")
    ap.add_argument("--local-vcs", type=int, default=2)
    ap.add_argument("--global-vcs", type=int, default=1)
    ap.add_argument("--analog-rows", type=int, default=1,
                    help="extra rows of height for analog traces (0 = one row)")
    ap.add_argument("--zoom", type=float, default=-17.0,
                    help="GTKWave zoom level; -17 shows about 600 cycles at 1 GHz")
    ap.add_argument("--title", default="")
    ap.add_argument("--start-ns", type=float, default=0.0,
                    help="time at the left edge of the view, in ns (the VCD counts picoseconds)")
    ap.add_argument("--height", type=int, default=1000, help="window height in pixels")
    ap.add_argument("--acor", action="store_true",
                    help="add the ACOR-Switch level controller and blocked injections (routing=acor-switch)")
    ap.add_argument("--pb", action="store_true", help="add the Piggyback flags of the global ports")
    ap.add_argument("--qcn", action="store_true",
                    help="add QCN-Switch: port probabilities, LastFb, Fb_avg, CNM counts and the "
                         "congestion points (routing=min-cond)")
    ap.add_argument("--pfc", action="store_true",
                    help="switch.flow_control=pfc: trace the pause flags instead of credits")
    ap.add_argument("--rtl", action="store_true",
                    help="with --acor/--pb: add the nets of the Verilated blocks (scfly run --rtl acor,pb)")
    ap.add_argument("--gal-nic", type=int, default=-1,
                    help="add the Verilated GAL threshold controllers of this NIC (scfly run --rtl gal_threshold; "
                         "the NIC of a traced switch)")
    ap.add_argument("--gal-sets", type=int, default=1, help="with --gal-nic: how many sets to show (from set 0)")
    ap.add_argument("--state-only", action="store_true",
                    help="only the ACOR/PB groups, no buffer, crossbar or credit traces")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()

    sw = f"net.sw{a.switch}."
    host = list(range(a.p))
    local = list(range(a.p, a.p + a.a - 1))
    glob = list(range(a.p + a.a - 1, a.p + a.a - 1 + a.h))
    cls = {**{p: "host" for p in host}, **{p: "local" for p in local}, **{p: "global" for p in glob}}
    vcs = {"host": 1, "local": a.local_vcs, "global": a.global_vcs}

    L = []
    fmt = [None]
    def flags(f):
        if fmt[0] != f:
            L.append(f"@{f:x}")
            fmt[0] = f
    def occ(name):               # wire 32 -> GTKWave appends [31:0]
        flags(DEC | RJUST | ANALOG_STEP)
        L.append(sw + name + "[31:0]")
        for _ in range(a.analog_rows):
            flags(STRETCH)
            L.append("-")
    def integer(name, analog=False):  # integer 32 -> no range suffix in GTKWave
        flags(DEC | RJUST | SIGNED | (ANALOG_STEP if analog else 0))
        L.append(sw + name)
        for _ in range(a.analog_rows if analog else 0):
            flags(STRETCH)
            L.append("-")
    def group(title, body):
        flags(GRP_BEGIN | BLANK); L.append("-" + title)
        body()
        flags(GRP_END | BLANK); L.append("-" + title)

    def inputs(ports):
        def body():
            for p in ports:
                for v in range(vcs[cls[p]]):
                    base = f"in{p}_{cls[p]}_vc{v}"
                    occ(base + "_occ")
                    integer(base + "_xbar_out")
        return body
    def outputs():
        for p in host + local + glob:
            for v in range(vcs[cls[p]]):
                occ(f"out{p}_{cls[p]}_vc{v}_occ")
    def credits():
        for p in local + glob:
            for v in range(vcs[cls[p]]):
                integer(f"out{p}_{cls[p]}_vc{v}_credits", analog=True)

    def net(path, width, analog=False):  # a Verilated net: wire N; GTKWave adds [N-1:0] if N > 1
        flags(DEC | RJUST | (ANALOG_STEP if analog else 0))
        L.append(sw + path + (f"[{width - 1}:0]" if width > 1 else ""))
        for _ in range(a.analog_rows if analog else 0):
            flags(STRETCH)
            L.append("-")

    if a.acor:
        def acor():
            occ("acor_level")
            occ("acor_blocked_counter")
            occ("blocked_injections")
        group(f"sw{a.switch} ACOR level controller", acor)
        if a.rtl:
            def acor_rtl():
                m = "acor_rtl.u_acor_level_ctrl.acor_level_ctrl."
                net(m + "blocked_i", 32)
                net(m + "sum", 32, analog=True)
                net(m + "it_cur", 32)
                net(m + "rise", 1)
                net(m + "timer_q", 32, analog=True)
                net(m + "interval_end", 1)
                net(m + "dt_cur", 32)
                net(m + "fall", 1)
                net(m + "counter_q", 32, analog=True)
                net(m + "level_q", 2, analog=True)
            group(f"sw{a.switch} Verilated acor_level_ctrl.sv", acor_rtl)
    if a.pb:
        def pb():
            for j in range(a.h):
                flags(0x22)  # binary, right-justified
                L.append(sw + f"pb_sat_g{j}[31:0]")
        group(f"sw{a.switch} Piggyback saturation flags", pb)
        if a.rtl:
            def pb_rtl():
                # One model for every h <= 16: q_i (256 bits) is not in the VCD; h_i is
                # the switch's h, used the ports in use, sat_o 16 flags.
                m = "pb_rtl.u_pb_sat_detector.pb_sat_detector."
                net(m + "h_i", 5)
                net(m + "sum", 21)  # 16 + $clog2(16 + 1)
                net(m + "rhs", 48)
                flags(0x22)
                L.append(sw + m + "used[15:0]")
                L.append(sw + m + "sat_o[15:0]")
            group(f"sw{a.switch} Verilated pb_sat_detector.sv", pb_rtl)
    if a.qcn:
        def qcn_ports():
            for p in local + glob:
                occ(f"qcn_p{p}_{cls[p]}")
            occ("qcn_fb_avg")
            for p in local + glob:
                occ(f"qcn_lastfb{p}_{cls[p]}")
            occ("qcn_cnms_received")
            occ("qcn_cnms_sent")
        group(f"sw{a.switch} QCN-Switch port probabilities (%), LastFb, Fb_avg, CNMs", qcn_ports)
        def qcn_cps():
            for p in local + glob:
                occ(f"qcn_cp{p}_{cls[p]}_count")
                occ(f"qcn_cp{p}_{cls[p]}_q")
                occ(f"qcn_cp{p}_{cls[p]}_fb")
        group(f"sw{a.switch} QCN congestion points (sample counter, sampled Q, Fb)", qcn_cps)
    if a.gal_nic >= 0:
        for k in range(a.gal_sets):
            def gal(k=k):
                # Net paths are absolute (net.nicN...), not under the switch: write them directly.
                m = f"net.nic{a.gal_nic}.gal_rtl{k}.gal_threshold."
                def gnet(name, width, analog=False):
                    flags(DEC | RJUST | (ANALOG_STEP if analog else 0))
                    L.append(m + name + (f"[{width - 1}:0]" if width > 1 else ""))
                    for _ in range(a.analog_rows if analog else 0):
                        flags(STRETCH)
                        L.append("-")
                gnet("dep_i", 4)
                gnet("sum_q", 13, analog=True)
                gnet("prev_q", 13, analog=True)
                gnet("cnt_q", 20)
                gnet("instant", 1)
                gnet("t_q", 16, analog=True)
            group(f"nic{a.gal_nic} Verilated gal_threshold.sv, set {k}", gal)
    if not a.state_only:
        group(f"sw{a.switch} injection inputs (occ, xbar_out)", inputs(host))
        group(f"sw{a.switch} local inputs (occ, xbar_out)", inputs(local))
        group(f"sw{a.switch} global inputs (occ, xbar_out)", inputs(glob))
        group(f"sw{a.switch} output buffer occupancy", outputs)
        if a.pfc:
            def paused():
                for p in local + glob:
                    for v in range(vcs[cls[p]]):
                        flags(0x22)
                        L.append(sw + f"out{p}_{cls[p]}_vc{v}_paused[31:0]")
            group(f"sw{a.switch} PFC pause of local/global outputs", paused)
        else:
            group(f"sw{a.switch} credits of local/global outputs", credits)

    hdr = [f"[*] scfly switch {a.switch} view {a.title}".rstrip(),
           "[*] generated by waveforms/gen_gtkw.py; open with: gtkwave TRACE.vcd " + a.out,
           f"[timestart] {round(a.start_ns * 1000)}", f"[size] 1400 {a.height}", "[pos] -1 -1", f"*{a.zoom:.6f} -1" + " -1" * 26,
           "[treeopen] net.", f"[treeopen] net.sw{a.switch}.",
           "[sst_width] 200", "[signals_width] 340", "[sst_expanded] 0", "[sst_vpaned_height] 300"]
    with open(a.out, "w") as f:
        f.write("\n".join(hdr + L + ["[pattern_trace] 1", "[pattern_trace] 0", ""]))

if __name__ == "__main__":
    main()
