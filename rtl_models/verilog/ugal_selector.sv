// UGAL selection (the T-UGAL paper: Rahman, Bhowmik, Ryasnianskiy, Yuan, Lang,
// "Topology-Custom UGAL Routing on Dragonfly", SC'19, sec. 2.2; the ACOR paper: Benito,
// Fuentes, Vallejo, Beivide, Journal of Parallel and Distributed Computing, 2019, sec. 5.3):
// choose the minimal candidate iff q_min * H_min <= q_vlb * H_vlb + T.
// Combinational. RTL mirror of ugal_prefers_min() in routing_units/ugal.h; widths from
// scfly_pkg (rtl_models/interface/widths.def): saturated queue occupancies (QueueBits = 16),
// hop counts (HopBits = 4), signed threshold (ThresholdBits = 24); the products fit
// QueueBits + HopBits bits and the comparison is exact in one bit more than the wider of
// those and the threshold, plus a sign bit (26 signed bits with the defaults).
module ugal_selector (
  input  logic [scfly_pkg::QueueBits-1:0]            q_min_i,
  input  logic [scfly_pkg::HopBits-1:0]              h_min_i,
  input  logic [scfly_pkg::QueueBits-1:0]            q_vlb_i,
  input  logic [scfly_pkg::HopBits-1:0]              h_vlb_i,
  input  logic signed [scfly_pkg::ThresholdBits-1:0] threshold_i,
  output logic                                       min_o         // 1: take the minimal path
);
  localparam int unsigned CW = scfly_pkg::QueueBits + scfly_pkg::HopBits;
  localparam int unsigned SW = ((CW > scfly_pkg::ThresholdBits) ? CW : scfly_pkg::ThresholdBits) + 2;
  logic [CW-1:0]        cost_min, cost_vlb;
  logic signed [SW-1:0] lhs, rhs;

  assign cost_min = CW'(q_min_i) * CW'(h_min_i);
  assign cost_vlb = CW'(q_vlb_i) * CW'(h_vlb_i);
  assign lhs      = $signed({(SW-CW)'(0), cost_min});
  assign rhs      = $signed({(SW-CW)'(0), cost_vlb}) + SW'(threshold_i);
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
