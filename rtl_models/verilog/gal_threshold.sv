// GAL adaptive threshold controller, one per (source node, destination set): the GAL paper
// (Singh, Dally, Towles, Gupta, "Globally Adaptive Load-Balanced Routing on k-ary n-cubes";
// published as "... on Tori", IEEE Computer Architecture Letters, 2004) sec. IV.E and
// fn. 7. RTL mirror of GalThreshold (routing_units/gal_threshold.h), compared with it
// cycle by cycle (tests/test_rtl_torus_blocks.cpp) and co-simulated in every NIC with
// `--rtl gal_threshold`.
//
// D_t = dep_i in cycle t (packets that left the set's injection queues). At the start of
// every cycle t that is a positive multiple of n2:
//   S_t = D_{t-1} + ... + D_{t-n1};  T = (S_t < S_{t-n2}) ? min(T + 1, T_max) : max(T - 1, T_min)
// (falling throughput raises T). Hardware: the last n1 values of D in a ring of N1_MAX
// entries (n1 <= N1_MAX = scfly_pkg::GalN1Max; a RAM without reset: until the pointer first
// wraps, the entry leaving reads as 0, as D before cycle 0), the running sum S updated
// every cycle by the entry that enters and the one that leaves, S at the previous update instant in a
// register (S_{t-n2} is exactly that), and a cycle counter modulo n2. All registers are
// clocked at the end of cycle t, so t_o in cycle t is the T the C++ unit returns for t.
// With adaptive_i low T stays at t0_i. Widths from scfly_pkg: T 16 bits, D 4 bits, n2 20 bits.
module gal_threshold #(
  parameter int unsigned N1_MAX = scfly_pkg::GalN1Max,
  localparam int unsigned TW  = scfly_pkg::GalTBits,
  localparam int unsigned DW  = scfly_pkg::GalDepBits,
  localparam int unsigned N2W = scfly_pkg::GalN2Bits,
  localparam int unsigned N1W = $clog2(N1_MAX + 1),
  localparam int unsigned PW  = (N1_MAX > 1) ? $clog2(N1_MAX) : 1,
  localparam int unsigned SW  = DW + N1W        // n1 * (2^DW - 1) fits
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           adaptive_i,
  input  logic [TW-1:0]  t0_i,        // initial T (the fixed T when not adaptive)
  input  logic [TW-1:0]  t_min_i,
  input  logic [TW-1:0]  t_max_i,
  input  logic [N1W-1:0] n1_i,        // departure window, 1..N1_MAX cycles
  input  logic [N2W-1:0] n2_i,        // update period, >= 1 cycle
  input  logic [DW-1:0]  dep_i,       // departures in this cycle
  output logic [TW-1:0]  t_o,
  output logic [SW-1:0]  sum_o        // S: departures of the last n1 cycles
);
  logic [DW-1:0]  hist_q [N1_MAX];
  logic [PW-1:0]  ptr_q;
  logic [PW:0]    ptr_inc;
  logic [SW-1:0]  sum_q, sum_d, prev_q;
  logic [N2W:0]   cnt_inc;
  logic [N2W-1:0] cnt_q;
  logic [TW-1:0]  t_q, t_up, t_down, t_d;
  logic           instant, wrap, full_q;
  logic [DW-1:0]  leaving;

  // S at the start of the next cycle: this cycle's D enters, D_{t-n1} (the entry the ring
  // pointer is on, overwritten now) leaves.
  assign leaving = full_q ? hist_q[ptr_q] : '0;
  assign sum_d   = sum_q + SW'(dep_i) - SW'(leaving);
  assign ptr_inc = {1'b0, ptr_q} + (PW + 1)'(1);
  assign wrap    = ptr_inc == (PW + 1)'(n1_i);
  assign cnt_inc = {1'b0, cnt_q} + (N2W + 1)'(1);
  assign instant = cnt_inc == {1'b0, n2_i};      // the next cycle is a multiple of n2
  assign t_up    = (t_q < t_max_i) ? t_q + TW'(1) : t_max_i;
  assign t_down  = (t_q > t_min_i) ? t_q - TW'(1) : t_min_i;
  assign t_d     = (instant && adaptive_i) ? ((sum_d < prev_q) ? t_up : t_down) : t_q;

  always_ff @(posedge clk_i) hist_q[ptr_q] <= dep_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      ptr_q  <= '0;
      sum_q  <= '0;
      prev_q <= '0;
      cnt_q  <= '0;
      t_q    <= t0_i;
    end else begin
      ptr_q  <= wrap ? '0 : ptr_inc[PW-1:0];
      if (wrap) full_q <= 1'b1;
      sum_q  <= sum_d;
      if (instant) begin
        cnt_q  <= '0;
        prev_q <= sum_d;
      end else begin
        cnt_q  <= cnt_inc[N2W-1:0];
      end
      t_q <= t_d;
    end
  end

  assign t_o   = t_q;
  assign sum_o = sum_q;

`ifndef SYNTHESIS
  // Programmed limits: n1 within the ring, n2 >= 1; T stays within its clamps once adaptive
  // (the initial T is programmed inside them); the window never holds more than n1 full cycles.
  logic live_q;  // set by the reset: checks start after it
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b1;
    else         live_q <= live_q;
  end
  always_ff @(posedge clk_i) begin
    if (live_q) begin
      assert (n1_i >= N1W'(1) && n1_i <= N1W'(N1_MAX)) else $error("gal_threshold: n1 %0d outside [1, %0d]", n1_i, N1_MAX);
      assert (n2_i != '0) else $error("gal_threshold: n2 = 0");
      if (adaptive_i) assert (t_q >= t_min_i && t_q <= t_max_i) else $error("gal_threshold: T %0d outside [%0d, %0d]", t_q, t_min_i, t_max_i);
      assert (32'(sum_q) <= 32'(n1_i) * ((32'(1) << DW) - 32'(1))) else $error("gal_threshold: window sum %0d too large", sum_q);
    end
  end
`endif
endmodule
