// Dragonfly minimal route unit, palmtree arrangement (canonical dfly(p,a,h), g = a*h+1):
// one minimal hop toward a target switch, with the hop-slot VC rule. Combinational.
// RTL mirror of dragonfly_minimal_hop() in routing_units/minimal.cpp (palmtree: one global
// link per group pair, so no random exit choice): Kim et al. ISCA'08; ACOR paper sec. 2.3.
//   same group:   local port toward the target, VC 2*seg + global_done + shift;
//   other group:  the exit link is the group's link t = (G - Gt - 1) mod g (FOGSim's
//                 palmtree orientation, topologies/dragonfly.h), owned by switch t / h on
//                 global port p + a - 1 + t mod h, unless already pinned in the header;
//                 at its owner take it (VC seg, global_done := 1, exit cleared), else a
//                 local hop toward the owner (VC 2*seg + global_done + shift).
// Ports: p hosts [0,p), a-1 local [p, p+a-1), h global after (the scfly port map).
module min_route #(
  parameter int unsigned P = 2,
  parameter int unsigned A = 4,
  parameter int unsigned H = 2,
  localparam int unsigned G = A * H + 1,
  localparam int unsigned GW = $clog2(G),
  localparam int unsigned AW = (A > 1) ? $clog2(A) : 1,
  localparam int unsigned PW = $clog2(P + A - 1 + H)
) (
  input  logic [GW-1:0] cur_group_i,
  input  logic [AW-1:0] cur_index_i,
  input  logic [GW-1:0] tgt_group_i,
  input  logic [AW-1:0] tgt_index_i,
  input  logic          segment_i,
  input  logic          global_done_i,
  input  logic          vc_shift_i,
  input  logic          exit_valid_i,    // an exit link is already pinned in the header
  input  logic [AW-1:0] exit_index_i,    // ... owned by this switch index of the group
  input  logic [PW-1:0] exit_port_i,     // ... on this global port
  output logic [PW-1:0] port_o,
  output logic [2:0]    vc_o,
  output logic          global_done_o,
  output logic          exit_valid_o,
  output logic [AW-1:0] exit_index_o,
  output logic [PW-1:0] exit_port_o
);
  localparam int unsigned TW = $clog2(A * H);
  logic [GW:0]   diff;
  logic [TW-1:0] t;
  logic [AW-1:0] own_index, exit_index, hop_to;
  logic [PW-1:0] own_port, exit_port, local_port;
  logic [2:0]    local_vc;
  logic          same_group, at_exit;

  // Group's exit link toward the target group (palmtree).
  assign diff      = {1'b0, cur_group_i} + (GW+1)'(G) - {1'b0, tgt_group_i} - (GW+1)'(1);
  assign t         = TW'((diff >= (GW+1)'(G)) ? diff - (GW+1)'(G) : diff);
  assign own_index = AW'(t / TW'(H));
  assign own_port  = PW'(P + A - 1) + PW'(t % TW'(H));
  assign local_vc  = {1'b0, segment_i, 1'b0} + {2'b0, global_done_i} + {2'b0, vc_shift_i};
  assign same_group = cur_group_i == tgt_group_i;
  assign exit_index = exit_valid_i ? exit_index_i : own_index;
  assign exit_port  = exit_valid_i ? exit_port_i : own_port;
  assign at_exit    = !same_group && (exit_index == cur_index_i);
  assign hop_to     = same_group ? tgt_index_i : exit_index;
  // Local port of this switch toward switch index hop_to (hop_to != cur_index).
  assign local_port = PW'(P) + ((hop_to < cur_index_i) ? PW'(hop_to) : PW'(hop_to) - PW'(1));

  always_comb begin
    port_o        = local_port;
    vc_o          = local_vc;
    global_done_o = global_done_i;
    exit_valid_o  = exit_valid_i;
    exit_index_o  = exit_index_i;
    exit_port_o   = exit_port_i;
    if (!same_group) begin
      exit_valid_o = 1'b1;  // chosen now, or kept as pinned
      exit_index_o = exit_index;
      exit_port_o  = exit_port;
    end
    if (at_exit) begin
      port_o        = exit_port;
      vc_o          = {2'b0, segment_i};
      global_done_o = 1'b1;
      exit_valid_o  = 1'b0;
      exit_index_o  = '0;
      exit_port_o   = '0;
    end
  end
endmodule
