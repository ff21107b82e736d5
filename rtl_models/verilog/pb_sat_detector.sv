// Piggyback saturation detector (the ACOR paper: Benito, Fuentes, Vallejo, Beivide, "ACOR:
// Adaptive Congestion-Oblivious Routing in Dragonfly networks", Journal of Parallel and
// Distributed Computing, 2019, sec. 5.3, Table 3; Jiang, Kim, Dally ISCA'09): global link j
// of a switch with H global links is saturated when q_j > C_g% x mean(q) + T_g, computed
// exactly in integers as
//   100 * q_j * H > C_g * sum(q) + 100 * T_g * H.
// Combinational, one flag per global port. RTL mirror of pb_saturated() in
// routing_units/ugal.h; widths from scfly_pkg (rtl_models/interface/widths.def): QB = 16-bit
// saturated occupancies, 10-bit C_g percent, 16-bit T_g, H <= 16.
module pb_sat_detector #(
  parameter int unsigned H = 4,
  localparam int unsigned QB = scfly_pkg::QueueBits
) (
  input  logic [H*QB-1:0]               q_i,      // occupancy of global port j in bits [QB*j +: QB]
  input  logic [scfly_pkg::CgBits-1:0]  cg_i,     // C_g, percent
  input  logic [scfly_pkg::TgBits-1:0]  tg_i,     // T_g, phits
  output logic [H-1:0]                  sat_o
);
  localparam int unsigned SumW = QB + $clog2(H + 1);
  // 100 * q * H and C_g * sum + 100 * T_g * H, with room: 48 bits for the default widths.
  localparam int unsigned W = QB + scfly_pkg::CgBits + 22;
  logic [SumW-1:0] sum;
  logic [W-1:0]    rhs;

  always_comb begin
    sum = '0;
    for (int unsigned j = 0; j < H; j++) sum = sum + SumW'(q_i[QB*j +: QB]);
  end
  assign rhs = W'(cg_i) * W'(sum) + W'(100) * W'(tg_i) * W'(H);

  for (genvar j = 0; j < H; j++) begin : g_flag
    assign sat_o[j] = (W'(100) * W'(q_i[QB*j +: QB]) * W'(H)) > rhs;
  end

`ifndef SYNTHESIS
  // An empty link is never saturated; with C_g >= 100% not every link can be above the
  // mean; a link above T_g + C_g x mean is above T_g.
  always_comb begin
    for (int unsigned j = 0; j < H; j++)
      if (q_i[QB*j +: QB] == '0) assert (!sat_o[j]) else $error("pb: empty global port %0d flagged", j);
    if (cg_i >= scfly_pkg::CgBits'(100)) assert (!(&sat_o)) else $error("pb: every port above a C_g >= 100%% mean");
    for (int unsigned j = 0; j < H; j++)
      if (sat_o[j]) assert (q_i[QB*j +: QB] > QB'(tg_i)) else $error("pb: port %0d flagged at or below T_g", j);
  end
`endif
endmodule
