// Dragonfly minimal route unit dfly(p,a,h,g), palmtree or absolute global-link arrangement:
// one minimal hop toward a target switch, with the hop-slot VC rule. Combinational.
// RTL mirror of dragonfly_minimal_hop() in routing_units/minimal.cpp: Kim et al. ISCA'08;
// ACOR paper sec. 2.3 (palmtree); the absolute arrangement of Hastings et al. 2015 as used
// by T-UGAL (SC'19, sec. 4.1). Wiring as topologies/dragonfly.cpp builds it. Gc is this
// switch's group, Gt the target's; G (parameter) the number of groups.
//   same group:   local port toward the target, VC 2*seg + global_done + shift;
//   other group:  the exit link is the one pinned in the header (exit_*_i), else chosen now:
//     palmtree (ABSOLUTE = 0, G = A*H+1): the group's only link toward Gt,
//                 t = (Gc - Gt - 1) mod G (FOGSim's orientation);
//     absolute (ABSOLUTE = 1, (G-1) divides A*H): of the N = A*H/(G-1) links
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
// Ports: p hosts [0,p), a-1 local [p, p+a-1), h global after (the scfly port map).
// Switch identity: group in [0,G), index in [0,A); exit_index is in the current group.
// Yosys cells: palmtree 2,4,2,9: 106; absolute 2,4,2,5: 337, 4,8,4,9: 631 (check.sh).
module min_route #(
  parameter int unsigned P = 2,
  parameter int unsigned A = 4,
  parameter int unsigned H = 2,
  parameter int unsigned ABSOLUTE = 0,        // 0: palmtree, 1: absolute arrangement
  parameter int unsigned G = A * H + 1,       // groups; palmtree needs A*H+1
  localparam int unsigned GW = $clog2(G),
  localparam int unsigned AW = (A > 1) ? $clog2(A) : 1,
  localparam int unsigned PW = $clog2(P + A - 1 + H)
) (
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
  localparam int unsigned TW = $clog2(A * H);
  logic [AW-1:0] own_index, exit_index, hop_to;
  logic [PW-1:0] own_port, exit_port, local_port;
  logic [2:0]    local_vc;
  logic          same_group, at_exit;

  if (ABSOLUTE == 0) begin : g_palmtree
    // Group's exit link toward the target group: one per group pair, rand_i unused.
    logic [GW:0]   diff;
    logic [TW-1:0] t;
    logic          unused_rand;
    assign unused_rand = ^rand_i;
    assign diff      = {1'b0, cur_group_i} + (GW+1)'(G) - {1'b0, tgt_group_i} - (GW+1)'(1);
    assign t         = TW'((diff >= (GW+1)'(G)) ? diff - (GW+1)'(G) : diff);
    assign own_index = AW'(t / TW'(H));
    assign own_port  = PW'(P + A - 1) + PW'(t % TW'(H));
  end else begin : g_absolute
    localparam int unsigned N  = A * H / (G - 1);       // links per group pair
    localparam int unsigned CW = $clog2(N + 1);         // a count of links, 0..N
    localparam int unsigned HW = (H > 1) ? $clog2(H) : 1;  // a remainder mod H
    localparam int unsigned DW = (GW > HW + 1) ? GW : HW + 1;  // holds jt, jb and H
    // Link numbers split as t = q*H + r: jt (our side) and jb (far side) once, each k's
    // offset k*(G-1) as constants, so owner/landing switch and port need no divider per k.
    logic [GW-1:0] jt, jb;
    logic [AW-1:0] jt_q, jb_q;
    logic [HW-1:0] jt_r, jb_r;
    logic [N*AW-1:0] owner;                               // link k at [k*AW +: AW]
    logic [N*PW-1:0] port;
    logic [N-1:0]    direct, half, best_k, pick_k;
    logic [CW-1:0]   count, nth, seen;

    assign jt   = (tgt_group_i < cur_group_i) ? tgt_group_i : tgt_group_i - GW'(1);
    assign jb   = (cur_group_i < tgt_group_i) ? cur_group_i : cur_group_i - GW'(1);
    assign jt_q = AW'(DW'(jt) / DW'(H));
    assign jt_r = HW'(DW'(jt) % DW'(H));
    assign jb_q = AW'(DW'(jb) / DW'(H));
    assign jb_r = HW'(DW'(jb) % DW'(H));

    for (genvar k = 0; k < N; k++) begin : g_link
      localparam int unsigned OFS_Q = k * (G - 1) / H;  // k*(G-1) = OFS_Q*H + OFS_R
      localparam int unsigned OFS_R = k * (G - 1) % H;
      logic [HW:0]   t_r, t2_r, t_m;                    // remainders before the carry
      logic          t_c, t2_c;                         // ... reaching H: one switch on
      logic [AW-1:0] own, landing;
      logic          own_here, lands_on_target;
      assign t_r      = (HW+1)'(OFS_R) + {1'b0, jt_r};
      assign t2_r     = (HW+1)'(OFS_R) + {1'b0, jb_r};
      assign t_c      = t_r >= (HW+1)'(H);
      assign t2_c     = t2_r >= (HW+1)'(H);
      assign t_m      = t_c ? t_r - (HW+1)'(H) : t_r;
      assign own      = AW'(OFS_Q) + jt_q + AW'(t_c);
      assign landing  = AW'(OFS_Q) + jb_q + AW'(t2_c);
      assign own_here        = own == cur_index_i;
      assign lands_on_target = landing == tgt_index_i;
      assign owner[k*AW +: AW] = own;
      assign port[k*PW +: PW]  = PW'(P + A - 1) + PW'(t_m);
      // Hops via link k: 1 + (owner != this switch) + (landing != target).
      assign direct[k] = own_here && lands_on_target;  // 1 hop
      assign half[k]   = own_here || lands_on_target;  // at most 2 hops
    end

    // The cheapest links, how many, and the nth of them (Rng::below by multiply-shift).
    assign best_k = (|direct) ? direct : ((|half) ? half : '1);
    always_comb begin
      count = '0;
      for (int k = 0; k < N; k++) count = count + CW'(best_k[k]);
    end
    localparam int unsigned TB = scfly_pkg::TieBits;
    assign nth = CW'(({{CW{1'b0}}, rand_i} * {{TB{1'b0}}, count}) >> TB);
    always_comb begin
      seen      = '0;
      own_index = '0;
      own_port  = '0;
      for (int k = 0; k < N; k++) begin
        pick_k[k] = best_k[k] && (seen == nth);
        seen      = seen + CW'(best_k[k]);
        if (pick_k[k]) begin
          own_index = owner[k*AW +: AW];
          own_port  = port[k*PW +: PW];
        end
      end
    end

`ifndef SYNTHESIS
    always_comb begin
      if (!exit_valid_i && cur_group_i != tgt_group_i) begin
        assert (count >= CW'(1) && nth < count) else $error("min_route: no exit link or nth out of range");
        assert ($onehot(pick_k)) else $error("min_route: not exactly one exit link picked");
      end
    end
`endif
  end

  assign local_vc   = {1'b0, segment_i, 1'b0} + {2'b0, global_done_i} + {2'b0, vc_shift_i};
  assign same_group = cur_group_i == tgt_group_i;
  assign exit_index = exit_valid_i ? exit_index_i : own_index;
  assign exit_port  = exit_valid_i ? exit_port_i : own_port;
  assign at_exit    = !same_group && (exit_index == cur_index_i);
  assign hop_to     = same_group ? tgt_index_i : exit_index;
  // Local port of this switch toward switch index hop_to (hop_to != cur_index).
  assign local_port = PW'(P) + ((hop_to < cur_index_i) ? PW'(hop_to) : PW'(hop_to) - PW'(1));

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
  // Elaboration: the arrangement must be buildable (topologies/dragonfly.cpp check_shape).
  if (ABSOLUTE > 1) begin : g_bad_arrangement
    $error("min_route: ABSOLUTE is 0 (palmtree) or 1 (absolute)");
  end
  if (ABSOLUTE == 0 && G != A * H + 1) begin : g_bad_palmtree
    $error("min_route: the palmtree arrangement needs G = A*H+1");
  end
  if (ABSOLUTE == 1 && (G < 2 || (A * H) % (G - 1) != 0)) begin : g_bad_absolute
    $error("min_route: the absolute arrangement needs (G-1) to divide A*H");
  end
  // Invariants on every evaluation (inputs: this switch != the target, ids in range).
  // Compared one bit wider, so a bound that is a power of two stays representable.
  localparam int unsigned FIRST_GLOBAL = P + A - 1, PORTS = P + A - 1 + H;
  logic in_groups, in_indices, pinned_ok, port_ok, exit_ok;
  assign in_groups  = {1'b0, cur_group_i} < (GW+1)'(G) && {1'b0, tgt_group_i} < (GW+1)'(G);
  assign in_indices = {1'b0, cur_index_i} < (AW+1)'(A) && {1'b0, tgt_index_i} < (AW+1)'(A);
  assign pinned_ok  = {1'b0, exit_index_i} < (AW+1)'(A) && {1'b0, exit_port_i} >= (PW+1)'(FIRST_GLOBAL) &&
                      {1'b0, exit_port_i} < (PW+1)'(PORTS);
  assign port_ok    = {1'b0, port_o} >= (PW+1)'(P) && {1'b0, port_o} < (PW+1)'(PORTS);
  assign exit_ok    = {1'b0, exit_index_o} < (AW+1)'(A) && {1'b0, exit_port_o} >= (PW+1)'(FIRST_GLOBAL) &&
                      {1'b0, exit_port_o} < (PW+1)'(PORTS);
  always_comb begin
    assert (in_groups && in_indices) else $error("min_route: switch id out of range");
    assert (!(same_group && tgt_index_i == cur_index_i)) else $error("min_route: routing to itself");
    assert (!exit_valid_i || pinned_ok) else $error("min_route: pinned exit is not a global port of this group");
    // The hop leaves through a local or global port, never a host port, nor toward itself;
    // a global hop on VC seg (0, 1), a local one on 2*seg + global_done + shift (0..4).
    assert (port_ok) else $error("min_route: port out of range");
    assert (at_exit || hop_to != cur_index_i) else $error("min_route: local hop to this switch");
    assert (at_exit ? ({1'b0, port_o} >= (PW+1)'(FIRST_GLOBAL) && vc_o <= 3'd1)
                    : ({1'b0, port_o} < (PW+1)'(FIRST_GLOBAL) && vc_o <= 3'd4))
      else $error("min_route: port class or VC out of the hop-slot rule");
    assert (!exit_valid_o || exit_ok) else $error("min_route: exit link out of range");
  end
`endif
endmodule
