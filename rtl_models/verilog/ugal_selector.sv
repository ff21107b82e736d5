// UGAL selection (T-UGAL paper ../shared/papers/003_86cbaddc88747694.txt sec. 2.2; ACOR
// paper sec. 5.3): choose the minimal candidate iff q_min * H_min <= q_vlb * H_vlb + T.
// Combinational. RTL mirror of ugal_prefers_min() in routing_units/ugal.h; widths from
// routing_units/rtl_widths.h: 16-bit saturated queue occupancies, 4-bit hop counts, signed
// 24-bit threshold; the comparison is exact in 26 signed bits.
module ugal_selector (
  input  logic [15:0]        q_min_i,
  input  logic [3:0]         h_min_i,
  input  logic [15:0]        q_vlb_i,
  input  logic [3:0]         h_vlb_i,
  input  logic signed [23:0] threshold_i,
  output logic               min_o         // 1: take the minimal path
);
  logic [19:0]        cost_min, cost_vlb;
  logic signed [25:0] lhs, rhs;

  assign cost_min = q_min_i * h_min_i;
  assign cost_vlb = q_vlb_i * h_vlb_i;
  assign lhs      = $signed({6'b0, cost_min});
  assign rhs      = $signed({6'b0, cost_vlb}) + 26'(threshold_i);
  assign min_o    = lhs <= rhs;

`ifndef SYNTHESIS
  // The products fit their 20 bits (no wrap), and with T >= 0 a path at most as costly
  // as the other is never rejected; with T < 0 an equally costly minimal path is.
  always_comb begin
    assert (32'(q_min_i) * 32'(h_min_i) == 32'(cost_min)) else $error("ugal: q_min*h_min overflow");
    assert (32'(q_vlb_i) * 32'(h_vlb_i) == 32'(cost_vlb)) else $error("ugal: q_vlb*h_vlb overflow");
    if (threshold_i >= 0 && cost_min <= cost_vlb) assert (min_o) else $error("ugal: cheaper minimal path rejected");
    if (threshold_i < 0 && cost_min == cost_vlb) assert (!min_o) else $error("ugal: T < 0 tie kept minimal");
  end
`endif
endmodule
