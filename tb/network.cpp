#include "tb/network.h"

#include "rtl_models/switch/fault_link.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstring>
#include <type_traits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "rtl_models/verilog/rtl_blocks.h"
#include "tb/memory.h"
#include "tb/packet_trace.h"
#include "tb/tlm_endpoint.h"

namespace scfly {

namespace {
sc_core::sc_time period_of(double clock_ghz) {
  return sc_core::sc_time(1000.0 / clock_ghz, sc_core::SC_PS);
}

// Bytes of packets alive at once at the offered load, below saturation (Little's law):
// packets per node per cycle x nodes x a latency bound (twice the highest-latency route
// from switch 0 to any switch, hop by hop: link latency + pipeline + a packet's phits; twice
// for non-minimal routes), each packet a 64-byte Packet plus the pool's 12 bytes of
// bookkeeping, and the pool's vectors grow by doubling (x1.5 on average).
uint64_t packet_bytes_estimate(const SimConfig& cfg, const Topology& t) {
  const int S = t.num_switches(), R = t.radix();
  std::vector<uint64_t> dist(static_cast<size_t>(S), UINT64_MAX);
  std::vector<int> queue{0};
  dist[0] = 0;
  uint64_t far = 0;
  for (size_t i = 0; i < queue.size(); ++i) {  // breadth first by hops; the latency sums along
    const int s = queue[i];
    for (int q = t.host_ports(); q < R; ++q) {
      if (!t.connected(s, q)) continue;
      const PortEnd e = t.neighbor(s, q);
      if (e.sw < 0 || dist[static_cast<size_t>(e.sw)] != UINT64_MAX) continue;
      const int c = t.port_class_of(q);
      dist[static_cast<size_t>(e.sw)] = dist[static_cast<size_t>(s)] + cfg.sw.latency[c] +
                                        static_cast<uint64_t>(cfg.sw.pipeline) + static_cast<uint64_t>(cfg.packet_phits);
      far = std::max(far, dist[static_cast<size_t>(e.sw)]);
      queue.push_back(e.sw);
    }
  }
  const double latency = 2.0 * static_cast<double>(far + 2 * cfg.sw.latency[kHostClass] + cfg.sw.pipeline +
                                                   static_cast<uint64_t>(cfg.packet_phits));
  double load = 0;
  for (const auto& ph : cfg.phases) load = std::max(load, ph.load);
  double live = load / cfg.packet_phits * t.num_nodes() * latency;
  // No more than the switches' buffers hold (a network past saturation fills them; its
  // source queues, which grow with the run, are not counted).
  double room = 0;
  for (int q = 0; q < R; ++q) {
    const int c = t.port_class_of(q);
    const double vcs = cfg.sw.vcs[c] + cfg.sw.ctrl_vcs[c];
    room += vcs * std::max(1.0, static_cast<double>(cfg.sw.in_buf[c] + cfg.sw.out_buf[c]) / cfg.packet_phits);
  }
  live = std::min(live, room * S);
  return static_cast<uint64_t>(live * (sizeof(Packet) + 12) * 1.5);
}

std::vector<std::string> class_names(const Topology& t) {
  std::vector<std::string> out;
  for (int c = 0; c < t.num_port_classes(); ++c) out.push_back(t.port_class_name(c));
  return out;
}
}  // namespace

std::string fault_problem(const SimConfig& cfg, const Topology& topo, const FaultSpec& f) {
  const std::string head = "--fault '" + to_string(f) + "': ";
  const int S = topo.num_switches();
  const std::string links = " (ports " + std::to_string(topo.host_ports()) + "-" + std::to_string(topo.radix() - 1) +
                            " of switches 0-" + std::to_string(S - 1) + ")";
  if (f.sw < 0 || f.sw >= S || f.port < topo.host_ports() || f.port >= topo.radix())
    return head + "switch " + std::to_string(f.sw) + " port " + std::to_string(f.port) +
           " is not a switch-to-switch link of " + topo.describe() + links;
  if (!topo.connected(f.sw, f.port))
    return head + "switch " + std::to_string(f.sw) + " port " + std::to_string(f.port) +
           " is not a switch-to-switch link of " + topo.describe() +
           ": it is a mesh edge, connected to nothing; pick a port with a neighbour" + links;
  const int cls = topo.port_class_of(f.port);
  const int data_vcs = cfg.sw.vcs[cls], vcs = data_vcs + cfg.sw.ctrl_vcs[cls];
  if (f.vc >= vcs)
    return head + "VC " + std::to_string(f.vc) + " of switch " + std::to_string(f.sw) + " port " +
           std::to_string(f.port) + ": the port has " + std::to_string(vcs) +
           (vcs == 1 ? " VC (allowed: 0)" : " VCs (allowed: 0-" + std::to_string(vcs - 1) + ")");
  const bool pfc = cfg.sw.flow_control == FlowControl::Pfc;
  switch (f.kind) {
    case FaultKind::ExtraCredit:
    case FaultKind::DoubleCredits:
    case FaultKind::LoseCredits:
      if (pfc)
        return head + to_string(f.kind) + " acts on credits, and this network's switch-to-switch links carry none "
               "(switch.flow_control: pfc: PAUSE and RESUME frames instead); on it the allowed kinds are drop-pause, "
               "wrong-vc, dup-phit and clear-global-done";
      break;
    case FaultKind::DropPause:
      if (!pfc)
        return head + "drop-pause drops PFC PAUSE frames, and this network sends none (switch.flow_control: credit); "
               "it needs switch.flow_control: pfc; under credits the allowed kinds are extra-credit, double-credits, "
               "lose-credits, wrong-vc, dup-phit and clear-global-done";
      break;
    case FaultKind::ClearGlobalDone:
      // Every Dragonfly routing sets and reads the bit (the hop-slot VC rule, minimal.h, and the
      // forwarding tables' VC rules, forwarding_table.h); no torus or mesh routing touches it.
      if (dynamic_cast<const Dragonfly*>(&topo) == nullptr)
        return head + "clear-global-done clears the Dragonfly route header's \"global hop taken\" bit, which no " +
               topo.describe() + " routing sets or reads, so it cannot fire; it is allowed on a Dragonfly";
      break;
    case FaultKind::DupPhit: {
      // dup-phit repeats a body phit (not a head): a packet or frame of one phit has none.
      if (f.vc < data_vcs) {
        if (cfg.packet_phits < 2)
          return head + "dup-phit repeats a packet's first body phit (one after its head), and every packet here is " +
                 std::to_string(cfg.packet_phits) + " phit long (packet_phits " + std::to_string(cfg.packet_phits) +
                 "), so it has none; allowed with packet_phits >= 2";
        break;
      }
      // A control VC carries control frames only (sc_main/config.cpp lists their kinds).
      uint32_t longest = 0;
      if (cfg.sw.probe_interval > 0) longest = std::max<uint32_t>(longest, cfg.sw.probe_phits);
      if (cfg.routing == RoutingAlgo::MinCond && cfg.routing_prm.trigger == MinCondTrigger::Qcn)
        longest = std::max<uint32_t>(longest, cfg.routing_prm.qcn.cnm_phits);
      if (longest < 2)
        return head + "dup-phit repeats a frame's first body phit, and VC " + std::to_string(f.vc) +
               " is a control VC whose frames are all 1 phit long (control.frame_phits, qcn.cnm_phits), so it has "
               "none; pick a data VC (0-" + std::to_string(data_vcs - 1) + ") or longer control frames";
      break;
    }
    default: break;
  }
  return {};
}

Network::Network(sc_core::sc_module_name name, const SimConfig& cfg, const TraceRequest& trace)
    : sc_core::sc_module(name),
      m_cfg(cfg),
      m_topo(make_topology(cfg)),
      m_dfly(dynamic_cast<const Dragonfly*>(m_topo.get())),
      m_routing(cfg.routing, *m_topo, cfg.routing_prm),
      m_period(period_of(cfg.clock_ghz)),
      m_clk("clk", m_period),
      m_stats(m_topo->num_nodes(), m_topo->hosts_per_switch(), cfg.warmup_cycles,
              cfg.warmup_cycles + cfg.measure_cycles, class_names(*m_topo)) {
  // The model's fatal errors are shown, logged and cached; never thrown, never a stop
  // (network.h): the host chooses by setting other actions after this.
  sc_core::sc_report_handler::set_actions(kReportType, sc_core::SC_ERROR,
                                          sc_core::SC_DISPLAY | sc_core::SC_LOG | sc_core::SC_CACHE_REPORT);
  // Everything below the routing unit and the traffic patterns sees the topology only
  // through the Topology interface (topologies/topology.h).
  const Topology& topo = *m_topo;
  const int S = topo.num_switches(), P = topo.hosts_per_switch();
  if (topo.num_port_classes() > kMaxPortClasses)
    throw std::logic_error("topology " + topo.describe() + " names " + std::to_string(topo.num_port_classes()) +
                           " port classes; at most " + std::to_string(kMaxPortClasses) + " are supported");
  if (trace.fault.kind != FaultKind::None)
    if (const std::string why = fault_problem(cfg, topo, trace.fault); !why.empty()) throw std::invalid_argument(why);
  m_ctx.res_from = cfg.warmup_cycles;
  m_ctx.res_to = cfg.warmup_cycles + cfg.measure_cycles;
  if (m_routing.needs_global_load()) {
    m_net_load = std::make_unique<NetworkLoad>(S, topo.radix());
    m_ctx.net_load = m_net_load.get();
  }
  if (cfg.sw.rtl_min_route) {
    m_rtl_min_route = make_rtl_min_route(*m_dfly);
    m_ctx.rtl_min_hop = m_rtl_min_route.get();
  }
  if (cfg.sw.rtl_quadrant) {
    m_rtl_quadrant = make_rtl_quadrant(dynamic_cast<const Torus&>(*m_topo));
    m_ctx.rtl_quadrant = m_rtl_quadrant.get();
  }
  if (cfg.sw.rtl_ugal) {
    m_rtl_select = make_rtl_selection_blocks();
    m_ctx.rtl_select = m_rtl_select.get();
  }
  if (m_routing.needs_sat_flags()) {
    m_sat_flags = std::make_unique<SatFlagTable>(S, m_dfly->h(), cfg.routing_prm.pb.delay);
    m_ctx.sat_flags = m_sat_flags.get();
  }
  // The block scheduler, unless the run shares state across switches with one-cycle
  // visibility or needs SystemC processes (see run_blocks).
  {
    // The RTL blocks are stepped inside their switch's (or NIC's) cycle like the C++ units
    // they replace, on either scheduler.
    uint64_t shortest = UINT64_MAX;
    for (int c = 1; c < topo.num_port_classes(); ++c) shortest = std::min<uint64_t>(shortest, cfg.sw.latency[c]);
    // A single switch has no switch-to-switch link: its blocks end only at the cuts.
    m_block = shortest == UINT64_MAX ? (1ULL << 20) : std::max<uint64_t>(shortest, 1);
    if (cfg.scheduler == Scheduler::Kernel) m_kernel_why = "sim.scheduler: kernel";
    else if (m_net_load && cfg.ugal_g_view == UgalGView::Exact)
      m_kernel_why = "UGAL-G's network view is shared every cycle";
    else if (m_sat_flags && m_sat_flags->delay() < m_block)
      m_kernel_why = "Piggyback's flags are seen after pb.delay = " + std::to_string(m_sat_flags->delay()) +
                     " cycles, less than the block of " + std::to_string(m_block);
    else if (!trace.endpoints.empty()) m_kernel_why = "TLM endpoints";
    m_blocks = m_kernel_why.empty();
    // Piggyback's flags on the scheduler: read as committed at each window's start.
    if (m_blocks && m_sat_flags) m_sat_flags->blocks(static_cast<uint32_t>(m_block));
    // ugal_g.view block: the view committed at the end of every cycle kB - 1, on either
    // scheduler (the block scheduler's windows then end at every multiple of B).
    if (m_net_load && cfg.ugal_g_view == UgalGView::Block) {
      m_net_load->blocks();
      m_view_blocks = true;
    }
  }
  // Ranks: each owns a contiguous range of switches, cut at whole Dragonfly groups or torus
  // slabs (the widest unit that leaves every rank at least one), so that the fewest and
  // slowest links cross ranks (a Dragonfly's global links only, when the groups divide).
  m_rank_of.assign(static_cast<size_t>(S), 0);
  if (trace.ranks && trace.ranks->size() > 1) {
    m_ranks = trace.ranks;
    m_rank = m_ranks->rank();
    m_nranks = m_ranks->size();
    if (!m_blocks)
      throw std::invalid_argument("a simulation over " + std::to_string(m_nranks) +
                                  " ranks runs on the block scheduler, and this one needs the SystemC kernel (" +
                                  m_kernel_why + "); run it as one process (without mpirun, or with -np 1)");
    // Both follow a packet by its id, which is each rank's own.
    if (trace.fault.kind != FaultKind::None)
      throw std::invalid_argument("--fault: a simulation over " + std::to_string(m_nranks) +
                                  " ranks injects no fault; run it as one process (threads are fine)");
    if (cfg.sw.check_vc_order)
      throw std::invalid_argument("sim.check_vc_order: a simulation over " + std::to_string(m_nranks) +
                                  " ranks does not check the VC order; run it as one process (threads are fine)");
    if (m_nranks > S)
      throw std::invalid_argument(std::to_string(m_nranks) + " ranks for " + topo.describe() + ", which has " +
                                  std::to_string(S) + " switches; at most one rank per switch");
    std::vector<int> units;  // switches per unit, widest first
    if (m_dfly) units.push_back(m_dfly->a());
    if (const auto* tor = dynamic_cast<const Torus*>(m_topo.get()))
      for (int d = tor->n() - 1, u = S / tor->k(); d > 0; --d, u /= tor->k()) units.push_back(u);
    units.push_back(1);
    int unit = 1;
    for (int u : units)
      if (S % u == 0 && S / u >= m_nranks) {
        unit = u;
        break;
      }
    if (m_net_load)
      throw std::invalid_argument("UGAL-G over " + std::to_string(m_nranks) +
                                  " ranks: its view of every queue spans the ranks; run it as one process "
                                  "(threads are fine with ugal_g.view: block)");
    // Piggyback's flags are read within a Dragonfly group: each rank must hold whole groups.
    if (m_sat_flags && !(m_dfly && unit == m_dfly->a()))
      throw std::invalid_argument(std::to_string(m_nranks) + " ranks for " + topo.describe() +
                                  ": Piggyback's flags need whole groups on each rank, at most " +
                                  std::to_string(m_dfly ? m_dfly->g() : 0) + " ranks");
    const int64_t U = S / unit;
    for (int r = 0; r < m_nranks; ++r)
      for (int64_t x = U * r / m_nranks; x < U * (r + 1) / m_nranks; ++x)
        for (int i = 0; i < unit; ++i) m_rank_of[static_cast<size_t>(x * unit + i)] = r;
  }
  // The groups in the order the block scheduler runs them (this rank's), and the shards
  // (threads) they are split into: contiguous runs of that order.
  std::vector<int> groups;
  for (int k = 0; k < S; ++k)
    if (m_rank_of[static_cast<size_t>(k)] == m_rank) groups.push_back(k);
  if (m_blocks && trace.shuffle_construction != 0) {  // the groups' order must not change a result either
    std::mt19937_64 g(trace.shuffle_construction + 1);
    std::shuffle(groups.begin(), groups.end(), g);
  }
  const int owned = static_cast<int>(groups.size());
  m_threads = m_blocks ? resolve_threads(cfg.threads, owned, std::min<uint64_t>(m_block, cfg.watchdog_cycles)) : 1;
  if (m_nranks > 1 && cfg.threads <= 0)  // the ranks on this machine share its cores
    m_threads = std::max(1, std::min(m_threads, available_cores() / std::max(1, m_ranks->local_size())));
  // More shards than threads, taken by the threads as they come free: a thread whose
  // shards ran fast takes another, so no thread waits long for the slowest at the barrier.
  m_shards = m_threads == 1 ? 1 : std::min(owned, kShardsPerThread * m_threads);
  // Another rank's switches (and their NICs) are not built here: shard -1.
  std::vector<int>& shard_of = m_shard_of;
  shard_of.assign(static_cast<size_t>(S), -1);
  for (int t = 0; t <= m_shards; ++t)
    m_shard_first.push_back(static_cast<size_t>(static_cast<int64_t>(owned) * t / m_shards));
  for (int t = 0; t < m_shards; ++t)
    for (size_t i = m_shard_first[static_cast<size_t>(t)]; i < m_shard_first[static_cast<size_t>(t) + 1]; ++i)
      shard_of[static_cast<size_t>(groups[i])] = t;
  for (int t = 1; t < m_shards; ++t) {
    m_shard_ctx.push_back(std::make_unique<SimContext>(m_ctx));
    m_shard_stats.push_back(std::make_unique<NetStats>(m_topo->num_nodes(), m_topo->hosts_per_switch(),
                                                       cfg.warmup_cycles, cfg.warmup_cycles + cfg.measure_cycles,
                                                       class_names(*m_topo)));
  }
  if (m_shards > 1 || m_nranks > 1) m_ctx.defer_report = true;
  // The network-wide RTL blocks (one Verilated model that its switches evaluate, each call
  // on its own): one per shard, as a shard runs on one thread at a time. (The per-switch
  // and per-NIC blocks belong to their switch or NIC; separate Verilated models evaluate
  // on separate threads at once.)
  for (int t = 1; t < m_shards; ++t) {
    SimContext& c = shard_ctx(t);
    const std::string n = std::to_string(t);
    if (m_rtl_min_route) c.rtl_min_hop = m_rtl_shard_min_route.emplace_back(make_rtl_min_route(*m_dfly, "rtl_min_route" + n)).get();
    if (m_rtl_quadrant)
      c.rtl_quadrant = m_rtl_shard_quadrant.emplace_back(make_rtl_quadrant(dynamic_cast<const Torus&>(*m_topo), "rtl_quadrant_sel" + n)).get();
    if (m_rtl_select) c.rtl_select = m_rtl_shard_select.emplace_back(make_rtl_selection_blocks("rtl_ugal_selector" + n)).get();
  }
  m_prof.asked = trace.profile;
  m_prof.on = trace.profile && m_blocks;
  m_prof.threads = m_threads;
  m_prof.ranks = m_nranks;
  m_thread_time.resize(static_cast<size_t>(m_threads));
  NicParams np;
  np.scheduled = m_blocks;
  for (size_t i = 0; i < cfg.phases.size(); ++i) {
    m_patterns.push_back(std::make_unique<TrafficPattern>(cfg.phases[i].traffic, topo, cfg.seed, i));
    np.phases.push_back(NicPhase{cfg.phases[i].start, cfg.phases[i].load, m_patterns.back().get()});
  }
  np.packet_phits = cfg.packet_phits;
  np.skip_when_full = cfg.source_when_full == SourceWhenFull::Skip;
  np.vc_by_dest = cfg.injection_vc == InjectionVc::Dest;
  np.sleep = cfg.sw.sleep;
  np.pfc = cfg.sw.flow_control == FlowControl::Pfc;
  np.vcs = cfg.sw.vcs[kHostClass];
  np.buffer = cfg.sw.in_buf[kHostClass];
  np.latency = cfg.sw.latency[kHostClass];
  if (cfg.routing == RoutingAlgo::Gal) {
    np.gal_torus = dynamic_cast<const Torus*>(&topo);
    np.gal = cfg.routing_prm.gal;
    np.rtl_gal_threshold = cfg.sw.rtl_gal_threshold;
    if (np.rtl_gal_threshold) np.sleep = false;  // its registers are clocked every cycle
  }
  SwitchParams sp = cfg.sw;
  sp.pfc_host_credits = np.pfc && np.skip_when_full;  // the NIC's room check under PFC
  sp.scheduled = m_blocks;
  sp.packet_phits = static_cast<uint16_t>(cfg.packet_phits);
  // Construction order: switches, then NICs, unless `--shuffle-construction SEED` (a test
  // option) permutes them all; SystemC creates their processes, and so evaluates them
  // within a cycle, in this order, which must not change a result (docs/model.md).
  const int N = topo.num_nodes();
  std::vector<int> order(static_cast<size_t>(S + N));
  for (int k = 0; k < S + N; ++k) order[static_cast<size_t>(k)] = k;
  if (trace.shuffle_construction != 0) {
    std::mt19937_64 g(trace.shuffle_construction);
    std::shuffle(order.begin(), order.end(), g);
  }
  m_switches.resize(static_cast<size_t>(S));
  m_nics.resize(static_cast<size_t>(N));
  // A TLM endpoint's NIC: no generated traffic (the user's messages instead), and it runs
  // every cycle, so a message queued at any time starts at the first cycle it may.
  std::vector<char> is_ep(static_cast<size_t>(N), 0);
  for (int node : trace.endpoints) {
    if (node < 0 || node >= N)
      throw std::invalid_argument("TLM endpoint at node " + std::to_string(node) + ": the network has nodes 0.." +
                                  std::to_string(N - 1));
    if (is_ep[static_cast<size_t>(node)])
      throw std::invalid_argument("TLM endpoint at node " + std::to_string(node) + " given twice");
    is_ep[static_cast<size_t>(node)] = 1;
  }
  NicParams ep_np = np;
  for (NicPhase& ph : ep_np.phases) ph.load = 0;
  ep_np.sleep = false;
  // rtl_switches: the switches not named (and their NICs) run the C++ units.
  std::vector<char> rtl_here(static_cast<size_t>(S), cfg.rtl_switches.empty() ? 1 : 0);
  for (int k : cfg.rtl_switches) rtl_here[static_cast<size_t>(k)] = 1;
  SwitchParams sp_cpp = sp;
  for (bool* b : sp_cpp.rtl_flags()) *b = false;
  NicParams np_cpp = np;
  np_cpp.rtl_gal_threshold = false;
  // The memory estimate (tb/memory.h): the first switch and the first NIC are measured as
  // they are built; once both are, the whole network is projected and refused (before the
  // rest is allocated) when it exceeds sim.max_memory.
  m_mem.base = resident_now();
  // With ranks: this rank's part (its switches, their hosts, their share of the packets).
  const int own_nodes = owned * P;
  m_mem.ranks = m_nranks;
  m_mem.switches = static_cast<uint64_t>(owned);
  m_mem.hosts = static_cast<uint64_t>(own_nodes);
  m_mem.packets = packet_bytes_estimate(cfg, topo) / static_cast<uint64_t>(S) * static_cast<uint64_t>(owned);
  m_mem.limit = cfg.max_memory_mib > 0 ? cfg.max_memory_mib << 20 : available_memory();
  // The first kSample switches and NICs built are measured (their mean: the registries
  // SystemC appends every module and port to grow by doubling, which one module alone sees
  // unevenly); once they are, the network is projected and refused if it will not fit.
  constexpr int kSample = 4;
  int sw_seen = 0, nic_seen = 0;
  uint64_t sw_bytes = 0, nic_bytes = 0;
  for (int k : order) {
    // A block's shard: its switch's (a NIC's switch is the one its host hangs from); -1:
    // another rank's, not built here.
    const int t = shard_of[static_cast<size_t>(k < S ? k : topo.switch_of_node(k - S))];
    if (t < 0) continue;
    // Only the first kSample of each kind are measured (mallinfo2 walks the heap's bins).
    const bool measure = k < S ? sw_seen < kSample : nic_seen < kSample;
    const uint64_t before = measure ? heap_in_use() : 0;
    if (k < S)
      m_switches[static_cast<size_t>(k)] =
          std::make_unique<Switch>(("sw" + std::to_string(k)).c_str(), k, topo,
                                   rtl_here[static_cast<size_t>(k)] ? sp : sp_cpp, m_routing, shard_ctx(t), cfg.seed,
                                   m_clk);
    else
      m_nics[static_cast<size_t>(k - S)] = std::make_unique<Nic>(
          ("nic" + std::to_string(k - S)).c_str(), k - S, topo,
          is_ep[static_cast<size_t>(k - S)] ? ep_np
          : rtl_here[static_cast<size_t>(topo.switch_of_node(k - S))] ? np
                                                                       : np_cpp,
          shard_ctx(t), shard_stats(t), cfg.seed, m_clk);
    if (!measure) continue;
    const uint64_t after = heap_in_use();
    const uint64_t used = after > before ? after - before : 0;
    if (k < S) sw_bytes += used, ++sw_seen;
    else nic_bytes += used, ++nic_seen;
    // The NICs come after every switch: the switches alone are checked once they are
    // measured, the whole network once the NICs are too.
    const bool sw_done = sw_seen >= std::min(kSample, owned), nic_done = nic_seen >= std::min(kSample, own_nodes);
    if (!sw_done || (!nic_done && k >= S)) continue;
    m_mem.per_switch = sw_seen ? sw_bytes / static_cast<uint64_t>(sw_seen) : 0;
    m_mem.per_host = nic_seen ? nic_bytes / static_cast<uint64_t>(nic_seen) : 0;
    m_mem.measured = m_mem.per_switch > 0;
    if (m_mem.measured && m_mem.limit > 0 && m_mem.total() > m_mem.limit)
      throw MemoryLimitError("the network needs an estimated " + m_mem.describe() + ", more than sim.max_memory = " +
                             (cfg.max_memory_mib > 0 ? std::to_string(cfg.max_memory_mib) + " MiB"
                                                     : format_bytes(m_mem.limit) + " (the memory available now)") +
                             "; give sim.max_memory (MiB) a larger value to try anyway, or run a smaller network");
  }
  // TLM endpoints: their NICs inject the user's messages (tb/tlm_endpoint.h).
  if (!trace.endpoints.empty()) {
    m_messages = std::make_unique<MessageTable>(N);
    m_ctx.messages = m_messages.get();
    for (int node : trace.endpoints)
      m_endpoints[node] = std::make_unique<TlmEndpoint>(("ep" + std::to_string(node)).c_str(), node,
                                                         *m_nics[static_cast<size_t>(node)], *m_messages, m_period,
                                                         cfg.packet_phits, cfg.phit_bytes, trace.endpoint_capacity);
  }

  // Wiring from the neighbour map. Every channel is one initiator socket bound to one
  // target socket; the far end's matching channel is bound when its switch comes.
  for (int s = 0; s < S; ++s) {
    if (!m_switches[static_cast<size_t>(s)]) continue;  // another rank's
    Switch& sw = *m_switches[static_cast<size_t>(s)];
    for (int host = 0; host < P; ++host) {
      Nic& nic = *m_nics[static_cast<size_t>(topo.node_of(s, host))];
      for (int j = 0; j < topo.terminal_ports(); ++j) {
        nic.out(j).socket.bind(sw.in(topo.host_port(host, j)).socket);
        sw.out(topo.host_port(host, j)).socket.bind(nic.in(j).socket);
      }
    }
    for (int port = topo.host_ports(); port < topo.radix(); ++port) {
      if (!topo.connected(s, port)) {
        // A mesh edge: both directions end in a terminator nothing ever crosses.
        auto t = std::make_unique<LinkTerminator>(("term_sw" + std::to_string(s) + "_p" + std::to_string(port)).c_str(),
                                                  m_clk);
        sw.out(port).socket.bind(t->rx.socket);
        t->tx.socket.bind(sw.in(port).socket);
        m_terminators.push_back(std::move(t));
        continue;
      }
      const PortEnd far = topo.neighbor(s, port);
      if (far.sw < 0 || far.sw >= S || topo.is_host_port(far.port) || far.port >= topo.radix())
        throw std::logic_error("topology " + topo.describe() + ": port " + std::to_string(port) + " of switch " +
                               std::to_string(s) + " has no valid neighbour");
      const PortEnd back = topo.neighbor(far.sw, far.port);
      if (back.sw != s || back.port != port)
        throw std::logic_error("topology " + topo.describe() + ": the neighbour map is not symmetric at switch " +
                               std::to_string(s) + " port " + std::to_string(port));
      if (trace.fault.kind != FaultKind::None && trace.fault.sw == s && trace.fault.port == port) {
        // --fault: this channel passes through a FaultLink (rtl_models/switch/fault_link.h);
        // fault_problem checked the channel and the VC above.
        const int cls = topo.port_class_of(port);
        const int vcs = cfg.sw.vcs[cls] + cfg.sw.ctrl_vcs[cls];
        m_fault = std::make_unique<FaultLink>(("fault_sw" + std::to_string(s) + "_p" + std::to_string(port)).c_str(),
                                              trace.fault, cfg.sw.latency[cls], static_cast<uint8_t>(vcs), m_ctx.pool,
                                              m_clk.period());
        sw.out(port).socket.bind(m_fault->from_sender);
        m_fault->to_receiver.bind(m_switches[static_cast<size_t>(far.sw)]->in(far.port).socket);
        continue;
      }
      if (!m_switches[static_cast<size_t>(far.sw)]) {
        // Ranks: the far end is another rank's switch. Both directions end here in a
        // stand-in whose ends send what reaches them to that rank (exchange_ranks): this
        // switch's phits, and the credits of the channel from the far switch.
        auto t = std::make_unique<LinkTerminator>(("remote_sw" + std::to_string(s) + "_p" + std::to_string(port)).c_str(),
                                                  m_clk);
        sw.out(port).socket.bind(t->rx.socket);
        t->tx.socket.bind(sw.in(port).socket);
        m_remote_ends.push_back(std::move(t));
        continue;
      }
      sw.out(port).socket.bind(m_switches[static_cast<size_t>(far.sw)]->in(far.port).socket);
    }
  }
  assert(trace.fault.kind == FaultKind::None || m_fault);
  // Threads: a channel between two shards' switches files its messages through the
  // sending shard's outbox into the receiving shard (forward phits into the receiver's
  // input, credits back into the sender's output).
  if (m_shards > 1) {
    m_outbox.resize(static_cast<size_t>(m_shards * m_shards));
    for (int s = 0; s < S; ++s)
      for (int port = topo.host_ports(); port < topo.radix(); ++port) {
        if (!topo.connected(s, port)) continue;
        const PortEnd far = topo.neighbor(s, port);
        const int from = shard_of[static_cast<size_t>(s)], to = shard_of[static_cast<size_t>(far.sw)];
        if (from == to || from < 0 || to < 0) continue;  // another rank's end: below
        m_switches[static_cast<size_t>(far.sw)]->in(far.port).set_outbox(&m_outbox[static_cast<size_t>(from * m_shards + to)]);
        m_switches[static_cast<size_t>(s)]->out(port).set_outbox(&m_outbox[static_cast<size_t>(to * m_shards + from)]);
      }
    m_workers = std::make_unique<WorkerPool>(m_threads);
  }
  // Ranks: a channel from this rank's switch into another rank's sends its phits through
  // the sending shard's box for that rank; a channel from another rank's switch into this
  // rank's returns its credits the same way (exchange_ranks). The far end's blocks here
  // never run; what they would receive goes to the rank that runs them.
  if (m_nranks > 1) {
    m_rank_box.resize(static_cast<size_t>(m_shards * m_nranks));
    const int R = topo.radix();
    size_t next = 0;  // the stand-ins, in the order the wiring made them
    for (int s = 0; s < S; ++s) {
      if (!m_switches[static_cast<size_t>(s)]) continue;
      for (int port = topo.host_ports(); port < R; ++port) {
        if (!topo.connected(s, port)) continue;
        const PortEnd far = topo.neighbor(s, port);
        const int rf = m_rank_of[static_cast<size_t>(far.sw)];
        if (rf == m_rank) continue;
        LinkTerminator& t = *m_remote_ends[next++];
        Outbox* box = &m_rank_box[static_cast<size_t>(shard_of[static_cast<size_t>(s)] * m_nranks + rf)];
        t.rx.set_outbox(box);  // phits from switch s into far
        m_cross_id[&t.rx] = static_cast<uint32_t>(far.sw * R + far.port);
        t.tx.set_outbox(box);  // credits from switch s back to far
        m_cross_id[&t.tx] = static_cast<uint32_t>(far.sw * R + far.port);
      }
    }
    assert(next == m_remote_ends.size());
  }

  if (!trace.packet_trace.empty()) {
    if (m_nranks > 1)
      throw std::invalid_argument("--packet-trace: a simulation over " + std::to_string(m_nranks) +
                                  " ranks writes no packet trace; run it as one process (threads are fine)");
    m_packet_trace = std::make_unique<PacketTrace>(trace.packet_trace, topo, trace.from, trace.to);
    m_ctx.packet_trace = m_packet_trace.get();
    // The block scheduler: each shard collects its window's rows, merged at the window's end.
    if (m_blocks) {
      m_packet_trace->set_windowed();
      for (int t = 1; t < m_shards; ++t) {
        m_shard_trace.push_back(std::make_unique<PacketTrace>(PacketTrace::Shard{}, *m_packet_trace));
        shard_ctx(t).packet_trace = m_shard_trace.back().get();
      }
    }
  }
  if (!trace.path.empty()) {
    if (m_nranks > 1)
      throw std::invalid_argument("--vcd: a simulation over " + std::to_string(m_nranks) +
                                  " ranks writes no VCD; run it as one process (threads are fine)");
    m_vcd = std::make_unique<VcdWriter>("vcd", trace.path, m_period, trace.from, trace.to, m_blocks);
    m_vcd_range.assign(static_cast<size_t>(S), {0, 0});
    for (int s : trace.switches) {
      Switch& sw = *m_switches[static_cast<size_t>(s)];
      const size_t first_var = m_vcd->size();
      sw.set_traced();  // its input occupancy exact at every cycle (no streaming)
      const std::string scope = sw.name();
      for (int p = 0; p < sw.radix(); ++p) {
        const std::string cls = topo.port_class_name(topo.port_class_of(p));
        for (int v = 0; v < sw.in_vcs(p); ++v) {
          const std::string base = "in" + std::to_string(p) + "_" + cls + "_vc" + std::to_string(v);
          m_vcd->add(scope, base + "_occ", sw.in_occupancy(p, v));
          if (sw.flow_control() == FlowControl::Pfc) m_vcd->add(scope, base + "_xoff", sw.in_xoff(p, v));
          m_vcd->add(scope, base + "_xbar_out", sw.xbar_connection(p, v));
        }
        for (int v = 0; v < sw.out_vcs(p); ++v) {
          const std::string base = "out" + std::to_string(p) + "_" + cls + "_vc" + std::to_string(v);
          m_vcd->add(scope, base + "_occ", sw.out_occupancy(p, v));
          if (!topo.is_host_port(p)) {
            if (sw.flow_control() == FlowControl::Pfc) m_vcd->add(scope, base + "_paused", sw.out_paused(p, v));
            else m_vcd->add(scope, base + "_credits", sw.out_credits(p, v));
          }
        }
      }
      if (m_routing.recomputes()) m_vcd->add(scope, "blocked_injections", sw.blocked_now());
      for (const UnitSignal& u : sw.unit_signals())
        if (u.vcd) m_vcd->add(scope, u.name, u.vcd);
      // Verilated blocks of this switch (--rtl acor,pb): every port and net, under
      // net.swN.<block>.<Verilog module>.
      for (const RtlSignal& r : rtl_signals(sw)) m_vcd->add_bits(r.scope, r.name, r.data, r.bits);
      // ... and of its hosts' NICs (--rtl gal_threshold): net.nicN.gal_rtlK.<Verilog module>.
      for (int host = 0; host < P; ++host)
        for (const RtlSignal& r : rtl_signals(*m_nics[static_cast<size_t>(topo.node_of(s, host))]))
          m_vcd->add_bits(r.scope, r.name, r.data, r.bits);
      m_vcd_range[static_cast<size_t>(s)] = {first_var, m_vcd->size()};
    }
  }

  SC_HAS_PROCESS(Network);
  if (m_blocks) {
    for (int s : groups) {
      m_group_sw.push_back(m_switches[static_cast<size_t>(s)].get());
      if (m_vcd) m_group_vcd.push_back(m_vcd_range[static_cast<size_t>(s)]);
      m_group_first.push_back(m_group_nics.size());
      for (int host = 0; host < P; ++host) m_group_nics.push_back(m_nics[static_cast<size_t>(topo.node_of(s, host))].get());
    }
    m_group_first.push_back(m_group_nics.size());
    if (m_vcd) m_vcd_log.resize(m_group_sw.size());
    SC_METHOD(run_blocks);  // also the watchdog
  } else {
    SC_METHOD(watchdog);
    if (m_view_blocks) {
      SC_METHOD(commit_view);  // first at time 0: waits for the middle of cycle B - 1
    }
  }
  if (cfg.timeseries.bin_cycles != 0) {
    for (int t = 0; t < m_shards; ++t) shard_stats(t).enable_timeseries(cfg.timeseries.bin_cycles);
    if (cfg.timeseries.per_switch) {
      publish_switch_series("buffered_phits", [this](int s) {
        return static_cast<double>(m_switches[static_cast<size_t>(s)]->buffered_phits());
      });
      // The mechanism units' series (e.g. acor_level): every switch has the same units. The
      // first switch this rank built (m_group_sw is empty under sim.scheduler=kernel).
      const Switch* first = nullptr;
      for (const auto& sw : m_switches)
        if (sw && !first) first = sw.get();
      const std::vector<UnitSignal> sig0 = first->unit_signals();
      for (size_t i = 0; i < sig0.size(); ++i) {
        if (!sig0[i].series) continue;
        std::vector<std::function<double()>> per_switch;
        for (const auto& sw : m_switches) per_switch.push_back(sw ? sw->unit_signals()[i].series : nullptr);
        publish_switch_series(sig0[i].name, [per_switch](int s) { return per_switch[static_cast<size_t>(s)](); });
      }
      if (m_routing.recomputes())
        publish_switch_series("blocked_injections", [this](int s) {
          return static_cast<double>(m_switches[static_cast<size_t>(s)]->blocked_total());
        });
      publish_switch_series("queued_packets", [this](int s) {
        uint64_t q = 0;
        for (int h = 0; h < m_topo->hosts_per_switch(); ++h) q += m_nics[static_cast<size_t>(m_topo->node_of(s, h))]->queued();
        return static_cast<double>(q);
      });
      SC_METHOD(sample_switch_series);
      sensitive << m_sample_ev;
      dont_initialize();
      // The end of bin b is the end of cycle (b+1)*bin - 1: sample half a cycle after that
      // cycle's edge, when every block has finished it whatever the evaluation order.
      m_sample_ev.notify(m_period * (static_cast<double>(cfg.timeseries.bin_cycles) - 0.5));
    }
  }
}

std::vector<std::string> Network::construction_order(size_t n) const {
  std::vector<std::string> out;
  for (const sc_core::sc_object* o : get_child_objects()) {
    if (out.size() == n) break;
    const std::string b = o->basename();
    if (b.rfind("sw", 0) == 0 || b.rfind("nic", 0) == 0) out.push_back(b);
  }
  return out;
}

void Network::publish_switch_series(const std::string& name, std::function<double(int)> sample) {
  m_series.push_back(SwitchSeries{name, std::move(sample)});
}

void Network::sample_switch_series() {
  for (const auto& s : m_series) {
    std::vector<double> row(static_cast<size_t>(m_topo->num_switches()));  // another rank's switches: 0
    for (int i = 0; i < m_topo->num_switches(); ++i)
      if (m_switches[static_cast<size_t>(i)]) row[static_cast<size_t>(i)] = s.sample(i);
    m_series_data[s.name].push_back(std::move(row));
  }
  m_sample_ev.notify(m_period * static_cast<double>(m_cfg.timeseries.bin_cycles));
}

// ugal_g.view block on the kernel: UGAL-G's view committed in the middle of every cycle
// kB - 1, once every switch has run it (the switches run at the clock's edges).
void Network::commit_view() {
  const uint64_t half = m_period.value() / 2, B = m_block * m_period.value();
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (now % B == B - m_period.value() + half) m_net_load->commit();
  const uint64_t next = (now + m_period.value() - half) / B * B + B - m_period.value() + half;
  next_trigger(sc_core::sc_time::from_value(next - now));
}

// Runs every watchdog_cycles: if packets are inside the network and no phit has moved on
// any link since the last check, the network is stuck (deadlock or a model bug).
void Network::watchdog() {
  if (watchdog_check()) next_trigger(m_period * static_cast<double>(m_cfg.watchdog_cycles));
}

bool Network::watchdog_check() {
  // With ranks: the whole network's counts (every rank checks at the same cycles).
  const std::vector<uint64_t> v = rank_sum({phit_moves(), in_network(), control_in_flight()});
  const uint64_t moves = v[0], packets = v[1], frames = v[2];
  if (m_watch_last != UINT64_MAX && moves == m_watch_last && (packets > 0 || frames > 0)) {
    std::ostringstream os;
    os << "watchdog: no phit moved for " << m_cfg.watchdog_cycles << " cycles (cycle " << cycle()
       << ") while " << packets << " packets and " << frames
       << " control frames are in the network. Buffers" << (m_nranks > 1 ? " of rank " + std::to_string(m_rank) : "")
       << ":\n"
       << dump_buffers(60);
    if (m_shards > 1 || m_nranks > 1) m_ctx.report_error(os.str());
    else m_ctx.fail(os.str());
    return false;
  }
  m_watch_last = moves;
  return true;
}

uint64_t Network::phit_moves() const {
  uint64_t n = 0;
  for (int t = 0; t < m_shards; ++t) n += shard_ctx(t).phit_moves;
  return n;
}

uint64_t Network::in_network() const {
  uint64_t injected = 0, delivered = 0;
  for (int t = 0; t < m_shards; ++t) {
    const NetStats& st = t == 0 ? m_stats : *m_shard_stats[static_cast<size_t>(t - 1)];
    injected += st.injected_total();
    delivered += st.delivered_total();
  }
  return injected - delivered;
}

uint64_t Network::control_in_flight() const {
  uint64_t originated = 0, intercepted = 0;
  for (int t = 0; t < m_shards; ++t) {
    originated += shard_ctx(t).control.originated;
    intercepted += shard_ctx(t).control.intercepted;
  }
  return originated - intercepted;
}

NetStats Network::all_stats() const {
  NetStats all = m_stats;
  for (const auto& st : m_shard_stats) all.merge(*st);
  return all;
}

// One block [c, e) of every group, at the start of cycle c (see network.h).
namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

void Network::run_blocks() {
  if (!m_prof.on) {
    run_window();
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  run_window();
  m_prof.wall_s += seconds_since(t0);
}

// One window's profile from the threads' times (--profile).
void Network::end_window_profile() {
  double work = 0, busiest = 0, largest = 0;
  for (ThreadTime& t : m_thread_time) {
    work += t.work;
    busiest = std::max(busiest, t.work);
    largest = std::max(largest, t.largest);
    t = ThreadTime{};
  }
  ++m_prof.windows;
  m_prof.work_s += work;
  m_prof.busiest_s += busiest;
  m_prof.largest_s += largest;
  m_win_work.push_back(static_cast<float>(work));
  m_win_largest.push_back(static_cast<float>(largest));
}

void Network::run_window() {
  const uint64_t c = cycle();
  const uint64_t W = m_cfg.watchdog_cycles;
  if (c % W == 0 && !watchdog_check()) return;
  uint64_t e = std::min(c + m_block, (c / W + 1) * W);
  if (m_view_blocks) e = std::min(e, (c / m_block + 1) * m_block);  // commit at every multiple of B
  assert(c < m_horizon);
  e = std::min(e, m_horizon);
  if (!m_series.empty()) {
    const uint64_t bin = m_cfg.timeseries.bin_cycles;
    e = std::min(e, (c / bin + 1) * bin);
  }
  if (m_shards == 1 && m_nranks == 1 && !m_prof.on) {
    const size_t groups = m_group_sw.size();
    for (size_t g = 0; g < groups; ++g) {
      run_group(g, c, e, m_ctx);
      if (!m_ctx.error.empty()) return;  // fail() has stopped the kernel
    }
    if (m_packet_trace) [[unlikely]] end_trace_window();
    if (m_vcd) [[unlikely]] end_vcd_window(e);
    if (m_sat_flags) m_sat_flags->commit();
    if (m_view_blocks && e % m_block == 0) m_net_load->commit();
  } else {
    if (m_shards == 1) {
      const size_t groups = m_group_sw.size();
      ThreadTime& tt = m_thread_time[0];
      for (size_t g = 0; g < groups && m_ctx.error.empty(); ++g) {
        if (!m_prof.on) {
          run_group(g, c, e, m_ctx);
          continue;
        }
        const auto t0 = std::chrono::steady_clock::now();
        run_group(g, c, e, m_ctx);
        const double d = seconds_since(t0);
        tt.work += d;
        tt.largest = std::max(tt.largest, d);
      }
    } else {
      m_win_from = c;
      m_win_to = e;
      m_next_shard.store(0, std::memory_order_relaxed);  // published by run()
      m_workers->run(&Network::run_shards, this);
      m_next_shard.store(0, std::memory_order_relaxed);
      m_workers->run(&Network::flush_shards, this);
    }
    if (m_prof.on) end_window_profile();
    if (m_packet_trace) [[unlikely]] end_trace_window();
    if (m_vcd) [[unlikely]] end_vcd_window(e);
    if (m_sat_flags) m_sat_flags->commit();
    if (m_view_blocks && e % m_block == 0) m_net_load->commit();
    if (m_nranks > 1) {
      const auto t0 = m_prof.on ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      const bool ok = exchange_ranks();
      if (m_prof.on) m_prof.exchange_s += seconds_since(t0);
      if (!ok) return;
    }
    for (int t = 0; t < m_shards; ++t) {
      const std::string& err = shard_ctx(t).error;
      if (err.empty()) continue;
      // The lowest shard's first error: the lowest group that failed, as one thread finds it.
      const std::string first = err;
      for (int u = 0; u < m_shards; ++u)
        if (shard_ctx(u).error.empty()) shard_ctx(u).error = first;  // every block halts
      m_ctx.report_error(first);
      return;
    }
  }
  next_trigger(m_period * static_cast<double>(e - c));
}

// The packet trace's rows of the window just run, every shard's, in shard order.
void Network::end_trace_window() {
  for (auto& t : m_shard_trace) m_packet_trace->absorb(*t);
  m_packet_trace->end_window();
}

void Network::run_shards(void* self, int thread) {
  Network& n = *static_cast<Network*>(self);
  ThreadTime& tt = n.m_thread_time[static_cast<size_t>(thread)];
  for (int t; (t = n.m_next_shard.fetch_add(1, std::memory_order_relaxed)) < n.m_shards;) {
    SimContext& ctx = n.shard_ctx(t);
    const size_t last = n.m_shard_first[static_cast<size_t>(t) + 1];
    for (size_t g = n.m_shard_first[static_cast<size_t>(t)]; g < last; ++g) {
      if (n.m_prof.on) {
        const auto t0 = std::chrono::steady_clock::now();
        n.run_group(g, n.m_win_from, n.m_win_to, ctx);
        const double d = seconds_since(t0);
        tt.work += d;
        tt.largest = std::max(tt.largest, d);
      } else {
        n.run_group(g, n.m_win_from, n.m_win_to, ctx);
      }
      if (!ctx.error.empty()) break;
    }
  }
}

void Network::flush_shards(void* self, int) {
  Network& n = *static_cast<Network*>(self);
  for (int t; (t = n.m_next_shard.fetch_add(1, std::memory_order_relaxed)) < n.m_shards;)
    for (int from = 0; from < n.m_shards; ++from)
      if (from != t) n.m_outbox[static_cast<size_t>(from * n.m_shards + t)].flush();
}

// The VCD's changes of the window just run (every traced group's), written in cycle order;
// `e` is the window's end (its last cycle is e - 1).
void Network::end_vcd_window(uint64_t e) {
  for (auto& log : m_vcd_log) {
    if (log.empty()) continue;
    m_vcd_window.insert(m_vcd_window.end(), log.begin(), log.end());
    log.clear();
  }
  m_vcd->write_window(m_vcd_window, e - 1);
}

// A traced group (--vcd on the block scheduler): every cycle of the window, sampling the
// switch's variables after each cycle of the traced window (they change only in the
// cycles the group runs).
void Network::run_group_traced(size_t g, uint64_t from, uint64_t to, SimContext& ctx) {
  Switch& sw = *m_group_sw[g];
  Nic* const* const nics = m_group_nics.data() + m_group_first[g];
  const size_t n = m_group_first[g + 1] - m_group_first[g];
  const auto [first, last] = m_group_vcd[g];
  for (uint64_t t = from; t < to; ++t) {
    if (sw.next_run() == t) sw.run_cycle(t);
    for (size_t k = 0; k < n; ++k)
      if (nics[k]->next_run() == t) nics[k]->run_cycle(t);
    if (!ctx.error.empty()) [[unlikely]] return;
    if (t >= m_vcd->from() && t <= m_vcd->to()) m_vcd->sample_range(first, last, t, m_vcd_log[g]);
  }
}

void Network::run_group(size_t g, uint64_t from, uint64_t to, SimContext& ctx) {
  if (m_vcd) [[unlikely]]
    if (m_group_vcd[g].second > m_group_vcd[g].first) return run_group_traced(g, from, to, ctx);
  Switch& sw = *m_group_sw[g];
  Nic* const* const nics = m_group_nics.data() + m_group_first[g];
  const size_t n = m_group_first[g + 1] - m_group_first[g];
  for (uint64_t t = from;;) {
    uint64_t next = sw.next_run();
    for (size_t k = 0; k < n; ++k) next = std::min(next, nics[k]->next_run());
    if (next >= to) return;
    assert(next >= t);  // nothing may ask for a cycle already run
    t = next;
    if (sw.next_run() == t) sw.run_cycle(t);
    for (size_t k = 0; k < n; ++k)
      if (nics[k]->next_run() == t) nics[k]->run_cycle(t);
    if (!ctx.error.empty()) [[unlikely]] return;
    ++t;
  }
}

std::string Network::scheduler_note() const {
  if (m_blocks) {
    const std::string threads = m_threads > 1 ? " on " + std::to_string(m_threads) + " threads" : "";
    return "blocks of " + std::to_string(m_block) + (m_block == 1 ? " cycle" : " cycles") + threads +
           (m_nranks > 1 ? (threads.empty() ? " on " : " in each of ") + std::to_string(m_nranks) + " ranks" : "");
  }
  return "kernel (" + m_kernel_why + ")";
}

std::string Network::dump_buffers(size_t max_lines) const {
  std::string all;
  size_t lines = 0;
  for (const auto& sw : m_switches) {
    if (!sw) continue;  // another rank's
    const std::string d = sw->dump();
    for (char c : d) lines += c == '\n';
    all += d;
    if (lines >= max_lines) {
      all += "  ... (truncated)\n";
      break;
    }
  }
  return all;
}

uint64_t Network::queued() const {
  uint64_t q = 0;
  for (const auto& n : m_nics)
    if (n) q += n->queued();
  return q;
}

TlmEndpoint& Network::endpoint(int node) {
  const auto it = m_endpoints.find(node);
  if (it == m_endpoints.end())
    throw std::out_of_range("node " + std::to_string(node) + " is not a TLM endpoint of this network");
  return *it->second;
}

void Network::stop_generation(uint64_t end) {
  for (auto& n : m_nics)
    if (n) n->stop_generation(end);
}

uint64_t Network::packets_pending() {
  const std::vector<uint64_t> v = rank_sum({in_network(), queued()});
  return v[0] + v[1];
}

uint64_t Network::rank0_value(uint64_t v) {
  if (m_nranks == 1) return v;
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  m_ranks->broadcast(b, 0);
  std::memcpy(&v, b.data(), sizeof v);
  return v;
}

std::vector<uint64_t> Network::rank_sum(std::vector<uint64_t> v) const {
  if (m_nranks > 1) m_ranks->sum(v);
  return v;
}

namespace {
// Bytes of the messages between ranks: trivially copyable values, as this process lays
// them out (every rank runs the same executable).
void append(std::vector<uint8_t>& b, const void* p, size_t n) {
  const size_t at = b.size();
  b.resize(at + n);
  std::memcpy(b.data() + at, p, n);
}
template <typename T>
void put(std::vector<uint8_t>& b, const T& x) {
  static_assert(std::is_trivially_copyable_v<T>);
  append(b, &x, sizeof(T));
}
template <typename T>
T take(const std::vector<uint8_t>& b, size_t& i) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (i + sizeof(T) > b.size()) throw std::length_error("ranks: a message ends early");
  T x;
  std::memcpy(&x, b.data() + i, sizeof(T));
  i += sizeof(T);
  return x;
}
// One message over a channel between ranks. `ch`: the channel (its receiving end's
// switch x radix + port for a phit, its sending end's for a flow-control message), with
// kCredit set for the latter. A head phit is followed by its packet (PacketRec).
constexpr uint32_t kCredit = 1u << 31;
struct MsgRec {
  uint32_t ch;
  uint32_t pkt;       // phit: the sender's packet id; flow control: count
  uint64_t arrival;
  uint16_t seq;       // phit: its index in the packet
  uint8_t vc;
  uint8_t tail_kind;  // phit: tail flag; flow control: FlowMsg
};
static_assert(sizeof(MsgRec) == 24);
struct PacketRec {
  Packet pkt;
  uint32_t payload;
  int16_t arrival_port;
};
}  // namespace

bool Network::exchange_ranks() {
  const int R = m_nranks;
  const int radix = m_topo->radix();
  const std::string* err = nullptr;  // this rank's first error: its lowest shard's
  for (int t = 0; t < m_shards && !err; ++t)
    if (!shard_ctx(t).error.empty()) err = &shard_ctx(t).error;
  std::vector<std::vector<uint8_t>> send(static_cast<size_t>(R)), recv(static_cast<size_t>(R));
  for (int r = 0; r < R; ++r) {
    if (r == m_rank) continue;
    std::vector<uint8_t>& b = send[static_cast<size_t>(r)];
    size_t bytes = 1;
    for (int t = 0; t < m_shards; ++t) {
      const Outbox& box = m_rank_box[static_cast<size_t>(t * R + r)];
      bytes += (box.fw.size() + box.bw.size()) * sizeof(MsgRec);
    }
    b.reserve(bytes + bytes / 4);
    put<uint8_t>(b, err ? 1 : 0);
    for (int t = 0; t < m_shards; ++t) {
      Outbox& box = m_rank_box[static_cast<size_t>(t * R + r)];
      PacketPool& pool = shard_ctx(t).pool;
      for (const Outbox::Fw& f : box.fw) {
        const Flit& fl = f.m.flit;
        put(b, MsgRec{m_cross_id.at(f.rx), fl.pkt, f.m.arrival, fl.seq, fl.vc, fl.tail});
        if (fl.head()) {  // the packet goes with its head; the tail frees this rank's copy
          put(b, PacketRec{pool[fl.pkt], pool.payload(fl.pkt), pool.arrival_port(fl.pkt)});
          ++m_exported_open;
        }
        if (fl.tail) {
          pool.release(fl.pkt);
          --m_exported_open;
        }
      }
      for (const Outbox::Bw& k : box.bw)
        put(b, MsgRec{m_cross_id.at(k.tx) | kCredit, k.m.count, k.m.arrival, 0, k.m.vc,
                      static_cast<uint8_t>(k.m.kind)});
      box.fw.clear();
      box.bw.clear();
    }
  }
  if (m_prof.on)
    for (const auto& b : send) m_prof.exchange_bytes += b.size();
  m_ranks->exchange(send, recv);
  int failed = -1;  // the lowest rank that failed in this window
  for (int r = 0; r < R && failed < 0; ++r)
    if (r == m_rank ? err != nullptr : recv[static_cast<size_t>(r)].at(0) != 0) failed = r;
  if (failed >= 0) {
    std::vector<uint8_t> msg;
    if (failed == m_rank) msg.assign(err->begin(), err->end());
    m_ranks->broadcast(msg, failed);
    const std::string first(msg.begin(), msg.end());
    for (int t = 0; t < m_shards; ++t)
      if (shard_ctx(t).error.empty()) shard_ctx(t).error = first;  // every block halts
    m_ctx.report_error(first);
    return false;
  }
  const sc_core::sc_time none = sc_core::SC_ZERO_TIME;  // blocks read the arrival cycle
  for (int r = 0; r < R; ++r) {
    const std::vector<uint8_t>& b = recv[static_cast<size_t>(r)];
    for (size_t i = 1; i < b.size();) {
      const auto rec = take<MsgRec>(b, i);
      const int ch = static_cast<int>(rec.ch & ~kCredit);
      const int sw = ch / radix, port = ch % radix;
      LinkMsg m;
      m.arrival = rec.arrival;
      if (rec.ch & kCredit) {
        m.vc = rec.vc;
        m.kind = static_cast<FlowMsg>(rec.tail_kind);
        m.count = static_cast<uint16_t>(rec.pkt);
        m_switches[static_cast<size_t>(sw)]->out(port).file(m, none);
        continue;
      }
      m.flit = Flit{0, rec.seq, rec.vc, rec.tail_kind};
      const uint64_t key = static_cast<uint64_t>(ch) << 8 | rec.vc;
      PacketId id;
      if (m.flit.head()) {
        PacketPool& pool = shard_ctx(m_shard_of[static_cast<size_t>(sw)]).pool;
        const auto p = take<PacketRec>(b, i);
        id = pool.alloc();
        pool[id] = p.pkt;
        pool.payload(id) = p.payload;
        pool.arrival_port(id) = p.arrival_port;
        if (!rec.tail_kind) m_remote_pkt[key] = id;
      } else {
        const auto it = m_remote_pkt.find(key);
        if (it == m_remote_pkt.end())
          throw std::logic_error("ranks: a body phit without its head on channel " + std::to_string(ch));
        id = it->second;
        if (rec.tail_kind) m_remote_pkt.erase(it);
      }
      m.flit.pkt = id;
      m_switches[static_cast<size_t>(sw)]->in(port).file(m, none);
    }
  }
  return true;
}

Network::~Network() {
  // The members' own order, except that the blocks go newest first: SystemC's port and
  // export registries search for the object to remove from their newest entry, so
  // destroying the oldest first made tearing down a large network quadratic (seconds for
  // 876 switches).
  m_packet_trace.reset();
  m_shard_trace.clear();
  m_vcd.reset();
  m_endpoints.clear();
  while (!m_nics.empty()) m_nics.pop_back();
  while (!m_switches.empty()) m_switches.pop_back();
}

RunOutcome Network::outcome(double sim_wall_s, bool drained) {
  RunOutcome out;
  const uint64_t end = m_cfg.warmup_cycles + m_cfg.measure_cycles;
  out.drained = drained;
  out.sim_wall_s = sim_wall_s;
  out.error = m_ctx.error;
  if (m_vcd && m_blocks) end_vcd_window(std::max<uint64_t>(cycle(), 1));  // a window a fault ended early
  if (m_packet_trace) {
    if (m_blocks) end_trace_window();  // a window a fault ended early
    if (!m_packet_trace->close() && out.error.empty()) out.error = m_packet_trace->error();
  }
  // What is checked at the end, on each rank's own part: nothing reached a mesh edge's
  // terminator, and the credit balance.
  std::string late;
  for (const auto& t : m_terminators)
    if (late.empty() && t->touched()) late = std::string("a phit or credit reached the unconnected port ") + t->name();
  // (Not after a model error, which every rank holds alike: the run stopped mid-window and
  // the error is what it reports.)
  if (late.empty() && out.error.empty()) late = credit_balance();
  out.cycles = cycle();
  if (m_fault) {
    out.fault = m_fault->spec();
    out.fault_injected = m_fault->injected();
  }
  out.scheduler = scheduler_note();
  out.memory = m_mem;
  out.profile = m_prof;
  if (m_prof.on)
    for (int p = 1; p <= 64; p *= 2) {
      double b = 0;
      for (size_t w = 0; w < m_win_work.size(); ++w)
        b += std::max(static_cast<double>(m_win_work[w]) / p, static_cast<double>(m_win_largest[w]));
      out.profile.work_bound_s.push_back({p, b});
    }
  out.peak_rss = peak_rss();
  out.router_cycles_per_s =
      out.sim_wall_s > 0 ? static_cast<double>(out.cycles) * m_topo->num_switches() / out.sim_wall_s
                         : 0;
  NetStats stats = all_stats();
  // A last partial bin is sampled at the end of the run.
  std::map<std::string, std::vector<std::vector<double>>> series = m_series_data;
  const size_t bins = m_cfg.timeseries.bin_cycles ? stats.timeseries(out.cycles).t_start.size() : 0;
  for (const auto& s : m_series) {
    auto& rows = series[s.name];
    while (rows.size() < bins) {
      std::vector<double> row(static_cast<size_t>(m_topo->num_switches()));
      for (int i = 0; i < m_topo->num_switches(); ++i)
        if (m_switches[static_cast<size_t>(i)]) row[static_cast<size_t>(i)] = s.sample(i);
      rows.push_back(std::move(row));
    }
  }
  // Every shard's counters and sums, added up in shard order (integers: the same for any split).
  SimContext::ControlStats cs;
  uint64_t residence[kMaxPortClasses] = {};
  int64_t live = -m_exported_open;  // a packet sent to another rank but not all of it is alive in both
  std::map<std::string, uint64_t> counters;
  for (int t = 0; t < m_shards; ++t) {
    const SimContext& x = shard_ctx(t);
    cs.originated += x.control.originated;
    cs.intercepted += x.control.intercepted;
    cs.latency_sum += x.control.latency_sum;
    cs.latency_max = std::max(cs.latency_max, x.control.latency_max);
    for (const auto& [name, v] : x.counters) counters[name] += v;
    for (int c = 0; c < kMaxPortClasses; ++c) residence[c] += x.residence[c];
    live += x.pool.live();
  }
  uint64_t queued_now = queued();
  uint64_t held = 0;  // GAL: packets built by a NIC's injection unit, not yet on the link
  for (const auto& n : m_nics)
    if (n) held += n->held_packets();
  if (m_nranks > 1) {
    // Ranks: rank 0 adds up every rank's part (in rank order) and takes the first error and
    // the first failed end check in rank order; each rank's per-switch series give the
    // columns of the switches it ran.
    std::vector<uint8_t> b;
    const std::vector<uint64_t> st = stats.pack();
    put<uint64_t>(b, st.size());
    for (uint64_t x : st) put(b, x);
    put(b, cs);
    for (uint64_t x : residence) put(b, x);
    put(b, live);
    put(b, queued_now);
    put(b, held);
    put<uint64_t>(b, counters.size());
    for (const auto& [name, v] : counters) {
      put<uint64_t>(b, name.size());
      b.insert(b.end(), name.begin(), name.end());
      put(b, v);
    }
    for (const std::string* text : {&out.error, &late}) {
      put<uint64_t>(b, text->size());
      b.insert(b.end(), text->begin(), text->end());
    }
    for (const auto& [name, rows] : series)
      for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i)
          if (m_rank_of[i] == m_rank) put(b, row[i]);
    const std::vector<std::vector<uint8_t>> all = m_ranks->gather(b);
    if (m_rank == 0) {
      // Rank 0's own part is already in the sums above: merge the others'.
      for (size_t r = 1; r < all.size(); ++r) {
        const std::vector<uint8_t>& v = all[r];
        size_t i = 0;
        std::vector<uint64_t> theirs(static_cast<size_t>(take<uint64_t>(v, i)));
        for (uint64_t& x : theirs) x = take<uint64_t>(v, i);
        stats.merge_packed(theirs);
        const auto c = take<SimContext::ControlStats>(v, i);
        cs.originated += c.originated;
        cs.intercepted += c.intercepted;
        cs.latency_sum += c.latency_sum;
        cs.latency_max = std::max(cs.latency_max, c.latency_max);
        for (uint64_t& x : residence) x += take<uint64_t>(v, i);
        live += take<int64_t>(v, i);
        queued_now += take<uint64_t>(v, i);
        held += take<uint64_t>(v, i);
        for (uint64_t n = take<uint64_t>(v, i); n > 0; --n) {
          const auto len = static_cast<size_t>(take<uint64_t>(v, i));
          if (i + len > v.size()) throw std::length_error("ranks: a message ends early");
          const std::string name(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(i + len));
          i += len;
          counters[name] += take<uint64_t>(v, i);
        }
        for (std::string* text : {&out.error, &late}) {
          const auto len = static_cast<size_t>(take<uint64_t>(v, i));
          if (i + len > v.size()) throw std::length_error("ranks: a message ends early");
          if (text->empty()) text->assign(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(i + len));
          i += len;
        }
        for (auto& [name, rows] : series)
          for (auto& row : rows)
            for (size_t k = 0; k < row.size(); ++k)
              if (m_rank_of[k] == static_cast<int>(r)) row[k] = take<double>(v, i);
        if (i != v.size()) throw std::length_error("ranks: rank " + std::to_string(r) + "'s outcome is longer than its fields");
      }
    }
  }
  out.metrics = stats.compute(mean_offered_load(m_cfg, m_cfg.warmup_cycles, end));
  out.timeseries = stats.timeseries(out.cycles);
  out.timeseries.per_switch = std::move(series);
  if (m_cfg.phases_given && out.timeseries.bin_cycles) {
    std::vector<uint64_t> starts;
    for (const auto& p : m_cfg.phases) starts.push_back(p.start);
    out.timeseries.reactions = reaction_times(out.timeseries, starts, end);
  }
  out.metrics.packets_queued = queued_now;
  out.metrics.cycles = out.cycles;
  out.metrics.counters = std::move(counters);
  out.metrics.has_control = false;
  for (int k = 0; k < kMaxPortClasses; ++k) out.metrics.has_control |= m_cfg.sw.ctrl_vcs[k] > 0;
  {
    const double pk = out.metrics.packets_measured ? static_cast<double>(out.metrics.packets_measured) : 1.0;
    for (int c = 0; c < m_topo->num_port_classes(); ++c)
      out.metrics.class_residence_avg.emplace_back(m_topo->port_class_name(c), static_cast<double>(residence[c]) / pk);
  }
  out.metrics.control_originated = cs.originated;
  out.metrics.control_intercepted = cs.intercepted;
  out.metrics.control_latency_avg =
      cs.intercepted ? static_cast<double>(cs.latency_sum) / static_cast<double>(cs.intercepted) : 0.0;
  out.metrics.control_latency_max = static_cast<double>(cs.latency_max);

