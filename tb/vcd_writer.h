// A small VCD writer for switch state. It samples registered integer variables once per
// cycle, half a cycle after the clock edge (so every switch has finished that cycle, in any
// evaluation order), only inside the [from, to] cycle window, and writes only changes.
// Variables are named by the SystemC hierarchy (e.g. net.sw3.in2_local_vc1_occ). Unsigned
// values are `wire 32` (GTKWave shows them as name[31:0]), signed ones `integer 32`;
// Verilated nets are `wire N` at their Verilog width (add_bits). The
// first sample is a $dumpvars block; the file ends with the last sampled cycle's stamp.
// Stamps are the cycle's rising edge in ps (timescale 1ps, SystemC's default resolution).
// When no VCD is requested the writer is not instantiated, so tracing off costs nothing.
//
// On the block scheduler (`scheduled`: tb/network.h) the writer has no process: each traced
// switch's group samples its own variables (a contiguous range of them) after every cycle it
// runs in the window, into a log of changes (sample_range, on the thread running the group),
// and the network writes the window's changes in (cycle, variable) order at the window's end
// (write_window). A switch's variables change only when its group runs, so the file is the
// kernel's, byte for byte (but for the $date line).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <systemc>

namespace scfly {

class VcdWriter : public sc_core::sc_module {
 public:
  VcdWriter(sc_core::sc_module_name name, const std::string& path,
            const sc_core::sc_time& period, uint64_t from, uint64_t to, bool scheduled = false);
  ~VcdWriter() override;
  // `scope` is a dotted SystemC hierarchy name; the value is sampled through the pointer.
  void add(const std::string& scope, const std::string& var, const uint32_t* value);
  void add(const std::string& scope, const std::string& var, const int32_t* value);
  // A Verilated net of `bits` (1..64) bits stored as Verilator does: uint8_t up to 8 bits,
  // uint16_t up to 16, uint32_t up to 32, uint64_t up to 64.
  void add_bits(const std::string& scope, const std::string& var, const void* value, int bits);
  // The first failed VCD write of this process ("--vcd: writing 'F' failed: REASON"), set
  // when a writer whose writes failed is destroyed (the network destroys it at the run's
  // end); "" when every write succeeded.
  static std::string& write_error();

  // The block scheduler (see above). A change of variable `var` to `value` in `cycle`.
  struct Change {
    uint64_t cycle;
    uint32_t var;
    int64_t value;
  };
  size_t size() const { return m_vars.size(); }  // variables added so far
  uint64_t from() const { return m_from; }
  uint64_t to() const { return m_to; }
  // Variables [first, last) as they are at the end of `cycle`: their changes into `log`.
  void sample_range(size_t first, size_t last, uint64_t cycle, std::vector<Change>& log);
  // The changes of a window whose last cycle is `last_cycle` (every range's log, in any
  // order; cleared): written in cycle order, each cycle's in variable order.
  void write_window(std::vector<Change>& changes, uint64_t last_cycle);

 private:
  struct Var {
    std::string scope, name, code;
    const void* ptr;
    bool is_signed;
    int64_t last;
    int bits = 32;
  };
  void sample();
  void write_header();
  static int64_t read(const Var& v) {
    if (v.is_signed) return *static_cast<const int32_t*>(v.ptr);
    if (v.bits <= 8) return *static_cast<const uint8_t*>(v.ptr);
    if (v.bits <= 16) return *static_cast<const uint16_t*>(v.ptr);
    if (v.bits <= 32) return *static_cast<const uint32_t*>(v.ptr);
    return static_cast<int64_t>(*static_cast<const uint64_t*>(v.ptr));
  }
  void emit(const Var& v, int64_t x);

  std::string m_path;
  std::ofstream m_out;
  int m_errno = 0;  // errno of the first failed write
  sc_core::sc_time m_period;
  uint64_t m_from, m_to;
  bool m_started = false;
  uint64_t m_last_sampled = UINT64_MAX;  // last cycle sampled
  uint64_t m_last_stamp = UINT64_MAX;    // last cycle written as a time stamp
  std::vector<Var> m_vars;
};

}  // namespace scfly
