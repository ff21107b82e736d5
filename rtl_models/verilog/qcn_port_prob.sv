// QCN-Switch port-probability unit of one switch: the "minimal port probability" P, the
// last feedback LastFb and the packet counter of each transit port, updated by
// notifications and by traffic. Paper: Benito, Vallejo, Izu, Beivide, "Non-minimal Adaptive
// Routing Based on Explicit Congestion Notifications" (Concurrency and Computation: Practice
// and Experience, 2019) sec. 3.1.2 (AIMD), 3.2 (feedback comparison, Fig. 5), 3.3.1 (source
// processing: local updates arrive here as CNMs), Table I.
// RTL mirror of QcnPortTable (routing_units/qcn.h), compared with it in lockstep
// (tests/test_rtl_qcn_blocks.cpp) and co-simulated in every switch with `--rtl qcn`.
//
// One update per clock edge, on transit port port_i (0 .. np_i-1):
//   cnm_i (a CNM with feedback fb_i):  the port's counter := 0, and
//     base AIMD (fbc_i = 0):      P := dec(P, fb);
//     feedback comparison:        sum := sum - LastFb + fb, LastFb := fb, avg := floor(sum / np_i);
//                                 fb + Th1 <= avg -> P := inc(P);  fb >= avg + Th2 -> P := dec(P, fb - avg);
//   pkt_i (one packet through the port): counter + 1; at PC_l the counter restarts and P := inc(P).
// (QcnPortTable::on_packets(port, n) is n such edges: the counter never jumps past PC_l.)
//   dec(P, x) = max(P_min, floor(P * (D - min(x, D)) / D)),  inc(P) = min(100 %, P + PI),
// with P in units of 2^-16 percent (100 % = 6,553,600), L_f = 1/D. The routing reads
// floor(P / 2^16), the integer percent (percent_o of the read port).
// A read port (rd_port_i) shows one port's registers; fb_avg_o is the last average.
// Widths from scfly_pkg: P 23 bits, Fb 6, D 17, counters 20, up to QcnPortsMax ports.
module qcn_port_prob #(
  localparam int unsigned NP  = scfly_pkg::QcnPortsMax,
  localparam int unsigned PB  = scfly_pkg::QcnPBits,
  localparam int unsigned FB  = scfly_pkg::QcnFbBits,
  localparam int unsigned DB  = scfly_pkg::QcnDenBits,
  localparam int unsigned CB  = scfly_pkg::QcnCntBits,
  localparam int unsigned IW  = $clog2(NP),          // port index
  localparam int unsigned NW  = $clog2(NP + 1),      // port count
  localparam int unsigned SB  = FB + NW              // sum of LastFb over the ports
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // programmed (held stable)
  input  logic [NW-1:0] np_i,        // transit ports, 1..NP
  input  logic          fbc_i,       // feedback comparison (sec. 3.2)
  input  logic [DB-1:0] lf_den_i,    // D of L_f = 1/D, 1..65536
  input  logic [CB-1:0] pc_limit_i,  // PC_l, >= 1
  input  logic [PB-1:0] pi_i,        // PI
  input  logic [PB-1:0] p_min_i,     // P_min
  input  logic [FB-1:0] th1_i,
  input  logic [FB-1:0] th2_i,
  // one update per edge
  input  logic          cnm_i,
  input  logic          pkt_i,
  input  logic [IW-1:0] port_i,
  input  logic [FB-1:0] fb_i,
  // read port
  input  logic [IW-1:0] rd_port_i,
  output logic [PB-1:0] p_o,
  output logic [6:0]    percent_o,
  output logic [FB-1:0] last_fb_o,
  output logic [CB-1:0] cnt_o,
  output logic [FB-1:0] fb_avg_o
);
  localparam logic [PB-1:0] PMax = PB'(100 * 65536);
  localparam int unsigned MW = PB + DB;              // P * (D - x)

  logic [PB-1:0] p_q [NP];
  logic [FB-1:0] last_fb_q [NP];
  logic [CB-1:0] cnt_q [NP];
  logic [SB-1:0] sum_q, sum_d;
  logic [FB-1:0] avg_q, avg_d;

  logic [PB-1:0] p_cur, p_inc, p_dec, p_next;
  logic [PB:0]   p_sum;
  logic [FB-1:0] x;
  logic [DB-1:0] keep;
  logic [MW-1:0] prod, quot;  // quot <= P: its upper DB bits are 0 (asserted)
  logic [CB:0]   cnt_inc;
  logic          pc_hit, raise, lower;

  assign p_cur = p_q[port_i];
  // inc: P + PI capped at 100 %.
  assign p_sum = {1'b0, p_cur} + {1'b0, pi_i};
  assign p_inc = (p_sum > {1'b0, PMax}) ? PMax : p_sum[PB-1:0];
  // The feedback comparison's sum and average with this CNM's Fb.
  assign sum_d = sum_q - SB'(last_fb_q[port_i]) + SB'(fb_i);
  assign avg_d = FB'(sum_d / SB'(np_i));
  assign raise = fbc_i && ({1'b0, fb_i} + {1'b0, th1_i} <= {1'b0, avg_d});
  assign lower = fbc_i ? ({1'b0, fb_i} >= {1'b0, avg_d} + {1'b0, th2_i}) : 1'b1;
  // dec: floor(P * (D - min(x, D)) / D), at least P_min; x = Fb (AIMD) or Fb - avg (FbC).
  assign x     = fbc_i ? fb_i - avg_d : fb_i;
  assign keep  = (DB'(x) >= lf_den_i) ? '0 : lf_den_i - DB'(x);
  assign prod  = MW'(p_cur) * MW'(keep);
  assign quot  = prod / MW'(lf_den_i);
  assign p_dec = (PB'(quot) > p_min_i) ? PB'(quot) : p_min_i;
  assign p_next = raise ? p_inc : (lower ? p_dec : p_cur);
  // A packet: the counter steps; reaching PC_l restarts it with an increase.
  assign cnt_inc = {1'b0, cnt_q[port_i]} + (CB + 1)'(1);
  assign pc_hit  = cnt_inc >= {1'b0, pc_limit_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < NP; i++) begin
        p_q[i]       <= PMax;
        last_fb_q[i] <= '0;
        cnt_q[i]     <= '0;
      end
      sum_q <= '0;
      avg_q <= '0;
    end else if (cnm_i) begin
      cnt_q[port_i] <= '0;
      p_q[port_i]   <= p_next;
      if (fbc_i) begin
        last_fb_q[port_i] <= fb_i;
        sum_q <= sum_d;
        avg_q <= avg_d;
      end
    end else if (pkt_i) begin
      if (pc_hit) begin
        cnt_q[port_i] <= CB'(cnt_inc - {1'b0, pc_limit_i});
        p_q[port_i]   <= p_inc;
      end else begin
        cnt_q[port_i] <= cnt_inc[CB-1:0];
      end
    end
  end

  assign p_o       = p_q[rd_port_i];
  assign percent_o = 7'(p_q[rd_port_i] >> 16);
  assign last_fb_o = last_fb_q[rd_port_i];
  assign cnt_o     = cnt_q[rd_port_i];
  assign fb_avg_o  = avg_q;

`ifndef SYNTHESIS
  // Programmed ranges; one update at a time on a transit port; P never above 100 % nor
  // below P_min once it has been decreased; the counter stays below PC_l.
  logic live_q;  // set by the reset: checks start after it
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b1;
    else         live_q <= live_q;
  end
  always_ff @(posedge clk_i) begin
    if (live_q) begin
      assert (np_i >= NW'(1) && np_i <= NW'(NP)) else $error("qcn_port_prob: %0d ports outside [1, %0d]", np_i, NP);
      assert (lf_den_i != '0 && pc_limit_i != '0) else $error("qcn_port_prob: D or PC_l is 0");
      assert (!(cnm_i && pkt_i)) else $error("qcn_port_prob: a CNM and a packet on one edge");
      if (cnm_i || pkt_i) assert (NW'(port_i) < np_i) else $error("qcn_port_prob: port %0d not a transit port", port_i);
      assert (p_cur <= PMax) else $error("qcn_port_prob: P above 100 %%");
      assert (quot[MW-1:PB] == '0) else $error("qcn_port_prob: P * keep / D above P");
      assert (CB'(cnt_q[port_i]) < pc_limit_i) else $error("qcn_port_prob: counter at or past PC_l");
    end
  end
`endif
endmodule
