// The switch's iSLIP allocator (switch.allocator islip): RTL twin of IslipAllocator
// (rtl_models/switch/parts/allocator_islip.h, whose header states the rule; the request
// stage is parts/allocator_variant_base.h's), compared with it in lockstep, grants and
// pointer state every cycle, exhaustively at radix 4 with 2 VCs and on random request
// matrices at radix 16 with 4 VCs (tests/test_rtl_allocator_variants.cpp).
//
// Micro-architecture: as sep_allocator.sv, all ITERS iterations are unrolled into one
// combinational cycle (iteration k + 1 sees the grants, connection counts and pointers
// iteration k left), iters_i <= ITERS of them enabled. The registers are the pointers: per
// port the input's VC pointer, the output's grant pointer and the input's accept pointer,
// written at the clock edge with what the first iteration left (or load_i's values, the C++
// part's set_pointers; reset: 0). One clock edge is one switch cycle.
//
// Where the C++ part calls the switch's `want`/`grant`, the RTL takes that state as inputs
// (the tests' harness, as sep_allocator.sv): per input VC e = ip * V + v a request req_i[e]
// for one output VC (req_port_i, req_vc_i); per port the connections it holds (in_active_i,
// out_active_i). An input VC requests in an iteration if it has not been granted, its input
// port holds fewer than cap_i connections, its output port too, and its output VC has not
// been granted this cycle.
//
// One iteration, for every entry at once:
//  1. Request: the requesting VCs and their positions in their input port's order (control
//     VCs v >= ndata by index, then the data VCs round-robin from the VC pointer; the rr_all
//     port: every VC round-robin). A request's rank in the C++ part orders only requests of
//     one input port, as the position does.
//  2. Grant: at each output port the requests ordered by the key (data, distance of the
//     input port from the output's grant pointer mod ports_i, position); the first request
//     of each output VC in that order (its VC winner) is the only one that can get it; a VC
//     winner is granted iff fewer than cap - connections held VC winners precede it.
//  3. Accept: at each input port the grants it received ordered by the key (data, distance
//     of the output port from its accept pointer mod ports_i, position); the first
//     cap - connections held of them are accepted (the harness's `grant` refuses none: an
//     output granted no more than it can take, one grant per output VC).
//  4. Pointers, in the first iteration only: an input's accept pointer to one past the
//     output port of its last accepted grant in its accept order, its VC pointer past the
//     last accepted data VC in that order (modulo the data VCs; the rr_all port: any VC,
//     modulo its VCs); an output's grant pointer to one past the input port of its first
//     accepted grant in its grant order.
// Transit and age priority are not read (the C++ part's header says why).
// Widths: P ports of at most 2^AllocPortBits, V VCs of at most 2^AllocVcBits (scfly_pkg);
// ports_i <= P and the per-port VC counts are inputs, so one instance serves every switch
// up to its size.
module alloc_islip #(
  parameter int unsigned P       = 4,     // ports (max; ports_i of them in use)
  parameter int unsigned V       = 2,     // VCs per port (max; nvc_i per port)
  parameter int unsigned ITERS   = 1,     // iterations built (iters_i of them run)
  parameter int unsigned CAP_MAX = 2,     // connections per port (max of cap_i)
  localparam int unsigned N   = P * V,
  localparam int unsigned PW  = $clog2(P),
  localparam int unsigned VW  = (V > 1) ? $clog2(V) : 1,
  localparam int unsigned KW  = $clog2(P + 1),
  localparam int unsigned NVW = $clog2(V + 1),
  localparam int unsigned CW  = $clog2(CAP_MAX + 1),
  localparam int unsigned IW  = $clog2(ITERS + 1),
  localparam int unsigned GW  = (ITERS > 1) ? $clog2(ITERS) : 1,
  localparam int unsigned RW  = $clog2(N + 1),        // a count of entries
  localparam int unsigned TW  = P << VW,              // output VCs, {op, ov}
  localparam int unsigned OKW = 1 + PW + NVW + 1      // an order key: data, distance, position
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Configuration (the C++ AllocatorConfig), held while running.
  input  logic [KW-1:0]    ports_i,          // inputs (1..P)
  input  logic [CW-1:0]    cap_i,            // conn_cap (1..CAP_MAX)
  input  logic [IW-1:0]    iters_i,          // iterations (1..ITERS)
  input  logic [P*NVW-1:0] nvc_i,            // vcs of port ip at [ip*NVW +: NVW]
  input  logic [P*NVW-1:0] ndata_i,          // data_vcs
  input  logic             rr_all_en_i,      // rr_all >= 0
  input  logic [PW-1:0]    rr_all_i,
  // This cycle's requests, entry e = ip*V + v.
  input  logic [N-1:0]     req_i,
  input  logic [N*PW-1:0]  req_port_i,
  input  logic [N*VW-1:0]  req_vc_i,
  input  logic [P*CW-1:0]  in_active_i,      // connections input port ip holds
  input  logic [P*CW-1:0]  out_active_i,     // connections output port op holds
  // Pointer load at the clock edge (set_pointers).
  input  logic             load_i,
  input  logic [P*VW-1:0]  load_in_ptr_i,
  input  logic [P*PW-1:0]  load_grant_ptr_i,
  input  logic [P*PW-1:0]  load_accept_ptr_i,
  // Grants of this cycle and the iteration (0-based) of each; the pointer registers.
  output logic [N-1:0]     grant_o,
  output logic [N*GW-1:0]  grant_pass_o,
  output logic [P*VW-1:0]  in_ptr_o,
  output logic [P*PW-1:0]  grant_ptr_o,
  output logic [P*PW-1:0]  accept_ptr_o
);
  // Per cycle.
  logic [N-1:0]     req, data, moves;
  logic [PW-1:0]    op [N];
  logic [VW-1:0]    ov [N];
  logic [N-1:0]     same_op [N];        // [e][u]: u and e ask for the same output port
  logic [N-1:0]     same_ov [N];        // ... the same output VC
  logic [N*VW-1:0]  next_v;             // e's input pointer after a grant to e
  logic [N*PW-1:0]  next_g;             // an output's grant pointer after a grant to e
  logic [N*PW-1:0]  next_a;             // e's accept pointer after a grant to e
  // The registers and the state the iterations carry (what the first one left: *_d).
  logic [P*VW-1:0]  in_ptr_q, in_ptr_d;
  logic [P*PW-1:0]  gptr_q, gptr_d, aptr_q, aptr_d;
  logic [N-1:0]     granted;
  logic [TW-1:0]    taken;
  logic [P*CW-1:0]  in_cnt, out_cnt;
  // One iteration.
  logic [N-1:0]     elig, vcw, gnt, acc, g_first, a_last, v_last;
  logic [N*(NVW+1)-1:0] pos;            // position of e in its input port's order
  logic [OKW-1:0]   gkey [N];           // e's key in its output port's grant order
  logic [OKW-1:0]   akey [N];           // e's key in its input port's accept order
  logic [N-1:0]     gprec [N];          // [e][u]: u precedes e in e's output's grant order
  logic [N-1:0]     aprec [N];          // [e][u]: u precedes e in e's input's accept order

  // (x - p) mod K for x, p < K = ports_i; k_lo = K mod 2^PW (the result is below K <= 2^PW:
  // PW-bit arithmetic holds it).
  function automatic logic [PW-1:0] rr_dist(logic [PW-1:0] x, logic [PW-1:0] p, logic [PW-1:0] k_lo);
    rr_dist = (x >= p) ? x - p : x + k_lo - p;
  endfunction

  always_comb begin
    for (int unsigned e = 0; e < N; e++) begin
      req[e]  = req_i[e] && (NVW+1)'(e % V) < (NVW+1)'(nvc_i[(e / V)*NVW +: NVW]);
      data[e] = (NVW+1)'(e % V) < (NVW+1)'(ndata_i[(e / V)*NVW +: NVW]);
      op[e]   = req_port_i[e*PW +: PW];
      ov[e]   = req_vc_i[e*VW +: VW];
      next_g[e*PW +: PW] = (KW'(e / V + 1) == ports_i) ? '0 : PW'(e / V + 1);
      next_a[e*PW +: PW] = (KW'(op[e]) + 1'b1 == ports_i) ? '0 : op[e] + 1'b1;
    end
    for (int unsigned e = 0; e < N; e++) begin
      same_op[e] = '0;
      same_ov[e] = '0;
    end
    for (int unsigned e = 0; e < N; e++)
      for (int unsigned u = 0; u < e; u++) begin  // one comparator per pair
        same_op[e][u] = op[u] == op[e];
        same_op[u][e] = same_op[e][u];
        same_ov[e][u] = same_op[e][u] && ov[u] == ov[e];
        same_ov[u][e] = same_ov[e][u];
      end
    for (int unsigned ip = 0; ip < P; ip++) begin
      logic [NVW:0] nv, nd;
      logic         rr;
      nv = (NVW+1)'(nvc_i[ip*NVW +: NVW]);
      nd = (NVW+1)'(ndata_i[ip*NVW +: NVW]);
      rr = rr_all_en_i && rr_all_i == PW'(ip);
      for (int unsigned v = 0; v < V; v++) begin
        if ((NVW+1)'(v) < nd) next_v[(ip*V+v)*VW +: VW] = ((NVW+1)'(v + 1) == nd) ? '0 : VW'(v + 1);
        else                  next_v[(ip*V+v)*VW +: VW] = ((NVW+1)'(v + 1) == nv) ? '0 : VW'(v + 1);
        moves[ip*V+v] = (NVW+1)'(v) < nd || rr;
      end
    end
  end

  always_comb begin
    granted      = '0;
    taken        = '0;
    in_cnt       = in_active_i;
    out_cnt      = out_active_i;
    in_ptr_d     = in_ptr_q;
    gptr_d       = gptr_q;
    aptr_d       = aptr_q;
    grant_pass_o = '0;
    for (int unsigned k = 0; k < ITERS; k++) begin
      // Request: the requesting VCs and their positions.
      for (int unsigned e = 0; e < N; e++)
        elig[e] = IW'(k) < iters_i && req[e] && !granted[e] && in_cnt[(e / V)*CW +: CW] < cap_i &&
                  out_cnt[op[e]*CW +: CW] < cap_i && !taken[{op[e], ov[e]}];
      for (int unsigned ip = 0; ip < P; ip++) begin
        logic [NVW:0] nv, nd, ptr;
        logic         rr;
        nv  = (NVW+1)'(nvc_i[ip*NVW +: NVW]);
        nd  = (NVW+1)'(ndata_i[ip*NVW +: NVW]);
        ptr = (NVW+1)'(in_ptr_d[ip*VW +: VW]);
        rr  = rr_all_en_i && rr_all_i == PW'(ip);
        for (int unsigned v = 0; v < V; v++) begin
          logic [NVW:0] vv;
          vv = (NVW+1)'(v);
          if (rr)            pos[(ip*V+v)*(NVW+1) +: NVW+1] = (vv >= ptr) ? vv - ptr : vv + nv - ptr;
          else if (vv >= nd) pos[(ip*V+v)*(NVW+1) +: NVW+1] = vv - nd;
          else               pos[(ip*V+v)*(NVW+1) +: NVW+1] = nv - nd + ((vv >= ptr) ? vv - ptr : vv + nd - ptr);
        end
      end
      // Grant: the keys, each output VC's first request, the first `room` of those.
      for (int unsigned e = 0; e < N; e++) begin
        gkey[e] = {data[e], rr_dist(PW'(e / V), gptr_d[op[e]*PW +: PW], PW'(ports_i)),
                   pos[e*(NVW+1) +: NVW+1]};
        akey[e] = {data[e], rr_dist(op[e], aptr_d[(e / V)*PW +: PW], PW'(ports_i)),
                   pos[e*(NVW+1) +: NVW+1]};
      end
      for (int unsigned e = 0; e < N; e++)
        for (int unsigned u = 0; u < N; u++)
          gprec[e][u] = u != e && elig[u] && same_op[e][u] && gkey[u] < gkey[e];
      for (int unsigned e = 0; e < N; e++) vcw[e] = elig[e] && !(|(gprec[e] & same_ov[e]));
      for (int unsigned e = 0; e < N; e++) begin
        logic [CW-1:0] room;
        room   = cap_i - out_cnt[op[e]*CW +: CW];  // > 0 where e requests
        gnt[e] = vcw[e] && RW'($countones(vcw & gprec[e])) < RW'(room);
      end
      // Accept: at each input port its first `budget` grants in its accept order.
      for (int unsigned e = 0; e < N; e++) begin
        logic [CW-1:0] budget;
        aprec[e] = '0;
        for (int unsigned w = 0; w < V; w++)
          if (w != e % V) aprec[e][(e / V)*V + w] = gnt[(e / V)*V + w] && akey[(e / V)*V + w] < akey[e];
        budget = cap_i - in_cnt[(e / V)*CW +: CW];  // > 0 where e requests
        acc[e] = gnt[e] && RW'($countones(aprec[e])) < RW'(budget);
      end
      // Pointers (first iteration): an input's last accepted grant (and last accepted
      // pointer-moving one) in its accept order; an output's first accepted grant in its
      // grant order.
      for (int unsigned e = 0; e < N; e++) begin
        logic later, later_mv;
        later    = 1'b0;
        later_mv = 1'b0;
        for (int unsigned w = 0; w < V; w++)
          if (w != e % V && acc[(e / V)*V + w] && akey[e] < akey[(e / V)*V + w]) begin
            later = 1'b1;
            if (moves[(e / V)*V + w]) later_mv = 1'b1;
          end
        a_last[e]  = acc[e] && !later;
        v_last[e]  = acc[e] && moves[e] && !later_mv;
        g_first[e] = acc[e] && !(|(acc & gprec[e]));
      end
      for (int unsigned e = 0; e < N; e++) begin
        if (k == 0) begin
          if (a_last[e])  aptr_d[(e / V)*PW +: PW]  = next_a[e*PW +: PW];
          if (v_last[e])  in_ptr_d[(e / V)*VW +: VW] = next_v[e*VW +: VW];
          if (g_first[e]) gptr_d[op[e]*PW +: PW]     = next_g[e*PW +: PW];
        end
        if (acc[e]) begin
          taken[{op[e], ov[e]}]    = 1'b1;
          out_cnt[op[e]*CW +: CW]  = out_cnt[op[e]*CW +: CW] + 1'b1;
          grant_pass_o[e*GW +: GW] = GW'(k);
        end
      end
      for (int unsigned ip = 0; ip < P; ip++)
        in_cnt[ip*CW +: CW] = in_cnt[ip*CW +: CW] + CW'($countones(acc[ip*V +: V]));
      granted = granted | acc;
    end
  end

  assign grant_o      = granted;
  assign in_ptr_o     = in_ptr_q;
  assign grant_ptr_o  = gptr_q;
  assign accept_ptr_o = aptr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_ptr_q <= '0;
      gptr_q   <= '0;
      aptr_q   <= '0;
    end else if (load_i) begin
      in_ptr_q <= load_in_ptr_i;
      gptr_q   <= load_grant_ptr_i;
      aptr_q   <= load_accept_ptr_i;
    end else begin
      in_ptr_q <= in_ptr_d;
      gptr_q   <= gptr_d;
      aptr_q   <= aptr_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (P >= 2 && P <= (1 << scfly_pkg::AllocPortBits)) else $error("alloc_islip: P %0d outside [2, 2^AllocPortBits]", P);
    assert (V >= 1 && V <= (1 << scfly_pkg::AllocVcBits)) else $error("alloc_islip: V %0d outside [1, 2^AllocVcBits]", V);
    assert (ITERS >= 1 && CAP_MAX >= 1) else $error("alloc_islip: ITERS and CAP_MAX >= 1");
  end
  // Contracts on the inputs and the allocation's properties, checked in every evaluation
  // out of reset: one grant per output VC, no more grants per input (output) port than its
  // connection budget, a grant only to a requesting VC; the pointers within their ranges.
  always_comb begin
    logic [NVW-1:0] nv, nd;
    logic [RW-1:0]  gin, gout;
    nv = '0;
    nd = '0;
    gin = '0;
    gout = '0;
    if (rst_ni) begin
      assert (ports_i >= KW'(1)) else $error("alloc_islip: no ports");
      assert (cap_i >= CW'(1)) else $error("alloc_islip: cap 0");
      assert (iters_i >= IW'(1)) else $error("alloc_islip: 0 iterations");
      if (rr_all_en_i) assert (KW'(rr_all_i) < ports_i) else $error("alloc_islip: rr_all port %0d beyond the ports", rr_all_i);
      for (int unsigned ip = 0; ip < P; ip++) begin
        nv  = nvc_i[ip*NVW +: NVW];
        nd  = ndata_i[ip*NVW +: NVW];
        gin = RW'($countones(grant_o[ip*V +: V]));
        gout = '0;
        for (int unsigned e = 0; e < N; e++) gout = gout + RW'(grant_o[e] && op[e] == PW'(ip));
        assert (nd <= nv) else $error("alloc_islip: port %0d has %0d VCs, %0d data", ip, nv, nd);
        assert (in_active_i[ip*CW +: CW] <= cap_i && out_active_i[ip*CW +: CW] <= cap_i)
          else $error("alloc_islip: port %0d holds more connections than the cap", ip);
        if (KW'(ip) < ports_i) begin
          assert (KW'(gptr_q[ip*PW +: PW]) < ports_i && KW'(aptr_q[ip*PW +: PW]) < ports_i)
            else $error("alloc_islip: grant or accept pointer of port %0d beyond the ports", ip);
          if (rr_all_en_i && rr_all_i == PW'(ip))
            assert (nv == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nv))
              else $error("alloc_islip: input pointer %0d of port %0d beyond its VCs", in_ptr_q[ip*VW +: VW], ip);
          else
            assert (nd == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nd))
              else $error("alloc_islip: input pointer %0d of port %0d beyond its data VCs", in_ptr_q[ip*VW +: VW], ip);
        end
        assert (gin == '0 || RW'(in_active_i[ip*CW +: CW]) + gin <= RW'(cap_i))
          else $error("alloc_islip: input port %0d granted %0d connections beyond its budget", ip, gin);
        assert (gout == '0 || RW'(out_active_i[ip*CW +: CW]) + gout <= RW'(cap_i))
          else $error("alloc_islip: output port %0d granted %0d connections beyond its budget", ip, gout);
      end
      for (int unsigned e = 0; e < N; e++) begin
        if (req_i[e]) begin
          assert (req[e]) else $error("alloc_islip: request on VC %0d of port %0d, which has %0d VCs", e % V, e / V, nvc_i[(e / V)*NVW +: NVW]);
          assert (KW'(op[e]) < ports_i) else $error("alloc_islip: request to port %0d beyond the ports", op[e]);
          assert ((VW+1)'(ov[e]) < (VW+1)'(V)) else $error("alloc_islip: request to VC %0d beyond V", ov[e]);
        end
        if (grant_o[e]) begin
          assert (req[e]) else $error("alloc_islip: grant to input VC %0d of port %0d, which did not request", e % V, e / V);
          assert (!(|(grant_o & same_ov[e]))) else $error("alloc_islip: output VC %0d of port %0d granted twice", ov[e], op[e]);
        end
      end
    end
  end
  // Upper bounds of the configuration, where the field can exceed them.
  if ((1 << KW) - 1 > P) begin : g_chk_ports
    always_comb if (rst_ni) assert (32'(ports_i) <= P) else $error("alloc_islip: ports %0d beyond P = %0d", ports_i, P);
  end
  if ((1 << CW) - 1 > CAP_MAX) begin : g_chk_cap
    always_comb if (rst_ni) assert (32'(cap_i) <= CAP_MAX) else $error("alloc_islip: cap %0d beyond CAP_MAX = %0d", cap_i, CAP_MAX);
  end
  if ((1 << IW) - 1 > ITERS) begin : g_chk_iters
    always_comb if (rst_ni) assert (32'(iters_i) <= ITERS) else $error("alloc_islip: iterations %0d beyond ITERS = %0d", iters_i, ITERS);
  end
  if ((1 << NVW) - 1 > V) begin : g_chk_vcs
    always_comb
      if (rst_ni)
        for (int unsigned ip = 0; ip < P; ip++)
          assert (32'(nvc_i[ip*NVW +: NVW]) <= V) else $error("alloc_islip: port %0d has %0d VCs, beyond V = %0d", ip, nvc_i[ip*NVW +: NVW], V);
  end
`endif
endmodule
