// In-quadrant selector of the torus adaptive routings: the productive output links of a
// switch toward a destination, inside the packet's quadrant, ordered by output queue.
// Used by MIN AD, GOAL and GAL (the GAL paper: Singh, Dally, Towles, Gupta, "Globally
// Adaptive Load-Balanced Routing on k-ary n-cubes"; published as "... on Tori", IEEE Computer
// Architecture Letters, 2004; sec. III: "adaptive inside the quadrant", MIN AD as its
// reference) and by CHAOS's minimal candidates. RTL mirror of productive_by_queue() in
// routing_units/torus_routing.cpp; compared with it exhaustively over positions and
// quadrants on small tori and meshes (tests/test_rtl_torus_blocks.cpp) and co-simulated in
// every switch with `--rtl quadrant`.
// Combinational.
//
// Link slots: slot 2d is dimension d's + output, 2d+1 its - output (the switch port is
// P + slot, P the host ports). For every dimension d with x_d != y_d (cur_i, dst_i):
//   dir_set_i[d]: the slot of direction minus_i[d] only (GOAL/GAL's quadrant);
//   mesh_i:       toward y_d;
//   else (ring of k_i): + if fwd <= back, - if back <= fwd (both at the k/2 tie), with
//                 fwd = (y_d - x_d) mod k, back = k - fwd.
// The productive slots (valid_o, count_o) are then ordered by (queue q, tie word) with the
// lower slot first on equal keys: candidate i's rank is the number of productive slots j
// with key_j < key_i, or key_j == key_i and j < i (the C++ unit's stable insertion sort).
// order_o[i] is the slot of rank i (i < count_o; 0 beyond). The tie words are the ones the
// caller drew for the productive slots in slot order, one each when there are several (the
// C++ unit's Rng::order_word draws); unused otherwise.
// Widths from scfly_pkg: coordinates and k CoordBits (8), queues QueueBits (16, saturated
// by the caller), ties TieBits (32).
module quadrant_sel #(
  parameter int unsigned N = 2,                 // dimensions, 1..scfly_pkg::TorusMaxDims
  localparam int unsigned KW  = scfly_pkg::CoordBits,
  localparam int unsigned QB  = scfly_pkg::QueueBits,
  localparam int unsigned TB  = scfly_pkg::TieBits,
  localparam int unsigned S   = 2 * N,          // link slots
  localparam int unsigned SIW = $clog2(S),      // slot index (S >= 2)
  localparam int unsigned CNW = $clog2(S + 1)   // candidate count
) (
  input  logic [KW-1:0]    k_i,        // ring size (2..255)
  input  logic             mesh_i,
  input  logic [N*KW-1:0]  cur_i,      // this switch's coordinate d at [KW*d +: KW]
  input  logic [N*KW-1:0]  dst_i,      // the destination's
  input  logic [N-1:0]     dir_set_i,  // dimension d's direction fixed by the quadrant
  input  logic [N-1:0]     minus_i,    // ... and that direction (1: -)
  input  logic [S*QB-1:0]  q_i,        // output queue of slot s at [QB*s +: QB]
  input  logic [S*TB-1:0]  tie_i,      // tie word of slot s at [TB*s +: TB]
  output logic [S-1:0]     valid_o,
  output logic [CNW-1:0]   count_o,
  output logic [S*SIW-1:0] order_o     // slot of rank i at [SIW*i +: SIW]
);
  localparam int unsigned KEYW = QB + TB;
  logic [KEYW-1:0] key [S];
  logic [CNW-1:0]  rank [S];

  // Productive slots per dimension.
  for (genvar d = 0; d < N; d++) begin : g_dim
    logic [KW-1:0] x, y;
    logic [KW:0]   fwd, back;
    assign x    = cur_i[KW*d +: KW];
    assign y    = dst_i[KW*d +: KW];
    assign fwd  = (y >= x) ? {1'b0, y} - {1'b0, x} : {1'b0, y} + {1'b0, k_i} - {1'b0, x};
    assign back = {1'b0, k_i} - fwd;
    always_comb begin
      valid_o[2*d]     = 1'b0;
      valid_o[2*d + 1] = 1'b0;
      if (x != y) begin
        if (dir_set_i[d]) begin
          valid_o[2*d + 1] = minus_i[d];
          valid_o[2*d]     = !minus_i[d];
        end else if (mesh_i) begin
          valid_o[2*d + 1] = y < x;
          valid_o[2*d]     = !(y < x);
        end else begin
          valid_o[2*d]     = fwd <= back;
          valid_o[2*d + 1] = back <= fwd;
        end
      end
    end
  end

  always_comb begin
    count_o = '0;
    for (int unsigned s = 0; s < S; s++) count_o = count_o + CNW'(valid_o[s]);
  end

  // Stable rank by (queue, tie) among the productive slots, and the slot of each rank.
  for (genvar s = 0; s < S; s++) begin : g_key
    assign key[s] = {q_i[QB*s +: QB], tie_i[TB*s +: TB]};
  end
  always_comb begin
    for (int unsigned i = 0; i < S; i++) begin
      rank[i] = '0;
      for (int unsigned j = 0; j < S; j++)
        if (valid_o[j] && (key[j] < key[i] || (key[j] == key[i] && j < i))) rank[i] = rank[i] + CNW'(1);
    end
    order_o = '0;
    for (int unsigned i = 0; i < S; i++)
      if (valid_o[i]) order_o[SIW*rank[i] +: SIW] = SIW'(i);
  end

`ifndef SYNTHESIS
  // Every dimension that differs has a productive slot; the ranks of the productive slots
  // are distinct and below the count; the order is by nondecreasing queue.
  always_comb begin
    for (int unsigned d = 0; d < N; d++)
      if (cur_i[KW*d +: KW] != dst_i[KW*d +: KW]) assert (valid_o[2*d] || valid_o[2*d + 1]) else $error("quadrant_sel: dimension %0d has no productive link", d);
    for (int unsigned i = 0; i < S; i++)
      for (int unsigned j = 0; j < S; j++)
        if (valid_o[i] && valid_o[j] && i != j) assert (rank[i] != rank[j]) else $error("quadrant_sel: slots %0d and %0d share rank %0d", i, j, rank[i]);
    for (int unsigned i = 0; i + 1 < S; i++)
      if (CNW'(i + 1) < count_o) assert (q_i[QB*order_o[SIW*i +: SIW] +: QB] <= q_i[QB*order_o[SIW*(i+1) +: SIW] +: QB]) else $error("quadrant_sel: order not by queue at rank %0d", i);
  end
`endif
endmodule
