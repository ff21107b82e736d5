// The conditional forwarding table of a switch: a match/priority table with equal-cost sets
// and per-port probability conditions, one lookup per evaluation (single-cycle,
// combinational). Paper: Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive Routing Based
// on Explicit Congestion Notifications" (Concurrency and Computation: Practice and
// Experience, 2019), sec. 2.2 and 3.1.1 (Fig. 3). RTL mirror of
// ForwardingTable::lookup (routing_units/forwarding_table.h), compared with it in lockstep
// (tests/test_rtl_table.cpp) and co-simulated in every switch with `--rtl table`.
//
// Entries are written through a write port at reset (the C++ builder's contents) in lookup
// order — descending priority, insertion order among equals — so an entry's position is its
// priority, as in a TCAM. An alternative is a plain entry or an equal-cost set: its first
// entry carries first = 1, the member count, the tie-draw policy and the condition; its
// members follow it. Match fields, each with a wildcard bit: destination switch and group
// (only a valid destination matches a non-wildcard one), destination host, input port,
// input-port class (host/local/global from p and a; an unknown input port matches no
// class) and the pinned-exit label (unpinned / pinned here / pinned elsewhere).
//
// Lookup rule: let M be the number of matching alternatives. Walk them in order (the first
// K = FtVisitMax of them are collected by a prefix count; a walk that would go further sets
// overflow_o, which the adapter reports as an error: no table built here needs it); at each,
// an equal-cost set with several members (or TieDraw::Always) takes the next random word w
// and its member floor(w * count / 2^32); an unconditional alternative, or the M-th, applies;
// a conditional one takes N = 1 + floor(w' * 100 / 2^32) from the next word the first time
// one is tested, and applies iff N <= P[its output port] (P = 100 for a port outside the
// radix). No match: miss_o. The random words are draw_i[0], [1], ... in the order the lookup
// takes them (used_o of them), which is the order the C++ unit draws them from the switch's
// Rng: the adapter peeks FtDrawWords words from a copy of the Rng and advances the real one
// by used_o.
// Action: output port (a fixed port, the destination host, the pinned exit port, or the local
// port toward the pinned exit's switch), VC (fixed; host port 0; GlobalCount: segment +
// global_done; hop slot: local 2 segment + global_done + vc_shift, global segment), and
// the header update (TakeGlobal, PinExit, Misroute).
// Probability register: an integer percent per port, written through prob_we_i.
// Widths from scfly_pkg (Ft*Bits): switch 12, group 8, port 6, VC 4, set size 8 bits.
module ft_lookup #(
  parameter int unsigned NE = scfly_pkg::FtEntriesMax,
  localparam int unsigned SWB = scfly_pkg::FtSwitchBits,
  localparam int unsigned GB  = scfly_pkg::FtGroupBits,
  localparam int unsigned PB  = scfly_pkg::FtPortBits,
  localparam int unsigned VB  = scfly_pkg::FtVcBits,
  localparam int unsigned CB  = scfly_pkg::FtCountBits,
  localparam int unsigned TB  = scfly_pkg::TieBits,
  localparam int unsigned W   = scfly_pkg::FtDrawWords,
  localparam int unsigned EW  = $clog2(NE),
  localparam int unsigned UW  = $clog2(W + 1),
  localparam int unsigned K   = scfly_pkg::FtVisitMax,   // matching alternatives one lookup visits
  localparam int unsigned NP  = 1 << PB
) (
  input  logic           clk_i,
  // programmed: this switch, the shape
  input  logic [SWB-1:0] own_switch_i,
  input  logic [PB-1:0]  own_index_i,    // index within the group
  input  logic [PB-1:0]  p_i,            // host ports
  input  logic [PB-1:0]  a_i,            // switches per group
  input  logic [PB:0]    radix_i,
  // entry write port (at reset)
  input  logic           ent_we_i,
  input  logic [EW-1:0]  ent_addr_i,
  input  logic           ent_valid_i,
  input  logic           ent_first_i,
  input  logic [CB-1:0]  ent_count_i,
  input  logic           ent_always_i,
  input  logic           ent_cond_i,
  input  logic           ent_any_switch_i,
  input  logic [SWB-1:0] ent_switch_i,
  input  logic           ent_any_group_i,
  input  logic [GB-1:0]  ent_group_i,
  input  logic           ent_any_host_i,
  input  logic [PB-1:0]  ent_host_i,
  input  logic           ent_any_in_port_i,
  input  logic [PB-1:0]  ent_in_port_i,
  input  logic           ent_any_class_i,
  input  logic [1:0]     ent_class_i,    // 0 host, 1 local, 2 global
  input  logic [1:0]     ent_exit_i,     // 0 any, 1 unpinned, 2 here, 3 elsewhere
  input  logic [1:0]     ent_out_i,      // 0 fixed, 1 dst host, 2 pinned exit, 3 toward pinned exit
  input  logic [PB-1:0]  ent_port_i,
  input  logic [1:0]     ent_vc_rule_i,  // 0 hop slot, 1 fixed, 2 global count
  input  logic [VB-1:0]  ent_vc_i,
  input  logic [1:0]     ent_op_i,       // 0 none, 1 take global, 2 pin exit, 3 misroute
  input  logic [SWB-1:0] ent_pin_switch_i,
  input  logic [PB-1:0]  ent_pin_port_i,
  // probability register write port
  input  logic           prob_we_i,
  input  logic [PB-1:0]  prob_port_i,
  input  logic [6:0]     prob_val_i,
  // lookup: the head's input port and header
  input  logic           in_valid_i,     // input port known (< radix)
  input  logic [PB-1:0]  in_port_i,
  input  logic           dst_valid_i,    // destination switch in the topology
  input  logic [SWB-1:0] dst_switch_i,
  input  logic [GB-1:0]  dst_group_i,
  input  logic [PB-1:0]  dst_host_i,
  input  logic           segment_i,
  input  logic           global_done_i,
  input  logic           vc_shift_i,
  input  logic           exit_valid_i,
  input  logic [SWB-1:0] exit_switch_i,
  input  logic [PB-1:0]  exit_index_i,   // the pinned exit switch's index within its group
  input  logic [PB-1:0]  exit_port_i,
  input  logic [W*TB-1:0] draw_i,        // random words, taken in order
  // decision
  output logic           miss_o,
  output logic [PB-1:0]  port_o,
  output logic [VB-1:0]  vc_o,
  output logic [EW-1:0]  entry_o,
  output logic [UW-1:0]  used_o,
  output logic           segment_o,
  output logic           global_done_o,
  output logic           exit_valid_o,
  output logic [SWB-1:0] exit_switch_o,
  output logic [PB-1:0]  exit_port_o,
  output logic           misroute_o,     // Misroute: mark non-minimal (policy crg-gr)
  output logic           overflow_o,     // the lookup needed more than K alternatives or W words
  output logic           drew_n_o,       // N was taken ...
  output logic [6:0]     n_o             // ... and its value (LookupInfo::drew_n, n)
);
  // Entry storage.
  logic           e_valid [NE];
  logic           e_first [NE];
  logic [CB-1:0]  e_count [NE];
  logic           e_always [NE], e_cond [NE];
  logic           e_any_switch [NE], e_any_group [NE], e_any_host [NE], e_any_in_port [NE], e_any_class [NE];
  logic [SWB-1:0] e_switch [NE];
  logic [GB-1:0]  e_group [NE];
  logic [PB-1:0]  e_host [NE], e_in_port [NE], e_port [NE], e_pin_port [NE];
  logic [1:0]     e_class [NE], e_exit [NE], e_out [NE], e_vc_rule [NE], e_op [NE];
  logic [VB-1:0]  e_vc [NE];
  logic [SWB-1:0] e_pin_switch [NE];
  logic [6:0]     prob_q [NP];

  always_ff @(posedge clk_i) begin
    if (ent_we_i) begin
      e_valid[ent_addr_i]       <= ent_valid_i;
      e_first[ent_addr_i]       <= ent_first_i;
      e_count[ent_addr_i]       <= ent_count_i;
      e_always[ent_addr_i]      <= ent_always_i;
      e_cond[ent_addr_i]        <= ent_cond_i;
      e_any_switch[ent_addr_i]  <= ent_any_switch_i;
      e_switch[ent_addr_i]      <= ent_switch_i;
      e_any_group[ent_addr_i]   <= ent_any_group_i;
      e_group[ent_addr_i]       <= ent_group_i;
      e_any_host[ent_addr_i]    <= ent_any_host_i;
      e_host[ent_addr_i]        <= ent_host_i;
      e_any_in_port[ent_addr_i] <= ent_any_in_port_i;
      e_in_port[ent_addr_i]     <= ent_in_port_i;
      e_any_class[ent_addr_i]   <= ent_any_class_i;
      e_class[ent_addr_i]       <= ent_class_i;
      e_exit[ent_addr_i]        <= ent_exit_i;
      e_out[ent_addr_i]         <= ent_out_i;
      e_port[ent_addr_i]        <= ent_port_i;
      e_vc_rule[ent_addr_i]     <= ent_vc_rule_i;
      e_vc[ent_addr_i]          <= ent_vc_i;
      e_op[ent_addr_i]          <= ent_op_i;
      e_pin_switch[ent_addr_i]  <= ent_pin_switch_i;
      e_pin_port[ent_addr_i]    <= ent_pin_port_i;
    end
    if (prob_we_i) prob_q[prob_port_i] <= prob_val_i;
  end

  // The head's labels.
  logic [1:0] in_class, pin;
  logic [PB:0] local_end;
  assign local_end = {1'b0, p_i} + {1'b0, a_i} - (PB + 1)'(1);     // first global port
  assign in_class  = ({1'b0, in_port_i} < {1'b0, p_i}) ? 2'd0 : (({1'b0, in_port_i} < local_end) ? 2'd1 : 2'd2);
  assign pin       = !exit_valid_i ? 2'd1 : ((exit_switch_i == own_switch_i) ? 2'd2 : 2'd3);

  // Matching alternatives (on their first entries).
  logic [NE-1:0] match;
  for (genvar i = 0; i < NE; i++) begin : g_match
    assign match[i] = e_valid[i] && e_first[i] &&
        (e_any_switch[i] || (dst_valid_i && e_switch[i] == dst_switch_i)) &&
        (e_any_group[i] || (dst_valid_i && e_group[i] == dst_group_i)) &&
        (e_any_host[i] || e_host[i] == dst_host_i) &&
        (e_any_in_port[i] || (in_valid_i && e_in_port[i] == in_port_i)) &&
        (e_any_class[i] || (in_valid_i && e_class[i] == in_class)) &&
        (e_exit[i] == 2'd0 || e_exit[i] == pin);
  end

  // Their count M and the first K of them, in order: K successive find-first-set steps over
  // the match vector with the found bits cleared (slot_v: slot s holds an alternative).
  logic [EW:0]   total;
  logic [EW-1:0] slot [K];
  logic [K-1:0]  slot_v;
  always_comb begin
    total = '0;
    for (int unsigned i = 0; i < NE; i++) total = total + (EW + 1)'(match[i]);
  end
  for (genvar s = 0; s < K; s++) begin : g_slot
    logic [NE-1:0] rest;
    if (s == 0) begin : g_first
      assign rest = match;
    end else begin : g_next
      assign rest = g_slot[s-1].rest & ~(NE'(1) << g_slot[s-1].idx);
    end
    logic [EW-1:0] idx;
    always_comb begin
      idx = '0;
      for (int i = NE - 1; i >= 0; i--) if (rest[i]) idx = EW'(i);
    end
    assign slot[s]   = idx;
    assign slot_v[s] = |rest;
  end

  // An entry's output port for this header.
  function automatic logic [PB-1:0] out_port(input logic [1:0] kind, input logic [PB-1:0] fixed);
    case (kind)
      2'd0: out_port = fixed;
      2'd1: out_port = dst_host_i;
      2'd2: out_port = exit_port_i;
      default: out_port = p_i + ((exit_index_i < own_index_i) ? exit_index_i : exit_index_i - PB'(1));
    endcase
  endfunction

  // The words of the stream, and N for each position it may be taken from.
  logic [TB-1:0] word [W];
  logic [6:0]    n_at [W];
  for (genvar j = 0; j < W; j++) begin : g_word
    logic [TB+6:0] nprod;
    assign word[j]  = draw_i[TB*j +: TB];
    assign nprod    = {7'b0, word[j]} * (TB + 7)'(100);
    assign n_at[j]  = 7'(nprod >> TB) + 7'(1);
  end

  // Per slot: its alternative's fields, and whether it draws a tie word.
  logic [CB-1:0] s_count [K];
  logic          s_tie [K], s_cond [K];
  for (genvar s = 0; s < K; s++) begin : g_fields
    assign s_count[s] = e_count[slot[s]];
    assign s_tie[s]   = e_count[slot[s]] > CB'(1) || e_always[slot[s]];
    assign s_cond[s]  = e_cond[slot[s]];
  end

  // The walk: a chain over the K slots. Slot s takes its tie word at position used_s (the
  // words the slots before it took), its member, port and probability, then either applies
  // or, conditional with another alternative after it, tests N (taken at the first test).
  for (genvar s = 0; s < K; s++) begin : g_walk
    // The chain's state entering this slot, and leaving it.
    logic [UW-1:0] used_in, used_out;
    logic          drawn_in, drawn_out, done_in, done_out, over_in, over_out;
    logic [6:0]    n_in, n_out;
    logic [EW-1:0] chosen_in, chosen_out;
    logic [PB-1:0] cport_in, cport_out;
    if (s == 0) begin : g_start
      assign used_in   = '0;
      assign drawn_in  = 1'b0;
      assign n_in      = '0;
      assign done_in   = 1'b0;
      assign chosen_in = '0;
      assign cport_in  = '0;
      assign over_in   = 1'b0;
    end else begin : g_chain
      assign used_in   = g_walk[s-1].used_out;
      assign drawn_in  = g_walk[s-1].drawn_out;
      assign n_in      = g_walk[s-1].n_out;
      assign done_in   = g_walk[s-1].done_out;
      assign chosen_in = g_walk[s-1].chosen_out;
      assign cport_in  = g_walk[s-1].cport_out;
      assign over_in   = g_walk[s-1].over_out;
    end
    logic          active, tie_ok, n_ok, last, take_n, pass;
    logic [UW-1:0] n_pos;
    logic [TB+CB-1:0] prod;
    logic [CB-1:0] nth;
    logic [EW-1:0] e;
    logic [PB-1:0] prt;
    logic [6:0]    pct, n_val;
    assign active     = slot_v[s] && !done_in;
    assign tie_ok     = !s_tie[s] || (used_in < UW'(W));
    assign prod       = {CB'(0), word[used_in[UW-2:0]]} * {TB'(0), s_count[s]};
    assign nth        = (s_tie[s] && tie_ok) ? CB'(prod >> TB) : '0;
    logic [EW+CB-1:0] e_wide;                    // the member's row, before truncation
    assign e_wide     = (EW + CB)'(slot[s]) + (EW + CB)'(nth);
    assign e          = EW'(e_wide);
    assign prt        = out_port(e_out[e], e_port[e]);
    assign pct        = ({1'b0, prt} < radix_i) ? prob_q[prt] : 7'd100;
    assign last       = (EW + 1)'(s + 1) == total;
    assign n_pos      = used_in + UW'(s_tie[s]);
    assign take_n     = !drawn_in && s_cond[s] && !last;
    assign n_ok       = !take_n || (n_pos < UW'(W));
    assign n_val      = drawn_in ? n_in : n_at[n_pos[UW-2:0]];
    assign pass       = !s_cond[s] || last || (n_val <= pct);
    assign used_out   = active ? n_pos + UW'(take_n) : used_in;
    assign drawn_out  = drawn_in || (active && take_n);
    assign n_out      = (active && take_n) ? n_val : n_in;
    assign done_out   = done_in || (active && pass);
    assign chosen_out = (active && pass) ? e : chosen_in;
    assign cport_out  = (active && pass) ? prt : cport_in;
    assign over_out   = over_in || (active && (!tie_ok || !n_ok));
`ifndef SYNTHESIS
    // The member drawn lies inside the table.
    always_comb if (active) assert (e_wide < (EW + CB)'(NE)) else $error("ft_lookup: member row %0d past the table", e_wide);
`endif
  end

  logic          done, overflow;
  logic [UW-1:0] used;
  logic [EW-1:0] chosen;
  logic [PB-1:0] chosen_port;
  assign done        = g_walk[K-1].done_out;
  assign used        = g_walk[K-1].used_out;
  assign drew_n_o    = g_walk[K-1].drawn_out;
  assign n_o         = g_walk[K-1].n_out;
  assign chosen      = g_walk[K-1].chosen_out;
  assign chosen_port = g_walk[K-1].cport_out;
  // Past the K-th alternative without a decision, or out of words.
  assign overflow    = g_walk[K-1].over_out || (!done && total > (EW + 1)'(K));

  // The decision: VC from the header as it arrived, then the header update.
  logic [1:0] op;
  assign op       = e_op[chosen];
  assign miss_o   = !done;
  assign port_o   = chosen_port;
  assign entry_o  = chosen;
  assign used_o   = used;
  assign overflow_o = overflow;
  always_comb begin
    if (e_vc_rule[chosen] == 2'd1)                   vc_o = e_vc[chosen];
    else if ({1'b0, chosen_port} < {1'b0, p_i})      vc_o = '0;
    else if (e_vc_rule[chosen] == 2'd2)              vc_o = VB'(segment_i) + VB'(global_done_i);
    else if ({1'b0, chosen_port} < local_end)        vc_o = VB'({segment_i, 1'b0}) + VB'(global_done_i) + VB'(vc_shift_i);
    else                                             vc_o = VB'(segment_i);
    segment_o     = segment_i;
    global_done_o = global_done_i;
    exit_valid_o  = exit_valid_i;
    exit_switch_o = exit_switch_i;
    exit_port_o   = exit_port_i;
    misroute_o    = 1'b0;
    if (done) begin
      case (op)
        2'd1: begin global_done_o = 1'b1; exit_valid_o = 1'b0; end
        2'd2: begin exit_valid_o = 1'b1; exit_switch_o = e_pin_switch[chosen]; exit_port_o = e_pin_port[chosen]; end
        2'd3: begin segment_o = 1'b1; global_done_o = 1'b0; exit_valid_o = 1'b0; misroute_o = 1'b1; end
        default: ;
      endcase
    end
  end

`ifndef SYNTHESIS
  // The lookup never needs more words than the adapter supplies; a chosen equal-cost member
  // lies inside its set; a hit's port is inside the radix.
  always_comb begin
    assert (!overflow) else $error("ft_lookup: a lookup past %0d alternatives or %0d random words", K, W);
    if (done) assert ({1'b0, chosen_port} < radix_i) else $error("ft_lookup: port %0d outside the radix", chosen_port);
  end
`endif
endmodule