  // Conservation: generated = injected + queued; injected = delivered + in network; and
  // the pool holds exactly the packets in the network and those a GAL NIC has built but
  // not sent (none lost, none duplicated).
  const Metrics& m = out.metrics;
  std::ostringstream os;
  os << "generated " << m.packets_generated << " = injected " << m.packets_injected
     << " + queued " << m.packets_queued << "; injected " << m.packets_injected
     << " = delivered " << m.packets_delivered << " + in network " << m.packets_in_network
     << "; live packets " << live;
  if (cs.originated) os << " (= in network + " << cs.in_flight() << " control frames in flight)";
  if (held) os << " (= in network + " << held << " in GAL injection queues)";
  out.conservation = os.str();
  out.conservation_ok = m.packets_generated == m.packets_injected + m.packets_queued &&
                        m.packets_injected == m.packets_delivered + m.packets_in_network &&
                        live == static_cast<int64_t>(m.packets_in_network + cs.in_flight() + held);
  if (out.error.empty()) out.error = late;
  if (m_nranks > 1) {
    // Every rank ends as rank 0 does (its exit code): its error and conservation verdict.
    std::vector<uint8_t> verdict;
    if (m_rank == 0) {
      verdict.resize(1 + out.error.size());
      verdict[0] = out.conservation_ok ? 1 : 0;
      std::memcpy(verdict.data() + 1, out.error.data(), out.error.size());
    }
    m_ranks->broadcast(verdict, 0);
    out.conservation_ok = verdict.at(0) != 0;
    out.error.assign(verdict.begin() + 1, verdict.end());
  }
  return out;
}

