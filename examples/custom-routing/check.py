"""Checks of the plug-in's runs (called by ctest): python3 check.py KIND FILE..."""
import json
import sqlite3
import sys

kind, *files = sys.argv[1:]
if kind == "adv":
    # ADV+1 at 0.3 on dfly(2,4,2): MIN carries at most 1/(a*p) = 0.125; threshold-val must
    # send most packets through Valiant and carry (almost) all of the offered load.
    m = json.load(open(files[0]))["metrics"]
    print(f"accepted {m['accepted_load']:.4f}, non-minimal {m['nonminimal_fraction']:.3f}")
    assert m["accepted_load"] > 0.28, m["accepted_load"]
    assert m["nonminimal_fraction"] > 0.5, m["nonminimal_fraction"]
elif kind == "un":
    # UN at 0.2: queues stay short, so (almost) every packet is minimal.
    m = json.load(open(files[0]))["metrics"]
    print(f"accepted {m['accepted_load']:.4f}, non-minimal {m['nonminimal_fraction']:.3f}")
    assert abs(m["accepted_load"] - 0.2) < 0.01, m["accepted_load"]
    assert m["nonminimal_fraction"] < 0.05, m["nonminimal_fraction"]
elif kind == "far":
    # far-group under VAL at 0.2: the run echoes the plug-in pattern by name and carries the load.
    j = json.load(open(files[0]))
    m = j["metrics"]
    print(f"traffic {j['config']['traffic']}, accepted {m['accepted_load']:.4f}")
    assert j["config"]["traffic"] == "far-group", j["config"]["traffic"]
    assert abs(m["accepted_load"] - 0.2) < 0.01, m["accepted_load"]
elif kind == "sweep":
    # Every point ran; at 0.4 (ADV+1) threshold-val carries the load where MIN cannot.
    db = sqlite3.connect(files[0])
    acc = {}
    for status, cfg, a in db.execute("select status, config_json, accepted_load from points"):
        assert status == "ok", status
        c = json.loads(cfg)
        acc[(c["routing"], c["load"])] = a
    print(acc)
    assert len(acc) == 6, acc
    assert acc[("min", 0.4)] < 0.13 and acc[("threshold-val", 0.4)] > 0.38, acc
elif kind == "same":
    # The C++ run and the run through the RTL variant (--rtl threshold-val): the second
    # echoes the block, and every metric is the same (a third argument: the RTL run's
    # scheduler threads).
    cpp, rtl = (json.load(open(f)) for f in files[:2])
    if len(files) > 2:
        assert rtl["run"]["scheduler"].endswith(f"on {files[2]} threads"), rtl["run"]["scheduler"]
    assert cpp["config"].get("rtl", []) == [], cpp["config"].get("rtl")
    assert rtl["config"]["rtl"] == ["threshold-val"], rtl["config"]["rtl"]
    differ = {k: (v, rtl["metrics"].get(k)) for k, v in cpp["metrics"].items() if rtl["metrics"].get(k) != v}
    print(f"{len(cpp['metrics'])} metrics, accepted {cpp['metrics']['accepted_load']:.4f}; differ: {differ}")
    assert not differ and len(rtl["metrics"]) == len(cpp["metrics"]), differ
elif kind == "busy":
    # busy-val under a load step (0.05, then 0.4 from cycle 2000): minimal while the switches
    # are quiet, Valiant once their units say busy; every switch has its unit's series.
    j = json.load(open(files[0]))
    ts = j["timeseries"]
    levels = ts["per_switch"]["busy_level"]
    assert all(len(b) == 36 for b in levels), [len(b) for b in levels]
    for start, end, nm, lv in zip(ts["t_start"], ts["t_end"], ts["nonminimal_fraction"], levels):
        print(f"[{start}, {end}): non-minimal {nm:.3f}, busy switches {sum(lv):.0f}")
        if end <= 2000:
            assert nm < 0.05 and sum(lv) <= 3, (start, nm, sum(lv))  # a rare burst of a quiet switch
        if start >= 2500:
            assert nm > 0.5 and sum(lv) > 18, (start, nm, sum(lv))
elif kind == "hyperx":
    # UN at 0.3 on hyperx(S=4, L=2, p=2): the load is carried, and DOR's hops are the
    # differing coordinates: of a node's 31 destinations, 1 is on its own switch (0 hops),
    # 12 on the 6 switches one coordinate away, 18 on the 9 two away: 48/31 = 1.548 hops.
    j = json.load(open(files[0]))
    m = j["metrics"]
    print(f"topology {j['config']['topology']}, accepted {m['accepted_load']:.4f}, hx hops {m['hx_hops_avg']:.3f}")
    assert j["config"]["topology"]["kind"] == "hyperx", j["config"]["topology"]
    assert abs(m["accepted_load"] - 0.3) < 0.01, m["accepted_load"]
    assert abs(m["hx_hops_avg"] - 48 / 31) < 0.03, m["hx_hops_avg"]
    if len(files) > 1:  # the same run on two threads: every metric the same
        m2 = json.load(open(files[1]))["metrics"]
        differ = {k: (v, m2.get(k)) for k, v in m.items() if m2.get(k) != v}
        assert not differ and len(m2) == len(m), differ
else:
    sys.exit(f"unknown check {kind}")
