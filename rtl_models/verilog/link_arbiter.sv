// The output unit's link arbiter of one switch port: which output VC starts the next packet
// on the port's link once the link is free. SystemVerilog twin of LinkArbiter
// (rtl_models/switch/parts/link_arbiter.h), lockstep-equal to it
// (tests/test_rtl_link_arbiter.cpp).
//
// The rule, with nv VCs of which the first nd carry data (nv_i, nd_i: the port's
// configuration, held):
//  1. the control VCs [nd, nv), in index order (strict priority over data);
//  2. else the data VCs [0, nd) in round-robin order from the pointer rr_q;
//  3. when the switch arbitrates (arb_i, on a free link) and a data VC is picked, the
//     pointer moves past it (modulo nd) at the clock edge; a control VC moves nothing.
// ready_i[c]: VC c holds a head that may leave now (the switch's: credits for the whole
// packet downstream, or not paused under PFC, and its output pipeline delay served).
// Combinational pick; the pointer is the only state.
module link_arbiter #(
  parameter int unsigned V = 4,  // VCs the instance holds (nv_i <= V)
  localparam int unsigned VW = (V > 1) ? $clog2(V) : 1,
  localparam int unsigned NW = $clog2(V + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [NW-1:0] nv_i,      // VCs of the port
  input  logic [NW-1:0] nd_i,      // data VCs, the first nd of them (1 <= nd <= nv)
  input  logic [V-1:0]  ready_i,
  input  logic          arb_i,     // the link is free: the switch takes the pick this cycle
  output logic          valid_o,   // some VC is ready
  output logic [VW-1:0] vc_o,      // the VC picked (when valid_o)
  output logic [VW-1:0] rr_o       // the round-robin pointer (a data VC index)
);
  logic [VW-1:0] rr_q;
  logic          ctl_found, data_found;
  logic [VW-1:0] ctl_vc, data_vc;

  // 1. Control VCs by index.
  always_comb begin
    ctl_found = 1'b0;
    ctl_vc    = '0;
    for (int c = V - 1; c >= 0; c--) begin  // the lowest index wins
      if (NW'(c) >= nd_i && NW'(c) < nv_i && ready_i[c]) begin
        ctl_found = 1'b1;
        ctl_vc    = VW'(c);
      end
    end
  end

  // 2. Data VCs round-robin from rr_q: the nth VC after the pointer, wrapping at nd.
  always_comb begin
    logic [NW:0] c;
    data_found = 1'b0;
    data_vc    = '0;
    c          = '0;
    for (int n = V - 1; n >= 0; n--) begin  // the nearest to the pointer wins
      c = (NW+1)'(rr_q) + (NW+1)'(n);
      if (c >= {1'b0, nd_i}) c = c - {1'b0, nd_i};
      if (NW'(n) < nd_i && ready_i[VW'(c)]) begin
        data_found = 1'b1;
        data_vc    = VW'(c);
      end
    end
  end

  assign valid_o = ctl_found || data_found;
  assign vc_o    = ctl_found ? ctl_vc : data_vc;
  assign rr_o    = rr_q;

  // 3. The pointer past a data VC taken.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rr_q <= '0;
    else if (arb_i && !ctl_found && data_found)
      rr_q <= ({1'b0, data_vc} + (VW+1)'(1) == (VW+1)'(nd_i)) ? '0 : data_vc + VW'(1);
  end

`ifndef SYNTHESIS
  always_comb begin
    if (rst_ni) begin
      assert (nd_i >= NW'(1) && nd_i <= nv_i && {1'b0, nv_i} <= (NW+1)'(V))
        else $error("link_arbiter: needs 1 <= nd <= nv <= V");
      assert (NW'(rr_q) < nd_i) else $error("link_arbiter: pointer outside the data VCs");
      assert (!valid_o || ready_i[vc_o]) else $error("link_arbiter: picked a VC that is not ready");
    end
  end
`endif
endmodule
