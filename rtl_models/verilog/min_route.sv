// Dragonfly minimal route unit for any dfly(p,a,h,g) within its widths, palmtree or absolute
// global-link arrangement: one minimal hop toward a target switch, with the hop-slot VC rule.
// Combinational but for its shape registers: the shape is not a parameter, it is loaded
// (cfg_*_i with cfg_we_i on a clock edge) once at reset by whoever builds the network (in a
// switch ASIC, configuration registers), with the constants derived from it; so one
// instance serves every shape whose groups, indices, ports and links fit scfly_pkg's Mr*
// widths.
// RTL mirror of dragonfly_minimal_hop() in routing_units/minimal.cpp: Kim, Dally, Scott,
// Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA 2008; the palmtree
// arrangement of Garcia et al., "On-the-Fly Adaptive Routing in High-Radix Hierarchical
// Networks", ICPP 2012, sec. 2.3; the absolute arrangement of Hastings et al., "Comparing
// Global Link Arrangements for Dragonfly Networks", CLUSTER 2015, as T-UGAL (SC 2019,
// sec. 4.1) uses it. Wiring as topologies/dragonfly.cpp builds it. Gc is this switch's
// group, Gt the target's, G the number of groups (cfg_g_i).
//   same group:   local port toward the target, VC 2*seg + global_done + shift;
//   other group:  the exit link is the one pinned in the header (exit_*_i), else chosen now:
//     palmtree (G = A*H+1): the group's only link toward Gt, t = (Gc - Gt - 1) mod G
//                 (FOGSim's orientation);
//     absolute ((G-1) divides A*H): of the N = A*H/(G-1) links
//                 t_k = k*(G-1) + jt, k = 0..N-1, jt = (Gt < Gc ? Gt : Gt-1), landing on
//                 link t2_k = k*(G-1) + (Gc < Gt ? Gc : Gc-1) of group Gt, those with the
//                 fewest hops 1 + (owner t_k/H != this switch) + (landing t2_k/H != target);
//                 of these `count` links, the nth in k order, nth = (rand_i * count) >> 32:
//                 Rng::below (topologies/common/rng.h) on the word the caller drew, as choose_exit does.
//                 rand_i is a don't-care when an exit is pinned, Gt = Gc or N = 1;
//                 link t is owned by switch index t / H, on global port P + A - 1 + t mod H;
//                 at the exit's owner take it (VC seg, global_done := 1, exit cleared), else a
//                 local hop toward the owner (VC 2*seg + global_done + shift), the exit
//                 pinned in the header (exit_*_o) for the next switch.
// The k-th link's offset k*(G-1) is kept as quotient and remainder by H, computed when the
// shape is loaded, so a route divides by H only for jt and jb (absolute) or t (palmtree).
// Ports: p hosts [0,p), a-1 local [p, p+a-1), h global after (the scfly port map).
// Switch identity: group in [0,G), index in [0,A); exit_index is in the current group.
// Yosys cells at scfly_pkg's widths: see docs/model.md (check.sh prints them).
module min_route #(
  localparam int unsigned GW = scfly_pkg::MrGroupBits,
  localparam int unsigned AW = scfly_pkg::MrIndexBits,
  localparam int unsigned PW = scfly_pkg::MrPortBits,
  localparam int unsigned LM = scfly_pkg::MrLinksMax
) (
  // Shape registers, loaded on a clock edge with cfg_we_i (at reset; constant while the
  // network runs), with the constants the route logic derives from them.
  input  logic          clk_i,
  input  logic          cfg_we_i,
  input  logic [PW-1:0] cfg_p_i,         // hosts per switch
  input  logic [AW-1:0] cfg_a_i,         // switches per group
  input  logic [PW-1:0] cfg_h_i,         // global ports per switch
  input  logic [GW-1:0] cfg_g_i,         // groups
  input  logic          cfg_absolute_i,  // 0: palmtree, 1: absolute arrangement
  input  logic [GW-1:0] cur_group_i,
  input  logic [AW-1:0] cur_index_i,
  input  logic [GW-1:0] tgt_group_i,
  input  logic [AW-1:0] tgt_index_i,
  input  logic          segment_i,
  input  logic          global_done_i,
  input  logic          vc_shift_i,
  input  logic          exit_valid_i,    // an exit link is already pinned in the header
  input  logic [AW-1:0] exit_index_i,    // ... owned by this switch index of the group
  input  logic [PW-1:0] exit_port_i,     // ... on this global port
  input  logic [scfly_pkg::TieBits-1:0] rand_i,  // tie-break word among equally short exit links
  output logic [PW-1:0] port_o,
  output logic [2:0]    vc_o,
  output logic          global_done_o,
  output logic          exit_valid_o,
  output logic [AW-1:0] exit_index_o,
  output logic [PW-1:0] exit_port_o
);
  localparam int unsigned CW = $clog2(LM + 1);  // a count of links, 0..LM
  localparam int unsigned TB = scfly_pkg::TieBits;
  // Link numbers t < A*H: A*H <= (G-1)*LM in the absolute arrangement, G-1 in the palmtree.
  localparam int unsigned XW = GW + CW;

  // --- Shape registers and their constants (computed once, when loaded) ---
  logic [PW-1:0] p_q, h_q, first_global_q;  // first_global: P + A - 1
  logic [AW-1:0] a_q;
  logic [GW-1:0] g_q;
  logic          absolute_q;
  logic [LM-1:0] valid_q;                   // link k < N = A*H/(G-1) exists (absolute)
  logic [AW:0]   oq_q [LM];                 // k*(G-1) / H
  logic [PW-1:0] or_q [LM];                 // k*(G-1) mod H
  logic [GW-1:0] gm1;
  logic [XW-1:0] links_in_group, n_links;
  logic [AW:0]   step_q;                    // (G-1) / H (< A when a second link exists)
  logic [PW-1:0] step_r;                    // (G-1) mod H
  logic [AW:0]   oq_d [LM];
  logic [PW-1:0] or_d [LM];
  assign gm1            = cfg_g_i - GW'(1);
  assign links_in_group = XW'(cfg_a_i) * XW'(cfg_h_i);
  assign n_links        = links_in_group / XW'(gm1);
  assign step_q         = (AW+1)'(XW'(gm1) / XW'(cfg_h_i));
  assign step_r         = PW'(XW'(gm1) % XW'(cfg_h_i));
  // Offsets k*(G-1) as quotient and remainder by H, stepped by (G-1)'s.
  always_comb begin
    logic [PW:0] r;
    oq_d[0] = '0;
    or_d[0] = '0;
    for (int k = 1; k < LM; k++) begin
      r = {1'b0, or_d[k-1]} + {1'b0, step_r};
      if (r >= {1'b0, cfg_h_i}) begin
        or_d[k] = PW'(r - {1'b0, cfg_h_i});
        oq_d[k] = oq_d[k-1] + step_q + (AW+1)'(1);
      end else begin
        or_d[k] = PW'(r);
        oq_d[k] = oq_d[k-1] + step_q;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (cfg_we_i) begin
      p_q            <= cfg_p_i;
      a_q            <= cfg_a_i;
      h_q            <= cfg_h_i;
      g_q            <= cfg_g_i;
      absolute_q     <= cfg_absolute_i;
      first_global_q <= cfg_p_i + PW'(cfg_a_i) - PW'(1);
      for (int k = 0; k < LM; k++) begin
        valid_q[k] <= XW'(k) < n_links;
        oq_q[k]    <= oq_d[k];
        or_q[k]    <= or_d[k];
      end
    end
  end

  // --- Route logic ---
  logic [AW-1:0] own_index, exit_index, hop_to;
  logic [PW-1:0] own_port, exit_port, local_port;
  logic [2:0]    local_vc;
  logic          same_group, at_exit;

  // Palmtree: the group's one link toward Gt, rand_i unused.
  logic [GW:0]   diff;
  logic [GW-1:0] t_palm;
  logic [AW-1:0] palm_index;
  logic [PW-1:0] palm_port;
  assign diff       = {1'b0, cur_group_i} + {1'b0, g_q} - {1'b0, tgt_group_i} - (GW+1)'(1);
  assign t_palm     = GW'((diff >= {1'b0, g_q}) ? diff - {1'b0, g_q} : diff);
  assign palm_index = AW'(XW'(t_palm) / XW'(h_q));
  assign palm_port  = first_global_q + PW'(XW'(t_palm) % XW'(h_q));

  // Absolute: link k = k*(G-1) + jt, with jt = jt_q*H + jt_r (our side), jb likewise (the
  // far side). Evaluated only for the absolute arrangement.
  logic [GW-1:0] jt, jb;
  logic [AW:0]   jt_q, jb_q;
  logic [PW-1:0] jt_r, jb_r;
  logic [LM-1:0] direct, half, best_k, pick_k;
  logic [AW-1:0] owner [LM];
  logic [PW-1:0] port [LM];
  logic [CW-1:0] count, nth, seen;
  logic [AW-1:0] abs_index;
  logic [PW-1:0] abs_port;
  assign jt   = (tgt_group_i < cur_group_i) ? tgt_group_i : tgt_group_i - GW'(1);
  assign jb   = (cur_group_i < tgt_group_i) ? cur_group_i : cur_group_i - GW'(1);
  always_comb begin
    logic [PW:0] t_r, t2_r;  // remainders before the carry (reaching H: one switch on)
    logic [AW:0] own, landing;
    jt_q    = '0;
    jt_r    = '0;
    jb_q    = '0;
    jb_r    = '0;
    if (absolute_q) begin
      jt_q = (AW+1)'(XW'(jt) / XW'(h_q));
      jt_r = PW'(XW'(jt) % XW'(h_q));
      jb_q = (AW+1)'(XW'(jb) / XW'(h_q));
      jb_r = PW'(XW'(jb) % XW'(h_q));
    end
    direct  = '0;
    half    = '0;
    t_r     = '0;
    t2_r    = '0;
    own     = '0;
    landing = '0;
    for (int k = 0; k < LM; k++) begin
      owner[k] = '0;
      port[k]  = '0;
      if (absolute_q && valid_q[k]) begin
        t_r      = {1'b0, or_q[k]} + {1'b0, jt_r};
        t2_r     = {1'b0, or_q[k]} + {1'b0, jb_r};
        own      = oq_q[k] + jt_q + (AW+1)'(t_r >= {1'b0, h_q});
        landing  = oq_q[k] + jb_q + (AW+1)'(t2_r >= {1'b0, h_q});
        owner[k] = AW'(own);
        port[k]  = first_global_q + PW'((t_r >= {1'b0, h_q}) ? t_r - {1'b0, h_q} : t_r);
        // Hops via link k: 1 + (owner != this switch) + (landing != target).
        direct[k] = own == {1'b0, cur_index_i} && landing == {1'b0, tgt_index_i};  // 1 hop
        half[k]   = own == {1'b0, cur_index_i} || landing == {1'b0, tgt_index_i};  // <= 2 hops
      end
    end
  end

  // The cheapest links, how many, and the nth of them (Rng::below by multiply-shift).
  assign best_k = (|direct) ? direct : ((|half) ? half : (absolute_q ? valid_q : '0));
  always_comb begin
    count = '0;
    for (int k = 0; k < LM; k++) count = count + CW'(best_k[k]);
  end
  assign nth = CW'(({{CW{1'b0}}, rand_i} * {{TB{1'b0}}, count}) >> TB);
  always_comb begin
    seen      = '0;
    abs_index = '0;
    abs_port  = '0;
    for (int k = 0; k < LM; k++) begin
      pick_k[k] = best_k[k] && (seen == nth);
      seen      = seen + CW'(best_k[k]);
      if (pick_k[k]) begin
        abs_index = owner[k];
        abs_port  = port[k];
      end
    end
  end

  assign own_index  = absolute_q ? abs_index : palm_index;
  assign own_port   = absolute_q ? abs_port : palm_port;
  assign local_vc   = {1'b0, segment_i, 1'b0} + {2'b0, global_done_i} + {2'b0, vc_shift_i};
  assign same_group = cur_group_i == tgt_group_i;
  assign exit_index = exit_valid_i ? exit_index_i : own_index;
  assign exit_port  = exit_valid_i ? exit_port_i : own_port;
  assign at_exit    = !same_group && (exit_index == cur_index_i);
  assign hop_to     = same_group ? tgt_index_i : exit_index;
  // Local port of this switch toward switch index hop_to (hop_to != cur_index).
  assign local_port = p_q + ((hop_to < cur_index_i) ? PW'(hop_to) : PW'(hop_to) - PW'(1));

  always_comb begin
    port_o        = local_port;
    vc_o          = local_vc;
    global_done_o = global_done_i;
    exit_valid_o  = exit_valid_i;
    exit_index_o  = exit_index_i;
    exit_port_o   = exit_port_i;
    if (!same_group) begin
      exit_valid_o = 1'b1;  // chosen now, or kept as pinned
      exit_index_o = exit_index;
      exit_port_o  = exit_port;
    end
    if (at_exit) begin
      port_o        = exit_port;
      vc_o          = {2'b0, segment_i};
      global_done_o = 1'b1;
      exit_valid_o  = 1'b0;
      exit_index_o  = '0;
      exit_port_o   = '0;
    end
  end

`ifndef SYNTHESIS
  // Invariants. The shape loaded must be buildable within the widths
  // (topologies/dragonfly.cpp check_shape; rtl_min_route_supports in C++); on every
  // evaluation, the inputs: this switch != the target, ids in range. Compared one bit
  // wider, so a bound that is a power of two stays representable.
  logic [PW:0] ports_d, ports;
  logic shape_ok, in_groups, in_indices, pinned_ok, port_ok, exit_ok;
  assign ports_d    = {1'b0, cfg_p_i} + (PW+1)'(cfg_a_i) - (PW+1)'(1) + {1'b0, cfg_h_i};
  assign shape_ok   = cfg_p_i >= PW'(1) && cfg_a_i >= AW'(1) && cfg_h_i >= PW'(1) && cfg_g_i >= GW'(2) &&
                      ports_d <= (PW+1)'((1 << PW) - 1) &&
                      (cfg_absolute_i ? (links_in_group % XW'(gm1) == '0 && n_links <= XW'(LM))
                                      : links_in_group == XW'(gm1));
  always_ff @(posedge clk_i) begin
    if (cfg_we_i) assert (shape_ok) else $error("min_route: the shape registers hold no buildable shape within the widths");
  end
  assign ports      = {1'b0, first_global_q} + {1'b0, h_q};
  assign in_groups  = cur_group_i < g_q && tgt_group_i < g_q;
  assign in_indices = cur_index_i < a_q && tgt_index_i < a_q;
  assign pinned_ok  = exit_index_i < a_q && exit_port_i >= first_global_q && {1'b0, exit_port_i} < ports;
  assign port_ok    = port_o >= p_q && {1'b0, port_o} < ports;
  assign exit_ok    = exit_index_o < a_q && exit_port_o >= first_global_q && {1'b0, exit_port_o} < ports;
  always_comb begin
    if (!cfg_we_i) begin  // not while loading the shape
      assert (in_groups && in_indices) else $error("min_route: switch id out of range");
      assert (!(same_group && tgt_index_i == cur_index_i)) else $error("min_route: routing to itself");
      assert (!exit_valid_i || pinned_ok) else $error("min_route: pinned exit is not a global port of this group");
      if (absolute_q && !exit_valid_i && !same_group) begin
        assert (count >= CW'(1) && nth < count) else $error("min_route: no exit link or nth out of range");
        assert ($onehot(pick_k)) else $error("min_route: not exactly one exit link picked");
      end
      // The hop leaves through a local or global port, never a host port, nor toward itself;
      // a global hop on VC seg (0, 1), a local one on 2*seg + global_done + shift (0..4).
      assert (port_ok) else $error("min_route: port out of range");
      assert (at_exit || hop_to != cur_index_i) else $error("min_route: local hop to this switch");
      assert (at_exit ? (port_o >= first_global_q && vc_o <= 3'd1) : (port_o < first_global_q && vc_o <= 3'd4))
        else $error("min_route: port class or VC out of the hop-slot rule");
      assert (!exit_valid_o || exit_ok) else $error("min_route: exit link out of range");
    end
  end
`endif
endmodule
