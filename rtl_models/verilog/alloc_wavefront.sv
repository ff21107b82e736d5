// The switch's wavefront allocator (switch.allocator wavefront): RTL twin of
// WavefrontAllocator (rtl_models/switch/parts/allocator_wavefront.h, whose header states the
// rule; the request stage is parts/allocator_variant_base.h's), compared with it in
// lockstep, grants and pointer state every cycle, exhaustively at radix 4 with 2 VCs and on
// random request matrices at radix 16 with 4 VCs (tests/test_rtl_allocator_variants.cpp).
//
// Micro-architecture: as sep_allocator.sv, all ITERS passes are unrolled into one
// combinational cycle (pass k + 1 sees the grants, connection counts and VC pointers pass k
// left), iters_i <= ITERS of them enabled. The registers are the input ports' VC pointers
// and the first diagonal D: written at the clock edge with the last pass's VC pointers and
// D + 1 mod ports_i (or load_i's values, the C++ part's set_state; reset: 0). One clock
// edge is one switch cycle.
//
// Where the C++ part calls the switch's `want`/`grant`, the RTL takes that state as inputs
// (the tests' harness, as sep_allocator.sv): per input VC e = ip * V + v a request req_i[e]
// for one output VC (req_port_i, req_vc_i); per port the connections it holds (in_active_i,
// out_active_i). An input VC requests in a pass if it has not been granted, its input port
// holds fewer than cap_i connections, its output port too, and its output VC has not been
// granted this cycle.
//
// One pass:
//  1. VC level: the position of each VC in its input port's order (control VCs v >= ndata
//     by index, then the data VCs round-robin from the port's VC pointer; the rr_all port:
//     every VC round-robin). The cell (ip, op) holds the requesting VC of ip asking for op
//     at the earliest position (its head); the cell is control if that VC is (v >= ndata).
//  2. Port level: the cells are visited in 2P stages, stage (c, d) holding the cells of
//     class c (control first, then data) on diagonal d = (op - ip - D) mod ports_i. The
//     cells of one stage share no input and no output port, so a stage decides all its
//     cells at once: a cell is granted if its input port and its output port still hold
//     fewer than cap_i connections and its output VC is not taken; the counts, the taken
//     output VCs and the VC pointers then carry to the next stage.
//  3. Pointers: a granted data VC (v < ndata; the rr_all port: every VC) moves its input's
//     VC pointer past it, modulo the data VCs (rr_all: its VCs); the last such grant in
//     the visiting order sets it. D moves by one per cycle, after all passes.
// Transit and age priority are not read (the C++ part's header says why).
// Widths: P ports of at most 2^AllocPortBits, V VCs of at most 2^AllocVcBits (scfly_pkg);
// ports_i <= P and the per-port VC counts are inputs, so one instance serves every switch
// up to its size.
module alloc_wavefront #(
  parameter int unsigned P       = 4,     // ports (max; ports_i of them in use)
  parameter int unsigned V       = 2,     // VCs per port (max; nvc_i per port)
  parameter int unsigned ITERS   = 1,     // passes built (iters_i of them run)
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
  localparam int unsigned SW  = PW + 1                // a stage: {data, diagonal}
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
  // State load at the clock edge (set_state).
  input  logic             load_i,
  input  logic [P*VW-1:0]  load_in_ptr_i,
  input  logic [PW-1:0]    load_diag_i,
  // Grants of this cycle and the pass (0-based) of each; the registers.
  output logic [N-1:0]     grant_o,
  output logic [N*GW-1:0]  grant_pass_o,
  output logic [P*VW-1:0]  in_ptr_o,
  output logic [PW-1:0]    diag_o
);
  // Per cycle.
  logic [N-1:0]     req, data, moves;
  logic [PW-1:0]    op [N];
  logic [VW-1:0]    ov [N];
  logic [PW-1:0]    dg [N];             // e's diagonal (op - ip - D) mod ports_i
  logic [N-1:0]     in_stage [2*P];     // [s][e]: e's cell is visited in stage s
  logic [N-1:0]     to_port [P];        // [o][e]: e asks for output port o
  logic [N-1:0]     same_ov [N];        // [e][u]: u and e ask for the same output VC
  logic [N*VW-1:0]  next_v;             // e's input pointer after a grant to e
  // The registers and the state the passes carry (what the last one left: *_d).
  logic [P*VW-1:0]  in_ptr_q, in_ptr_d;
  logic [PW-1:0]    diag_q, diag_d;
  logic [N-1:0]     granted;
  logic [P*CW-1:0]  in_cnt, out_cnt;
  // One pass, one stage.
  logic [N-1:0]     elig, head, sg;
  logic [P-1:0]     in_ok, out_ok;      // the port holds fewer than cap_i connections
  logic [N*(NVW+1)-1:0] pos;            // position of e in its input port's order

  always_comb begin
    for (int unsigned e = 0; e < N; e++) begin
      logic [KW+1:0] t;
      req[e]  = req_i[e] && (NVW+1)'(e % V) < (NVW+1)'(nvc_i[(e / V)*NVW +: NVW]);
      data[e] = (NVW+1)'(e % V) < (NVW+1)'(ndata_i[(e / V)*NVW +: NVW]);
      op[e]   = req_port_i[e*PW +: PW];
      ov[e]   = req_vc_i[e*VW +: VW];
      // (op - ip - D) mod K, K = ports_i: op + 2K - ip - D lies in [0, 3K).
      t = (KW+2)'(op[e]) + ((KW+2)'(ports_i) << 1) - (KW+2)'(e / V) - (KW+2)'(diag_q);
      if (t >= (KW+2)'(ports_i)) t = t - (KW+2)'(ports_i);
      if (t >= (KW+2)'(ports_i)) t = t - (KW+2)'(ports_i);
      dg[e] = PW'(t);
    end
    for (int unsigned st = 0; st < 2 * P; st++)
      for (int unsigned e = 0; e < N; e++) in_stage[st][e] = {data[e], dg[e]} == SW'(st);
    for (int unsigned o = 0; o < P; o++)
      for (int unsigned e = 0; e < N; e++) to_port[o][e] = op[e] == PW'(o);
    for (int unsigned e = 0; e < N; e++) same_ov[e] = '0;
    for (int unsigned e = 0; e < N; e++)
      for (int unsigned u = 0; u < e; u++) begin  // one comparator per pair
        same_ov[e][u] = op[u] == op[e] && ov[u] == ov[e];
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
    diag_d = (KW'(diag_q) + 1'b1 == ports_i) ? '0 : diag_q + 1'b1;
  end

  always_comb begin
    granted      = '0;
    in_cnt       = in_active_i;
    out_cnt      = out_active_i;
    in_ptr_d     = in_ptr_q;
    grant_pass_o = '0;
    for (int unsigned k = 0; k < ITERS; k++) begin
      // VC level: the requesting VCs, their positions, each cell's head.
      for (int unsigned p = 0; p < P; p++) begin
        in_ok[p]  = in_cnt[p*CW +: CW] < cap_i;
        out_ok[p] = out_cnt[p*CW +: CW] < cap_i;
      end
      for (int unsigned e = 0; e < N; e++)
        elig[e] = IW'(k) < iters_i && req[e] && !granted[e] && in_ok[e / V] && out_ok[op[e]] &&
                  !(|(granted & same_ov[e]));
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
        for (int unsigned v = 0; v < V; v++) begin
          logic first;
          first = elig[ip*V+v];
          for (int unsigned w = 0; w < V; w++)
            if (w != v && elig[ip*V+w] && op[ip*V+w] == op[ip*V+v] &&
                pos[(ip*V+w)*(NVW+1) +: NVW+1] < pos[(ip*V+v)*(NVW+1) +: NVW+1])
              first = 1'b0;
          head[ip*V+v] = first;
        end
      end
      // Port level: the stages in order, a stage's cells at once (at most one per input
      // port and one per output port).
      for (int unsigned st = 0; st < 2 * P; st++) begin
        for (int unsigned e = 0; e < N; e++)
          sg[e] = head[e] && in_stage[st][e] && in_ok[e / V] && out_ok[op[e]] && !(|(granted & same_ov[e]));
        for (int unsigned p = 0; p < P; p++) begin
          logic [VW-1:0] val;
          val = '0;
          for (int unsigned v = 0; v < V; v++)
            if (sg[p*V+v] && moves[p*V+v]) val = val | next_v[(p*V+v)*VW +: VW];
          if (|(sg[p*V +: V] & moves[p*V +: V])) in_ptr_d[p*VW +: VW] = val;
          in_cnt[p*CW +: CW]  = in_cnt[p*CW +: CW] + CW'(|sg[p*V +: V]);
          out_cnt[p*CW +: CW] = out_cnt[p*CW +: CW] + CW'(|(sg & to_port[p]));
          in_ok[p]            = in_cnt[p*CW +: CW] < cap_i;
          out_ok[p]           = out_cnt[p*CW +: CW] < cap_i;
        end
        for (int unsigned e = 0; e < N; e++)
          if (sg[e]) grant_pass_o[e*GW +: GW] = GW'(k);
        granted = granted | sg;
      end
    end
  end

  assign grant_o  = granted;
  assign in_ptr_o = in_ptr_q;
  assign diag_o   = diag_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_ptr_q <= '0;
      diag_q   <= '0;
    end else if (load_i) begin
      in_ptr_q <= load_in_ptr_i;
      diag_q   <= load_diag_i;
    end else begin
      in_ptr_q <= in_ptr_d;
      diag_q   <= diag_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (P >= 2 && P <= (1 << scfly_pkg::AllocPortBits)) else $error("alloc_wavefront: P %0d outside [2, 2^AllocPortBits]", P);
    assert (V >= 1 && V <= (1 << scfly_pkg::AllocVcBits)) else $error("alloc_wavefront: V %0d outside [1, 2^AllocVcBits]", V);
    assert (ITERS >= 1 && CAP_MAX >= 1) else $error("alloc_wavefront: ITERS and CAP_MAX >= 1");
  end
  // Contracts on the inputs and the allocation's properties, checked in every evaluation
  // out of reset: one grant per output VC, no more grants per input (output) port than its
  // connection budget, a grant only to a requesting VC; the registers within their ranges.
  always_comb begin
    logic [NVW-1:0] nv, nd;
    logic [RW-1:0]  gin, gout;
    nv = '0;
    nd = '0;
    gin = '0;
    gout = '0;
    if (rst_ni) begin
      assert (ports_i >= KW'(1)) else $error("alloc_wavefront: no ports");
      assert (cap_i >= CW'(1)) else $error("alloc_wavefront: cap 0");
      assert (iters_i >= IW'(1)) else $error("alloc_wavefront: 0 iterations");
      assert (KW'(diag_q) < ports_i) else $error("alloc_wavefront: diagonal %0d beyond the ports", diag_q);
      if (rr_all_en_i) assert (KW'(rr_all_i) < ports_i) else $error("alloc_wavefront: rr_all port %0d beyond the ports", rr_all_i);
      for (int unsigned ip = 0; ip < P; ip++) begin
        nv  = nvc_i[ip*NVW +: NVW];
        nd  = ndata_i[ip*NVW +: NVW];
        gin = RW'($countones(grant_o[ip*V +: V]));
        gout = '0;
        for (int unsigned e = 0; e < N; e++) gout = gout + RW'(grant_o[e] && op[e] == PW'(ip));
        assert (nd <= nv) else $error("alloc_wavefront: port %0d has %0d VCs, %0d data", ip, nv, nd);
        assert (in_active_i[ip*CW +: CW] <= cap_i && out_active_i[ip*CW +: CW] <= cap_i)
          else $error("alloc_wavefront: port %0d holds more connections than the cap", ip);
        if (KW'(ip) < ports_i) begin
          if (rr_all_en_i && rr_all_i == PW'(ip))
            assert (nv == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nv))
              else $error("alloc_wavefront: input pointer %0d of port %0d beyond its VCs", in_ptr_q[ip*VW +: VW], ip);
          else
            assert (nd == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nd))
              else $error("alloc_wavefront: input pointer %0d of port %0d beyond its data VCs", in_ptr_q[ip*VW +: VW], ip);
        end
        assert (gin == '0 || RW'(in_active_i[ip*CW +: CW]) + gin <= RW'(cap_i))
          else $error("alloc_wavefront: input port %0d granted %0d connections beyond its budget", ip, gin);
        assert (gout == '0 || RW'(out_active_i[ip*CW +: CW]) + gout <= RW'(cap_i))
          else $error("alloc_wavefront: output port %0d granted %0d connections beyond its budget", ip, gout);
      end
      for (int unsigned e = 0; e < N; e++) begin
        if (req_i[e]) begin
          assert (req[e]) else $error("alloc_wavefront: request on VC %0d of port %0d, which has %0d VCs", e % V, e / V, nvc_i[(e / V)*NVW +: NVW]);
          assert (KW'(op[e]) < ports_i) else $error("alloc_wavefront: request to port %0d beyond the ports", op[e]);
          assert ((VW+1)'(ov[e]) < (VW+1)'(V)) else $error("alloc_wavefront: request to VC %0d beyond V", ov[e]);
        end
        if (grant_o[e]) begin
          assert (req[e]) else $error("alloc_wavefront: grant to input VC %0d of port %0d, which did not request", e % V, e / V);
          for (int unsigned u = 0; u < e; u++)
            assert (!(grant_o[u] && op[u] == op[e] && ov[u] == ov[e]))
              else $error("alloc_wavefront: output VC %0d of port %0d granted twice", ov[e], op[e]);
        end
      end
    end
  end
  // Upper bounds of the configuration, where the field can exceed them.
  if ((1 << KW) - 1 > P) begin : g_chk_ports
    always_comb if (rst_ni) assert (32'(ports_i) <= P) else $error("alloc_wavefront: ports %0d beyond P = %0d", ports_i, P);
  end
  if ((1 << CW) - 1 > CAP_MAX) begin : g_chk_cap
    always_comb if (rst_ni) assert (32'(cap_i) <= CAP_MAX) else $error("alloc_wavefront: cap %0d beyond CAP_MAX = %0d", cap_i, CAP_MAX);
  end
  if ((1 << IW) - 1 > ITERS) begin : g_chk_iters
    always_comb if (rst_ni) assert (32'(iters_i) <= ITERS) else $error("alloc_wavefront: iterations %0d beyond ITERS = %0d", iters_i, ITERS);
  end
  if ((1 << NVW) - 1 > V) begin : g_chk_vcs
    always_comb
      if (rst_ni)
        for (int unsigned ip = 0; ip < P; ip++)
          assert (32'(nvc_i[ip*NVW +: NVW]) <= V) else $error("alloc_wavefront: port %0d has %0d VCs, beyond V = %0d", ip, nvc_i[ip*NVW +: NVW], V);
  end
`endif
endmodule
