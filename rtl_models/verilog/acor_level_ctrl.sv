// ACOR-Switch level controller: hysteresis counter of blocked non-minimal injection
// attempts (the ACOR paper: Benito, Fuentes, Vallejo, Beivide, "ACOR: Adaptive
// Congestion-Oblivious Routing in Dragonfly networks", Journal of Parallel and Distributed
// Computing, 2019, sec. 4.2.2, Table 3).
// RTL mirror of routing_units/acor_level_ctrl.h (AcorLevelCtrl): same ports, widths and
// per-cycle rule, so the two are compared cycle by cycle (tests/test_rtl_sc_blocks.cpp).
//
// Each cycle, in this order:
//   sum = counter + blocked (saturating at 2^32-1);
//   if level < levels-1 and sum >= IT[level]: level+1, counter = 0, timer = 0;
//   else if timer+1 < HI:                     counter = sum, timer = timer+1;
//   else (interval end):                      level-1 if level > 0 and sum < DT[level-1];
//                                             counter = 0, timer = 0.
// Thresholds and the interval are programmable (inputs, held stable by software).
// Counter, timer, interval and thresholds are scfly_pkg::AcorBits (32) wide.
module acor_level_ctrl #(
  localparam int unsigned W = scfly_pkg::AcorBits
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [1:0]   levels_i,    // 2 or 3 levels in the policy sequence
  input  logic [W-1:0] hi_i,        // hysteresis interval, cycles (>= 1)
  input  logic [W-1:0] it1_i,       // increase threshold 0 -> 1
  input  logic [W-1:0] it2_i,       // increase threshold 1 -> 2
  input  logic [W-1:0] dt1_i,       // decrease threshold 1 -> 0
  input  logic [W-1:0] dt2_i,       // decrease threshold 2 -> 1
  input  logic [W-1:0] blocked_i,   // blocked non-minimal attempts this cycle
  output logic [1:0]   level_o,
  output logic [W-1:0] counter_o,
  output logic [W-1:0] timer_o
);
  logic [1:0]   level_d, level_q;
  logic [W-1:0] counter_d, counter_q, timer_d, timer_q;
  logic [W:0]   sum_wide;
  logic [W-1:0] sum, it_cur, dt_cur, timer_inc;
  logic         can_rise, rise, interval_end, fall;

  assign sum_wide  = {1'b0, counter_q} + {1'b0, blocked_i};
  assign sum       = sum_wide[W] ? '1 : sum_wide[W-1:0];
  assign it_cur    = (level_q == 2'd0) ? it1_i : it2_i;
  assign dt_cur    = (level_q == 2'd2) ? dt2_i : dt1_i;
  assign can_rise  = ({1'b0, level_q} + 3'd1) < {1'b0, levels_i};
  assign rise      = can_rise && (sum >= it_cur);
  assign timer_inc = timer_q + W'(1);
  assign interval_end = !rise && !(timer_inc < hi_i);
  assign fall      = interval_end && (level_q != 2'd0) && (sum < dt_cur);

  always_comb begin
    level_d   = level_q;
    counter_d = sum;
    timer_d   = timer_inc;
    if (rise) begin
      level_d   = level_q + 2'd1;
      counter_d = '0;
      timer_d   = '0;
    end else if (interval_end) begin
      if (fall) level_d = level_q - 2'd1;
      counter_d = '0;
      timer_d   = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      level_q   <= '0;
      counter_q <= '0;
      timer_q   <= '0;
    end else begin
      level_q   <= level_d;
      counter_q <= counter_d;
      timer_q   <= timer_d;
    end
  end

  assign level_o   = level_q;
  assign counter_o = counter_q;
  assign timer_o   = timer_q;

`ifndef SYNTHESIS
  // The level never leaves the sequence.
  always_ff @(posedge clk_i) begin
    assert (level_q < levels_i) else $error("acor level %0d beyond %0d levels", level_q, levels_i);
  end
`endif
endmodule
