// threshold-val's decision rule in SystemVerilog: the RTL variant of the plug-in's choice
// between its minimal and its Valiant path (threshold_val.cpp). Combinational; the paths
// themselves come from scfly's building blocks (route_min, route_val), which have RTL twins
// of their own (`--rtl min_route`).
//
// At the source switch (the head arrived on a host port) a packet goes Valiant when it does
// not eject here and the minimal output port's queue holds more than `threshold` phits. In
// transit it keeps the path chosen at the source (on_valiant: the header has an intermediate
// switch or is in its second segment).
module threshold_val (
    input  logic        at_source,   // the head arrived on a host port
    input  logic        ejects,      // the destination is attached to this switch
    input  logic [31:0] queued,      // phits queued at the minimal output port
    input  logic [31:0] threshold,   // threshold_val.phits
    input  logic        on_valiant,  // in transit: the header is on a Valiant path
    output logic        valiant      // take (or stay on) the Valiant path
);
  always_comb begin
    if (at_source) valiant = !ejects && (queued > threshold);
    else valiant = on_valiant;
  end
endmodule