// The credit balance of every switch-to-switch channel, per VC: the sender's credits
// (landed, or taken ahead, and those on their way back) plus the phits that hold one at the
// receiver (buffered, or on the link) equal the receiver's buffer. A credit or phit lost or
// duplicated anywhere breaks it, drained or not. Checked where each credit stands for one
// buffered phit: credit flow control with the output buffer outside the credit loop and
// credits returned per phit (the default; with switch.output_credits inside or
// switch.credit_return packet a credit is spent or returned for a whole packet at its
// grant, and the injection links' credits live in the NICs: not checked). With ranks, each
// rank checks the channels into its own switches: the sender's side of a channel from
// another rank's switch (its credits, its buffer count and its switch's last cycle) comes
// from that rank in one exchange, which every rank makes (collective).
std::string Network::credit_balance() const {
  const SwitchParams& sp = m_cfg.sw;
  if (sp.flow_control != FlowControl::Credit || sp.out_in_credit_loop || sp.credit_at_grant) return {};
  const Topology& t = *m_topo;
  std::string broken;
  auto check = [&](int s, int op, const PortEnd& d, int v, int64_t credits, int64_t cap, uint64_t sender_cycle) {
    const Switch& down = *m_switches[static_cast<size_t>(d.sw)];
    const int64_t held = down.credits_held_in(d.port, v, sender_cycle);
    if (!broken.empty() || credits + held == cap) return;
    broken = "credit balance broken on the channel " + (m_switches[static_cast<size_t>(s)]
                                                             ? std::string(m_switches[static_cast<size_t>(s)]->name())
                                                             : "switch " + std::to_string(s) + " (rank " +
                                                                   std::to_string(m_rank_of[static_cast<size_t>(s)]) + ")") +
             " port " + std::to_string(op) + " -> " + std::string(down.name()) + " port " + std::to_string(d.port) +
             ", VC " + std::to_string(v) + ": " + std::to_string(credits) + " credits at the sender + " +
             std::to_string(held) + " phits holding one at the receiver != its buffer of " + std::to_string(cap) +
             " phits (" + (credits + held < cap ? "credits lost" : "credits duplicated") + ")";
  };
  // Ranks: per receiving rank, the sender's side of each channel into it.
  std::vector<std::vector<uint8_t>> send(static_cast<size_t>(m_nranks));
  for (int s = 0; s < t.num_switches(); ++s) {
    if (m_rank_of[static_cast<size_t>(s)] != m_rank) continue;
    const Switch& up = *m_switches[static_cast<size_t>(s)];
    for (int op = t.host_ports(); op < up.radix(); ++op) {
      if (!t.connected(s, op)) continue;
      const PortEnd d = t.neighbor(s, op);
      const int rd = m_rank_of[static_cast<size_t>(d.sw)];
      for (int v = 0; v < up.out_vcs(op); ++v) {
        const int64_t credits = up.credits_held_out(op, v), cap = up.credit_capacity(op, v);
        if (rd == m_rank)
          check(s, op, d, v, credits, cap, up.last_run());
        else
          put(send[static_cast<size_t>(rd)], ChannelSenderSide{static_cast<uint32_t>(s), static_cast<uint16_t>(op),
                                                        static_cast<uint16_t>(v), credits, cap, up.last_run()});
      }
    }
  }
  if (m_nranks > 1) {
    std::vector<std::vector<uint8_t>> recv;
    m_ranks->exchange(send, recv);
    for (const std::vector<uint8_t>& b : recv)
      for (size_t i = 0; i < b.size();) {
        const auto x = take<ChannelSenderSide>(b, i);
        const PortEnd d = t.neighbor(static_cast<int>(x.sw), x.port);
        if (m_rank_of.at(static_cast<size_t>(d.sw)) != m_rank)
          throw std::logic_error("ranks: the sender's side of a channel into another rank's switch");
        check(static_cast<int>(x.sw), x.port, d, x.vc, x.credits, x.cap, x.last_run);
      }
  }
  return broken;
}

}  // namespace scfly
