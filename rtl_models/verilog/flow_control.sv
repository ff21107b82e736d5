// The link-level flow-control state of one switch port: RTL twin of the parts CreditCounter
// (its output VCs) and PfcInput (its input VCs) in rtl_models/switch/parts/flow_control.h,
// compared with them in lockstep every cycle (tests/test_rtl_flow_control.cpp).
//
// One module for both, per port: the credit counters and the PFC state are the two ends
// of one link's flow control, a switch uses one or the other (switch.flow_control), and the
// state is small (a counter per output VC, a bit per input VC). One instance per port
// serves both modes without a mode input: under PFC no credit is spent or lands, under
// credits no phit reaches XOFF (the switch passes no thresholds or events).
//
// Credit counters (credit flow control), per output VC v. The register counts the credits
// outstanding (spent and not yet landed back): it resets to 0, so the downstream buffer size
// cap_i is a held configuration input and not a reset value; the credits the switch sees
// are cap - outstanding. In cycle t, in the switch's order:
//   1. land_i: the credits that land this cycle, a count (CreditLandBits wide: up to a
//      whole buffer at once). Several credits of one VC land in one cycle with
//      switch.credit_return: packet (a packet's credits at once, and the CHAOS multiqueue),
//      with switch.crossbar: transfer at speedup S (S a cycle), and when a sleeping switch
//      wakes and takes everything that came back meanwhile;
//   2. the readers see credits_o = the credits landed by the end of cycle t less those spent
//      before t (CreditCounter::at(t)), room_o = credits_o >= phits_i (room(t, phits)) and
//      overflow_o = credits_o > cap_i (overflow(): a duplicated or spurious credit; a lost
//      one shows only in the end-of-run credit balance, not here);
//   3. spend_i phits are spent (a packet's at its grant with the output buffer inside the
//      credit loop, one per phit sent otherwise); at the clock edge the register takes it.
// The counter is CreditBits + 1 bits, read as two's complement: outstanding credits in
// [-2^CreditBits, 2^CreditBits - 1], so credits_o (CreditBits + 1 bits) holds cap plus any
// excess and an overflow is the counter's sign, not a wrap. overflow_o is an output, not an
// assertion: the switch stops the run on it (a detected simulation fault, exit 3).
// A landing that takes the counter beyond cap flags overflow_o in that cycle (the count
// need not be 1, so the flag is a comparison, not a carry). A landing so large that the
// outstanding count would fall below -2^CreditBits would wrap the register: the
// simulation-only contract below stops the model on it (no switch sends one: the counter
// never holds more than cap + the buffer's worth in flight).
// The C++ part may take a run of credits whole at its first landing (lazy landing, its
// speed path); its at(t) hides those still to land, and equals credits_o every cycle (the
// argument is in flow_control.h). Co-simulated in a switch (--rtl flow_control), the switch
// lands credits as they arrive (no lazy landing) and hands the block each cycle's count.
//
// PFC (802.1Qbb), per input VC v, given the VC's occupancy occ_i at the start of cycle t:
//   1. fill_i: a phit is filed; if the sender is not paused and occ + 1 >= XOFF: pause_o
//      (PfcInput::filled(occ + 1, xoff));
//   2. drain_i: a phit leaves the VC; if the sender is paused (now or by step 1) and the
//      occupancy after the filing and the leaving is <= XON: resume_o (drained(..., xon));
//   3. the clock edge stores the paused flag, xoff_o (PfcInput::xoff, the traced value).
// A PAUSE and a RESUME in one cycle are possible when XON >= XOFF - 1.
// Widths: counts, occupancies and thresholds in phits, CreditBits (scfly_pkg); V VCs per
// direction of the port, at most 2^AllocVcBits (the switch's VCs per port).
module flow_control #(
  parameter int unsigned V = 2,                        // VCs of the port's input and of its output
  localparam int unsigned CB = scfly_pkg::CreditBits,  // buffer depths, credits, occupancies, thresholds
  localparam int unsigned UB = CB + 1,                 // outstanding credits (two's complement), credits seen
  localparam int unsigned LB = scfly_pkg::CreditLandBits  // credits of a VC landing in one cycle (<= CB)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // Credit counters of the output VCs.
  input  logic [V*CB-1:0] cap_i,        // downstream input VC's buffer, phits (held while running)
  input  logic [V*LB-1:0] land_i,       // credits landing this cycle (a count)
  input  logic [V*CB-1:0] phits_i,      // the packet room_o answers for
  input  logic [V*CB-1:0] spend_i,      // phits spent this cycle, after the reads
  output logic [V*UB-1:0] credits_o,    // credits seen this cycle
  output logic [V-1:0]    room_o,       // credits_o >= phits_i
  output logic [V-1:0]    overflow_o,   // credits_o > cap_i
  // PFC state of the input VCs.
  input  logic [CB-1:0]   xoff_at_i,    // occupancy that sends PAUSE (held while running)
  input  logic [CB-1:0]   xon_at_i,     // occupancy that sends RESUME, <= xoff_at_i (held)
  input  logic [V*CB-1:0] occ_i,        // the input VC's occupancy at the start of the cycle
  input  logic [V-1:0]    fill_i,       // a phit is filed into the VC this cycle
  input  logic [V-1:0]    drain_i,      // a phit leaves the VC this cycle (after the filing)
  output logic [V-1:0]    pause_o,      // send PAUSE upstream now
  output logic [V-1:0]    resume_o,     // send RESUME upstream now
  output logic [V-1:0]    xoff_o        // the upstream sender is paused (the register)
);
  logic [V*UB-1:0] out_q, out_d;  // outstanding credits per output VC
  logic [V-1:0]    xoff_q, xoff_d;
  logic [V*UB-1:0] out_land;      // after this cycle's landing
  logic [V*UB-1:0] occ_fill;      // occupancy after this cycle's filing (CB + 1 bits, as UB)

  always_comb begin
    for (int unsigned v = 0; v < V; v++) begin
      logic [UB-1:0] cap, seen, occ_left;
      logic          paused;
      // Credits.
      cap                 = UB'(cap_i[v*CB +: CB]);
      out_land[v*UB +: UB] = out_q[v*UB +: UB] - UB'(land_i[v*LB +: LB]);
      seen                = cap - out_land[v*UB +: UB];
      credits_o[v*UB +: UB] = seen;
      room_o[v]           = seen >= UB'(phits_i[v*CB +: CB]);
      overflow_o[v]       = out_land[v*UB + UB - 1];  // outstanding < 0: more credits than the buffer
      out_d[v*UB +: UB]   = out_land[v*UB +: UB] + UB'(spend_i[v*CB +: CB]);
      // PFC.
      occ_fill[v*UB +: UB] = UB'(occ_i[v*CB +: CB]) + UB'(fill_i[v]);
      pause_o[v]  = fill_i[v] && !xoff_q[v] && occ_fill[v*UB +: UB] >= UB'(xoff_at_i);
      paused      = xoff_q[v] || pause_o[v];
      occ_left    = occ_fill[v*UB +: UB] - UB'(drain_i[v]);
      resume_o[v] = drain_i[v] && paused && occ_left <= UB'(xon_at_i);
      xoff_d[v]   = paused && !resume_o[v];
    end
  end

  assign xoff_o = xoff_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q  <= '0;
      xoff_q <= '0;
    end else begin
      out_q  <= out_d;
      xoff_q <= xoff_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (V >= 1 && V <= (1 << scfly_pkg::AllocVcBits)) else $error("flow_control: V %0d outside [1, 2^AllocVcBits]", V);
    assert (LB <= CB) else $error("flow_control: CreditLandBits %0d above CreditBits %0d", LB, CB);
  end
  // Contracts on the inputs, checked at each clock edge out of reset with the cycle's values
  // (an assertion on the combinational outputs would see the next cycle's register against
  // this cycle's inputs): no spend beyond the credits seen, no landing that would wrap the
  // counter, thresholds in order, no filing beyond the occupancy's width and no phit
  // leaving an empty VC.
  logic live_q;  // set by the reset: checks start after it
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b1;
    else         live_q <= live_q;
  end
  always_ff @(posedge clk_i) begin
    if (live_q) begin
      assert (xon_at_i <= xoff_at_i) else $error("flow_control: XON %0d above XOFF %0d", xon_at_i, xoff_at_i);
      for (int unsigned v = 0; v < V; v++) begin
        assert (UB'(spend_i[v*CB +: CB]) <= credits_o[v*UB +: UB])
          else $error("flow_control: output VC %0d spends %0d phits with %0d credits", v, spend_i[v*CB +: CB], credits_o[v*UB +: UB]);
        assert ($signed({out_q[v*UB + UB - 1], out_q[v*UB +: UB]}) - $signed({1'b0, UB'(land_i[v*LB +: LB])})
                >= -$signed({2'b01, CB'(0)}))
          else $error("flow_control: output VC %0d: a landing of %0d credits wraps the counter", v, land_i[v*LB +: LB]);
        assert (occ_fill[v*UB + CB] == 1'b0)
          else $error("flow_control: input VC %0d filed beyond 2^CreditBits - 1 phits", v);
        assert (!drain_i[v] || occ_fill[v*UB +: UB] != '0)
          else $error("flow_control: input VC %0d: a phit leaves an empty VC", v);
      end
    end
  end
`endif
endmodule
