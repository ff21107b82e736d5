// Piggyback saturation detector (the ACOR paper: Benito, Fuentes, Vallejo, Beivide, "ACOR:
// Adaptive Congestion-Oblivious Routing in Dragonfly networks", Journal of Parallel and
// Distributed Computing, 2019, sec. 5.3, Table 3; Jiang, Kim, Dally ISCA'09): global link j
// of a switch with h global links is saturated when q_j > C_g% x mean(q) + T_g, computed
// exactly in integers as
//   100 * q_j * h > C_g * sum(q) + 100 * T_g * h.
// Combinational, one flag per global port. RTL mirror of pb_saturated() in
// routing_units/ugal.h; widths from scfly_pkg (rtl_models/interface/widths.def): QB = 16-bit
// saturated occupancies, 10-bit C_g percent, 16-bit T_g, up to HMAX = PbPortsMax (16) ports.
// The port count h is not a parameter: it is an input (h_i, like cg_i and tg_i held constant
// while the network runs, set at reset), so one instance serves every switch with 1..HMAX
// global ports. Ports j >= h_i are not the switch's: never summed, never flagged, whatever
// their q_i bits hold.
module pb_sat_detector #(
  parameter  int unsigned HMAX = scfly_pkg::PbPortsMax,
  localparam int unsigned QB   = scfly_pkg::QueueBits,
  localparam int unsigned HW   = $clog2(HMAX + 1)
) (
  input  logic [HW-1:0]                 h_i,      // global ports in use, 1..HMAX (held)
  input  logic [HMAX*QB-1:0]            q_i,      // occupancy of global port j in bits [QB*j +: QB]
  input  logic [scfly_pkg::CgBits-1:0]  cg_i,     // C_g, percent (held)
  input  logic [scfly_pkg::TgBits-1:0]  tg_i,     // T_g, phits (held)
  output logic [HMAX-1:0]               sat_o
);
  localparam int unsigned SumW = QB + HW;
  // 100 * q * h and C_g * sum + 100 * T_g * h, with room: 48 bits for the default widths.
  localparam int unsigned W = QB + scfly_pkg::CgBits + 22;
  logic [HMAX-1:0] used;  // port j is one of the switch's h_i global ports
  logic [SumW-1:0] sum;
  logic [W-1:0]    h100;  // 100 * h
  logic [W-1:0]    rhs;

  for (genvar j = 0; j < HMAX; j++) begin : g_used
    assign used[j] = HW'(j) < h_i;
  end

  always_comb begin
    sum = '0;
    for (int unsigned j = 0; j < HMAX; j++)
      if (used[j]) sum = sum + SumW'(q_i[QB*j +: QB]);
  end
  assign h100 = W'(100) * W'(h_i);
  assign rhs  = W'(cg_i) * W'(sum) + W'(tg_i) * h100;

  // q_j * h (a 16 x 5-bit product) times the constant 100: 18 % fewer cells than q_j
  // times the 11-bit 100 * h.
  for (genvar j = 0; j < HMAX; j++) begin : g_flag
    assign sat_o[j] = used[j] && ((W'(q_i[QB*j +: QB]) * W'(h_i)) * W'(100) > rhs);
  end

`ifndef SYNTHESIS
  // h_i is a port count the widths hold; ports beyond it are never flagged; an empty link is
  // never saturated; with C_g >= 100% not every link can be above the mean; a link above
  // T_g + C_g x mean is above T_g.
  always_comb begin
    assert (h_i >= HW'(1) && h_i <= HW'(HMAX)) else $error("pb: h_i = %0d outside 1..%0d", h_i, HMAX);
    for (int unsigned j = 0; j < HMAX; j++) begin
      if (!used[j]) assert (!sat_o[j]) else $error("pb: port %0d flagged beyond h_i = %0d", j, h_i);
      if (q_i[QB*j +: QB] == '0) assert (!sat_o[j]) else $error("pb: empty global port %0d flagged", j);
      if (sat_o[j]) assert (q_i[QB*j +: QB] > QB'(tg_i)) else $error("pb: port %0d flagged at or below T_g", j);
    end
    if (cg_i >= scfly_pkg::CgBits'(100) && h_i != '0)
      assert ((sat_o | ~used) != '1) else $error("pb: every port above a C_g >= 100%% mean");
  end
`endif
endmodule
