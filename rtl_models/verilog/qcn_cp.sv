// QCN congestion points of one switch (802.1Qau as QCN-Switch uses it): per transit port
// the sample counter, Q_old and the quantized feedback, and the %CNM decision. Paper:
// Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive Routing Based on Explicit Congestion
// Notifications" (Concurrency and Computation: Practice and Experience, 2019) sec. 2.3
// (Fig. 2), 3.3 (input or output sampling), Table I; FOGSim's quantization of Fb (the paper
// gives its 6 bits and saturation only). RTL mirror of QcnCongestionPoint and
// qcn_feedback() (routing_units/qcn.h) and of the draw QcnUnit makes, compared in lockstep
// (tests/test_rtl_qcn_blocks.cpp) and co-simulated in every switch with `--rtl qcn_cp`.
//
// Per-port registers (port 0 .. NP-1): count, Q_old (the last sample's Q, also traced) and
// the last sample's Fb; Qeq per port is programmed through a write port (cfg_we_i) at reset. One update per
// clock edge on port_i:
//   count_i: count := count + n_i; when that reaches CPC, count := (count + n_i) mod CPC and
//            due_o (combinational, this edge) says a sample is due (several due at once are one);
//   sample_i: Fb = floor(63 c / (Qeq (1 + 2w))), c = clamp((Q - Qeq) + w (Q - Q_old), 0,
//            Qeq (1 + 2w)), with Q = q_i (saturated to 16 bits by the caller); fb_o shows it
//            before the edge, and the edge stores Q_old := Q, last Fb := Fb;
//   empty_i: a sample of an empty queue the switch skipped while asleep: Q_old, last Fb := 0.
// cnm_o (combinational, after the sample's edge): port_i's last sample, if its Fb > 0,
// emits a CNM iff 1 + floor(draw_i * 100 / 2^32) <= pct_i, the caller's draw word being the
// one Rng::below(100) would scale (drawn only for Fb > 0, as the C++ unit draws).
// Widths from scfly_pkg: Q and Qeq QueueBits (16), w QcnWBits (7, <= 64), CPC QcnCpcBits
// (20), Fb QcnFbBits (6), up to QcnPortsMax (32) ports.
module qcn_cp #(
  localparam int unsigned NP = scfly_pkg::QcnPortsMax,
  localparam int unsigned QB = scfly_pkg::QueueBits,
  localparam int unsigned WB = scfly_pkg::QcnWBits,
  localparam int unsigned CB = scfly_pkg::QcnCpcBits,
  localparam int unsigned FB = scfly_pkg::QcnFbBits,
  localparam int unsigned TB = scfly_pkg::TieBits,
  localparam int unsigned IW = $clog2(NP),
  localparam int unsigned RB = QB + WB + 2          // signed raw: (Q - Qeq) + w (Q - Q_old)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // programmed
  input  logic [WB-1:0] w_i,
  input  logic [CB-1:0] cpc_i,       // >= 1
  input  logic [6:0]    pct_i,       // %CNM, 0..100
  input  logic          cfg_we_i,    // write Qeq of port_i
  input  logic [QB-1:0] cfg_qeq_i,   // >= 1
  // one update per edge
  input  logic          count_i,
  input  logic [CB-1:0] n_i,
  input  logic          sample_i,
  input  logic [QB-1:0] q_i,
  input  logic          empty_i,
  input  logic [IW-1:0] port_i,
  input  logic [TB-1:0] draw_i,
  output logic          due_o,
  output logic [FB-1:0] fb_o,
  output logic          cnm_o,
  // read port (trace)
  input  logic [IW-1:0] rd_port_i,
  output logic [CB-1:0] count_o,
  output logic [QB-1:0] last_q_o,
  output logic [FB-1:0] last_fb_o
);
  localparam int unsigned SPB = QB + WB + 1;        // span = Qeq (1 + 2w)
  localparam int unsigned NB  = SPB + FB;           // 63 c

  logic [QB-1:0] qeq_q [NP];
  logic [QB-1:0] q_old_q [NP];
  logic [FB-1:0] last_fb_q [NP];
  logic [CB-1:0] count_q [NP];

  logic [CB:0]         sum_cnt;
  logic [CB-1:0]       count_d;
  logic signed [RB-1:0] raw;
  logic [SPB-1:0]      span, c;
  logic [NB-1:0]       num, fbq;
  logic [TB+6:0]       scaled;

  // Sample counter: count + n, modulo CPC once it reaches it.
  assign sum_cnt = {1'b0, count_q[port_i]} + {1'b0, n_i};
  assign due_o   = count_i && (sum_cnt >= {1'b0, cpc_i});
  assign count_d = due_o ? CB'(sum_cnt % {1'b0, cpc_i}) : sum_cnt[CB-1:0];
  // Feedback.
  assign raw  = $signed({2'b0, WB'(0), q_i}) - $signed({2'b0, WB'(0), qeq_q[port_i]})
              + $signed({(RB-WB)'(0), w_i}) * ($signed({2'b0, WB'(0), q_i}) - $signed({2'b0, WB'(0), q_old_q[port_i]}));
  assign span = SPB'(qeq_q[port_i]) * (SPB'(1) + (SPB'(w_i) << 1));
  assign c    = (raw < 0) ? '0 : ((SPB'(raw) > span) ? span : SPB'(raw));
  assign num  = NB'(c) * NB'(63);
  assign fbq  = num / NB'(span);
  assign fb_o = FB'(fbq);
  // %CNM draw: 1 + floor(draw * 100 / 2^32) <= pct.
  assign scaled = (TB + 7)'(draw_i) * (TB + 7)'(100);
  assign cnm_o  = (last_fb_q[port_i] != '0) && ((7'(scaled >> TB) + 7'(1)) <= pct_i);

  always_ff @(posedge clk_i) begin
    if (cfg_we_i) qeq_q[port_i] <= cfg_qeq_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < NP; i++) begin
        q_old_q[i]   <= '0;
        last_fb_q[i] <= '0;
        count_q[i]   <= '0;
      end
    end else if (count_i) begin
      count_q[port_i] <= count_d;
    end else if (sample_i) begin
      q_old_q[port_i]   <= q_i;
      last_fb_q[port_i] <= fb_o;
    end else if (empty_i) begin
      q_old_q[port_i]   <= '0;
      last_fb_q[port_i] <= '0;
    end
  end

  assign count_o   = count_q[rd_port_i];
  assign last_q_o  = q_old_q[rd_port_i];
  assign last_fb_o = last_fb_q[rd_port_i];

`ifndef SYNTHESIS
  logic live_q;  // set by the reset: checks start after it
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b1;
    else         live_q <= live_q;
  end
  // One update per edge; CPC and Qeq programmed non-zero; the feedback fits 6 bits (c <= span).
  always_ff @(posedge clk_i) begin
    if (live_q) begin
      assert (32'(count_i) + 32'(sample_i) + 32'(empty_i) + 32'(cfg_we_i) <= 1) else $error("qcn_cp: two updates on one edge");
      assert (cpc_i != '0) else $error("qcn_cp: CPC = 0");
      if (sample_i) assert (qeq_q[port_i] != '0) else $error("qcn_cp: Qeq of port %0d is 0", port_i);
      if (sample_i) assert (fbq <= NB'(63)) else $error("qcn_cp: feedback %0d above 63", fbq);
      if (count_i) assert (count_q[port_i] < cpc_i) else $error("qcn_cp: count at or past CPC");
    end
  end
`endif
endmodule
