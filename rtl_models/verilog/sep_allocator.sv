// The switch's separable input-first allocator with round-robin arbiters: RTL twin of
// SeparableAllocator (rtl_models/switch/parts/allocator.h, whose header states the rule),
// compared with it in lockstep, grants and pointer state every cycle, exhaustively at radix
// 4 with 2 VCs and on random request matrices at radix 16 with 4 VCs
// (tests/test_rtl_allocator.cpp).
//
// Micro-architecture: all ITERS request-grant passes are unrolled into one combinational
// cycle (pass k + 1 sees the grants, connection counts and pointers pass k left, as the C++
// part's later passes do); iters_i <= ITERS of them are enabled. The round-robin pointers
// are the only registers: the last enabled pass's pointers are written at the clock edge
// (or load_i's values, the C++ part's set_pointers; reset: 0). One clock edge is one switch
// cycle. Its logic depth grows with ITERS; a pipelined or one-pass-per-clock variant would
// trade that for cycles and is not built.
// Not modelled (the switch's, not the allocator's): a later pass choosing another
// candidate of a head whose first free output VC was taken by an earlier pass (the RTL
// takes one output VC per request), and a shared output buffer's room shrinking with the
// grants of a pass.
//
// Where the C++ part calls the switch's `want`/`grant`, the RTL takes that state as inputs:
// per input VC e = ip * V + v a request req_i[e] for one output VC (req_port_i, req_vc_i:
// the switch's first free candidate) with its head's age (req_age_i, the injection cycle
// saturated at 2^AllocAgeBits - 1 by the caller); per port the connections it holds
// (in_active_i as input, out_active_i as output). An input VC requests in a pass if it has
// not been granted, its output port holds fewer than cap_i connections and its output VC
// has not been granted this cycle; an output grants its requests in order while it holds
// fewer than cap_i connections and the output VC is not taken (the C++ tests' harness).
//
// One pass, for every entry at once:
//  1. Input stage: an input port with budget b = cap - connections held offers its first b
//     requesting VCs in the order: control VCs (v >= ndata) by index, then the data VCs
//     round-robin from its pointer (the rr_all port: every VC round-robin). Position of a
//     VC in that order, then rank = requesting VCs of the port at earlier positions.
//  2. Output stage: requests u before e at the same output port iff the key
//     (data, injection & transit, age, round-robin distance of the input port from the
//     output's pointer, input VC) of u is smaller. The static part (data, injection, age)
//     is compared once per cycle for every pair (only pairs u < e are built, the other half
//     mirrored); the distance order of two input ports a, b from pointer p is a < b when
//     both are >= p or both < p, else the one >= p first. The first request of each output
//     VC in that order (its VC winner) is the only one that can get it; the VC winners are
//     granted in order while the port has room: a VC winner is granted iff fewer than
//     cap - connections VC winners precede it.
//  3. Pointers: an output's pointer moves to ip + 1 (mod ports_i) of its last grant in key
//     order; an input's past the VC of its last pointer-moving grant in the C++ part's
//     order (output port, then key): a data VC modulo ndata, the rr_all port's other VCs
//     modulo its VCs, a control VC none.
// Widths: P ports of at most 2^AllocPortBits, V VCs of at most 2^AllocVcBits, ages
// AllocAgeBits (scfly_pkg); ports_i <= P and the per-port VC counts are inputs, so one
// instance serves every switch up to its size. AGE = 0 builds no age comparators
// (age_prio_i must then be 0).
module sep_allocator #(
  parameter int unsigned P       = 4,     // ports (max; ports_i of them in use)
  parameter int unsigned V       = 2,     // VCs per port (max; nvc_i per port)
  parameter int unsigned ITERS   = 2,     // passes built (iters_i of them run)
  parameter int unsigned CAP_MAX = 2,     // connections per port (max of cap_i)
  parameter bit          AGE     = 1'b1,  // age comparators built
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
  localparam int unsigned AB  = scfly_pkg::AllocAgeBits,
  localparam int unsigned SKW = AB + 2                // static key: data, injection, age
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Configuration (the C++ AllocatorConfig), held while running.
  input  logic [KW-1:0]    ports_i,          // inputs (1..P)
  input  logic [CW-1:0]    cap_i,            // conn_cap (1..CAP_MAX)
  input  logic [IW-1:0]    iters_i,          // iterations (1..ITERS)
  input  logic             transit_prio_i,
  input  logic             age_prio_i,
  input  logic [P*NVW-1:0] nvc_i,            // vcs of port ip at [ip*NVW +: NVW]
  input  logic [P*NVW-1:0] ndata_i,          // data_vcs
  input  logic [P-1:0]     inj_i,            // injection
  input  logic             rr_all_en_i,      // rr_all >= 0
  input  logic [PW-1:0]    rr_all_i,
  // This cycle's requests, entry e = ip*V + v.
  input  logic [N-1:0]     req_i,
  input  logic [N*PW-1:0]  req_port_i,
  input  logic [N*VW-1:0]  req_vc_i,
  input  logic [N*AB-1:0]  req_age_i,
  input  logic [P*CW-1:0]  in_active_i,      // connections input port ip holds
  input  logic [P*CW-1:0]  out_active_i,     // connections output port op holds
  // Pointer load at the clock edge (set_pointers).
  input  logic             load_i,
  input  logic [P*VW-1:0]  load_in_ptr_i,
  input  logic [P*PW-1:0]  load_out_ptr_i,
  // Grants of this cycle and the pass (0-based) of each; the pointer registers.
  output logic [N-1:0]     grant_o,
  output logic [N*GW-1:0]  grant_pass_o,
  output logic [P*VW-1:0]  in_ptr_o,
  output logic [P*PW-1:0]  out_ptr_o
);
  // Per cycle: the requests on existing VCs and the static key order of every pair.
  logic [N-1:0]     req;
  // Per-entry rows (one machine word each in the Verilated model at N <= 64); the
  // reductions are AND-OR and popcounts over them.
  logic [SKW-1:0]   sk [N];
  logic [N-1:0]     lt_s [N];           // [e][u]: static key of u < that of e
  logic [N-1:0]     eq_s [N];
  logic [N-1:0]     same_op [N];        // [e][u]: u and e ask for the same output port
  logic [N-1:0]     same_ov [N];        // ... the same output VC
  logic [N-1:0]     op_gt [N];          // [e][u]: u and e of one input port, u's output > e's
  logic [PW-1:0]    op [N];
  logic [VW-1:0]    ov [N];
  logic [N*VW-1:0]  next_v;             // e's input pointer after a grant to e
  logic [N*PW-1:0]  next_o;             // an output's pointer after a grant to e
  logic [N-1:0]     moves;              // a grant to e moves its input pointer
  // The registers and the state the passes carry (what the last one left: *_d).
  logic [P*VW-1:0]  in_ptr_q, in_ptr_d;
  logic [P*PW-1:0]  out_ptr_q, out_ptr_d;
  logic [N-1:0]     granted;
  logic [TW-1:0]    taken;
  logic [P*CW-1:0]  in_cnt, out_cnt;
  // One pass.
  logic [N-1:0]     elig, rq, vcw, grant, out_last, in_last, ge;
  logic [N*(NVW+1)-1:0] pos;            // position of e in its input port's order
  logic [N*CW-1:0]  room;               // cap - connections of e's output port
  logic [N-1:0]     prec [N];           // [e][u]: request u precedes request e

  always_comb begin
    for (int unsigned e = 0; e < N; e++) begin
      logic data;
      data   = (NVW+1)'(e % V) < (NVW+1)'(ndata_i[(e / V)*NVW +: NVW]);
      req[e] = req_i[e] && (NVW+1)'(e % V) < (NVW+1)'(nvc_i[(e / V)*NVW +: NVW]);
      sk[e] = {data, inj_i[e / V] & transit_prio_i, (AGE && age_prio_i) ? req_age_i[e*AB +: AB] : AB'(0)};
      op[e]   = req_port_i[e*PW +: PW];
      ov[e]   = req_vc_i[e*VW +: VW];
      next_o[e*PW +: PW] = (KW'(e / V + 1) == ports_i) ? '0 : PW'(e / V + 1);
    end
    for (int unsigned e = 0; e < N; e++) begin
      lt_s[e]    = '0;
      eq_s[e]    = '0;
      same_op[e] = '0;
      same_ov[e] = '0;
      op_gt[e]   = '0;
    end
    for (int unsigned e = 0; e < N; e++)
      for (int unsigned u = 0; u < e; u++) begin  // one comparator per pair
        lt_s[e][u]    = sk[u] < sk[e];
        eq_s[e][u]    = sk[u] == sk[e];
        lt_s[u][e]    = !lt_s[e][u] && !eq_s[e][u];
        eq_s[u][e]    = eq_s[e][u];
        same_op[e][u] = op[u] == op[e];
        same_op[u][e] = same_op[e][u];
        same_ov[e][u] = same_op[e][u] && ov[u] == ov[e];
        same_ov[u][e] = same_ov[e][u];
        if (u / V == e / V) begin
          op_gt[e][u] = op[u] > op[e];
          op_gt[u][e] = op[e] > op[u];
        end
      end
    for (int unsigned ip = 0; ip < P; ip++) begin
      logic [NVW:0] nv, nd;
      logic         rr;
      nv = (NVW+1)'(nvc_i[ip*NVW +: NVW]);
      nd = (NVW+1)'(ndata_i[ip*NVW +: NVW]);
      rr = rr_all_en_i && rr_all_i == PW'(ip);
      for (int unsigned v = 0; v < V; v++) begin
        // The pointer after a grant to this VC (used only if it moves one).
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
    out_ptr_d    = out_ptr_q;
    grant_pass_o = '0;
    for (int unsigned k = 0; k < ITERS; k++) begin
      // Input stage: which VCs request, up to each input port's budget.
      for (int unsigned e = 0; e < N; e++) begin
        logic [CW-1:0] held;
        held             = out_cnt[op[e]*CW +: CW];
        room[e*CW +: CW] = (held < cap_i) ? cap_i - held : '0;
        ge[e]            = PW'(e / V) >= out_ptr_d[op[e]*PW +: PW];
        elig[e]          = IW'(k) < iters_i && req[e] && !granted[e] && room[e*CW +: CW] != '0 && !taken[{op[e], ov[e]}];
      end
      for (int unsigned ip = 0; ip < P; ip++) begin
        logic [NVW:0]  nv, nd, ptr;
        logic          rr;
        logic [CW-1:0] held, budget;
        nv     = (NVW+1)'(nvc_i[ip*NVW +: NVW]);
        nd     = (NVW+1)'(ndata_i[ip*NVW +: NVW]);
        ptr    = (NVW+1)'(in_ptr_d[ip*VW +: VW]);
        rr     = rr_all_en_i && rr_all_i == PW'(ip);
        held   = in_cnt[ip*CW +: CW];
        budget = (held < cap_i) ? cap_i - held : '0;
        for (int unsigned v = 0; v < V; v++) begin
          logic [NVW:0] vv;
          vv = (NVW+1)'(v);
          if (rr)            pos[(ip*V+v)*(NVW+1) +: NVW+1] = (vv >= ptr) ? vv - ptr : vv + nv - ptr;
          else if (vv >= nd) pos[(ip*V+v)*(NVW+1) +: NVW+1] = vv - nd;
          else               pos[(ip*V+v)*(NVW+1) +: NVW+1] = nv - nd + ((vv >= ptr) ? vv - ptr : vv + nd - ptr);
        end
        for (int unsigned v = 0; v < V; v++) begin
          logic [V-1:0] earlier;
          for (int unsigned w = 0; w < V; w++)
            earlier[w] = w != v && pos[(ip*V+w)*(NVW+1) +: NVW+1] < pos[(ip*V+v)*(NVW+1) +: NVW+1];
          rq[ip*V+v] = elig[ip*V+v] && RW'($countones(elig[ip*V +: V] & earlier)) < RW'(budget);
        end
      end
      // Output stage: the order among requests at one output port, each output VC's first
      // request (its VC winner), and the first `room` VC winners.
      // Row e of the order: u precedes e at e's output port iff its static key is smaller,
      // or equal and its round-robin distance smaller (u < e: same side of the pointer as
      // e and a lower index, or u at or past the pointer and e before it).
      for (int unsigned e = 0; e < N; e++) begin
        logic [N-1:0] lower, dist_first;
        lower      = (N'(1) << e) - N'(1);
        dist_first = ge[e] ? (ge & lower) : (ge | lower);
        prec[e]    = rq[e] ? (rq & same_op[e] & (lt_s[e] | (eq_s[e] & dist_first))) : '0;
      end
      for (int unsigned e = 0; e < N; e++) vcw[e] = rq[e] && !(|(prec[e] & same_ov[e]));
      for (int unsigned e = 0; e < N; e++)
        grant[e] = vcw[e] && RW'($countones(vcw & prec[e])) < RW'(room[e*CW +: CW]);
      // Pointers: an output's last grant in its order (every other grant there precedes
      // it); an input's last pointer-moving grant in (output port, order).
      for (int unsigned e = 0; e < N; e++) begin
        out_last[e] = grant[e] && $countones(grant & prec[e]) == $countones(grant & same_op[e]);
        in_last[e]  = grant[e] && moves[e] &&
                      !(|(grant[(e / V)*V +: V] & moves[(e / V)*V +: V] &
                          (op_gt[e][(e / V)*V +: V] | (same_op[e][(e / V)*V +: V] & ~prec[e][(e / V)*V +: V]))));
      end
      for (int unsigned e = 0; e < N; e++) begin
        if (out_last[e]) out_ptr_d[op[e]*PW +: PW] = next_o[e*PW +: PW];
        if (grant[e]) begin
          out_cnt[op[e]*CW +: CW] = out_cnt[op[e]*CW +: CW] + 1'b1;
          taken[{op[e], ov[e]}]   = 1'b1;
        end
      end
      for (int unsigned ip = 0; ip < P; ip++) begin
        logic [VW-1:0] val;
        val = '0;
        for (int unsigned v = 0; v < V; v++)
          if (in_last[ip*V+v]) val = val | next_v[(ip*V+v)*VW +: VW];
        if (|in_last[ip*V +: V]) in_ptr_d[ip*VW +: VW] = val;
        in_cnt[ip*CW +: CW] = in_cnt[ip*CW +: CW] + CW'($countones(grant[ip*V +: V]));
      end
      for (int unsigned e = 0; e < N; e++)
        if (grant[e]) grant_pass_o[e*GW +: GW] = GW'(k);
      granted = granted | grant;
    end
  end



  assign grant_o   = granted;
  assign in_ptr_o  = in_ptr_q;
  assign out_ptr_o = out_ptr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_ptr_q  <= '0;
      out_ptr_q <= '0;
    end else if (load_i) begin
      in_ptr_q  <= load_in_ptr_i;
      out_ptr_q <= load_out_ptr_i;
    end else begin
      in_ptr_q  <= in_ptr_d;
      out_ptr_q <= out_ptr_d;
    end
  end

  // The ages are read only with age comparators built.
  logic unused_age;
  assign unused_age = AGE ? 1'b0 : ^req_age_i;

`ifndef SYNTHESIS
  initial begin
    assert (P >= 2 && P <= (1 << scfly_pkg::AllocPortBits)) else $error("sep_allocator: P %0d outside [2, 2^AllocPortBits]", P);
    assert (V >= 1 && V <= (1 << scfly_pkg::AllocVcBits)) else $error("sep_allocator: V %0d outside [1, 2^AllocVcBits]", V);
    assert (ITERS >= 1 && CAP_MAX >= 1) else $error("sep_allocator: ITERS and CAP_MAX >= 1");
  end
  // Contracts on the inputs and the allocation's properties, checked in every evaluation
  // out of reset: one grant per output VC, no more grants per input (output) port than its
  // connection budget, a grant only to a requesting VC; the pointers within their ranges.
  always_comb begin
    logic [NVW-1:0] nv, nd;
    logic [RW-1:0]  gin, gout;
    gout = '0;
    for (int unsigned ip = 0; ip < P; ip++) begin
      nv   = nvc_i[ip*NVW +: NVW];
      nd   = ndata_i[ip*NVW +: NVW];
      gin  = RW'($countones(grant_o[ip*V +: V]));
      if (rst_ni) begin
        assert (nd <= nv) else $error("sep_allocator: port %0d has %0d VCs, %0d data", ip, nv, nd);
        assert (in_active_i[ip*CW +: CW] <= cap_i && out_active_i[ip*CW +: CW] <= cap_i)
          else $error("sep_allocator: port %0d holds more connections than the cap", ip);
        if (KW'(ip) < ports_i) begin
          assert (KW'(out_ptr_q[ip*PW +: PW]) < ports_i)
            else $error("sep_allocator: output pointer %0d of port %0d beyond the ports", out_ptr_q[ip*PW +: PW], ip);
          if (rr_all_en_i && rr_all_i == PW'(ip))
            assert (nv == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nv))
              else $error("sep_allocator: input pointer %0d of port %0d beyond its VCs", in_ptr_q[ip*VW +: VW], ip);
          else
            assert (nd == '0 || (NVW+1)'(in_ptr_q[ip*VW +: VW]) < (NVW+1)'(nd))
              else $error("sep_allocator: input pointer %0d of port %0d beyond its data VCs", in_ptr_q[ip*VW +: VW], ip);
        end
        assert (gin == '0 || RW'(in_active_i[ip*CW +: CW]) + gin <= RW'(cap_i))
          else $error("sep_allocator: input port %0d granted %0d connections beyond its budget", ip, gin);
      end
    end
    if (rst_ni) begin
      assert (ports_i >= KW'(1)) else $error("sep_allocator: no ports");
      assert (cap_i >= CW'(1)) else $error("sep_allocator: cap 0");
      assert (iters_i >= IW'(1)) else $error("sep_allocator: 0 iterations");
      assert (AGE || !age_prio_i) else $error("sep_allocator: age priority without age comparators (AGE = 0)");
      if (rr_all_en_i) assert (KW'(rr_all_i) < ports_i) else $error("sep_allocator: rr_all port %0d beyond the ports", rr_all_i);
      for (int unsigned e = 0; e < N; e++) begin
        if (req_i[e]) begin
          assert (req[e]) else $error("sep_allocator: request on VC %0d of port %0d, which has %0d VCs", e % V, e / V, nvc_i[(e / V)*NVW +: NVW]);
          assert (KW'(op[e]) < ports_i) else $error("sep_allocator: request to port %0d beyond the ports", op[e]);
          assert ((VW+1)'(ov[e]) < (VW+1)'(V)) else $error("sep_allocator: request to VC %0d beyond V", ov[e]);
        end
        if (grant_o[e]) assert (req[e]) else $error("sep_allocator: grant to input VC %0d of port %0d, which did not request", e % V, e / V);
        gout = RW'($countones(grant_o & same_op[e])) + 1'b1;  // grants at e's output port
        if (grant_o[e])
          assert (RW'(out_active_i[op[e]*CW +: CW]) + gout <= RW'(cap_i))
            else $error("sep_allocator: output port %0d granted %0d connections beyond its budget", op[e], gout);
        if (grant_o[e])
          assert (!(|(grant_o & same_ov[e]))) else $error("sep_allocator: output VC %0d of port %0d granted twice", ov[e], op[e]);
      end
    end
  end
  // Upper bounds of the configuration, where the field can exceed them.
  if ((1 << KW) - 1 > P) begin : g_chk_ports
    always_comb if (rst_ni) assert (32'(ports_i) <= P) else $error("sep_allocator: ports %0d beyond P = %0d", ports_i, P);
  end
  if ((1 << CW) - 1 > CAP_MAX) begin : g_chk_cap
    always_comb if (rst_ni) assert (32'(cap_i) <= CAP_MAX) else $error("sep_allocator: cap %0d beyond CAP_MAX = %0d", cap_i, CAP_MAX);
  end
  if ((1 << IW) - 1 > ITERS) begin : g_chk_iters
    always_comb if (rst_ni) assert (32'(iters_i) <= ITERS) else $error("sep_allocator: iterations %0d beyond ITERS = %0d", iters_i, ITERS);
  end
  if ((1 << NVW) - 1 > V) begin : g_chk_vcs
    always_comb
      if (rst_ni)
        for (int unsigned ip = 0; ip < P; ip++)
          assert (32'(nvc_i[ip*NVW +: NVW]) <= V) else $error("sep_allocator: port %0d has %0d VCs, beyond V = %0d", ip, nvc_i[ip*NVW +: NVW], V);
  end
`endif
endmodule
