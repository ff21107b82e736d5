#include "tb/vcd_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace scfly {

VcdWriter::VcdWriter(sc_core::sc_module_name name, const std::string& path,
                     const sc_core::sc_time& period, uint64_t from, uint64_t to, bool scheduled)
    : sc_core::sc_module(name), m_path(path), m_out(path), m_period(period), m_from(from), m_to(to) {
  if (scheduled) return;  // sampled by the block scheduler's groups (sample_range)
  SC_HAS_PROCESS(VcdWriter);
  SC_METHOD(sample);  // first run at time 0 writes the header and waits for cycle `from`
}

VcdWriter::~VcdWriter() {
  // Close the dump at the last sampled cycle, so viewers show the whole traced window
  // even when nothing changed near its end.
  if (m_out && m_started && m_last_sampled != UINT64_MAX && m_last_sampled != m_last_stamp)
    m_out << '#' << m_last_sampled * m_period.value() << '\n';
  if (m_out) m_out.flush();
  if (m_out.is_open()) m_out.close();
  if (m_out.fail() && write_error().empty())
    write_error() = "--vcd: writing '" + m_path + "' failed: " + std::strerror(m_errno ? m_errno : EIO);
}

std::string& VcdWriter::write_error() {
  static std::string error;
  return error;
}

namespace {
// Identifier codes from '%'..'~' (90 printable characters), avoiding '#' and '$' so simple
// VCD parsers never mistake a value line for a time stamp or a keyword.
std::string id_code(size_t n) {
  std::string s;
  do {
    s.push_back(static_cast<char>('%' + n % 90));
    n /= 90;
  } while (n);
  return s;
}
std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t e; (e = s.find('.', b)) != std::string::npos; b = e + 1) out.push_back(s.substr(b, e - b));
  out.push_back(s.substr(b));
  return out;
}
}  // namespace

void VcdWriter::add(const std::string& scope, const std::string& var, const uint32_t* value) {
  m_vars.push_back(Var{scope, var, id_code(m_vars.size()), value, false, INT64_MIN});
}
void VcdWriter::add(const std::string& scope, const std::string& var, const int32_t* value) {
  m_vars.push_back(Var{scope, var, id_code(m_vars.size()), value, true, INT64_MIN});
}
void VcdWriter::add_bits(const std::string& scope, const std::string& var, const void* value, int bits) {
  if (bits < 1 || bits > 64) throw std::invalid_argument("VCD variable " + scope + "." + var + ": width " +
                                                         std::to_string(bits) + " not in 1..64");
  m_vars.push_back(Var{scope, var, id_code(m_vars.size()), value, false, INT64_MIN, bits});
}

// Variables are declared in the order they were added (the caller adds each scope's
// variables together), so the hierarchy follows the trace list, not string order.
void VcdWriter::write_header() {
  const std::time_t t = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  m_out << "$date " << date << " $end\n$version scfly VCD writer $end\n"
        << "$timescale 1ps $end\n";
  std::vector<std::string> open;
  for (const Var& v : m_vars) {
    const auto parts = split(v.scope);
    size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    while (open.size() > common) {
      m_out << "$upscope $end\n";
      open.pop_back();
    }
    for (size_t i = common; i < parts.size(); ++i) {
      m_out << "$scope module " << parts[i] << " $end\n";
      open.push_back(parts[i]);
    }
    m_out << "$var " << (v.is_signed ? "integer" : "wire") << ' ' << v.bits << ' ' << v.code << ' ' << v.name
          << " $end\n";
  }
  while (!open.empty()) {
    m_out << "$upscope $end\n";
    open.pop_back();
  }
  m_out << "$enddefinitions $end\n";
}

void VcdWriter::emit(const Var& v, int64_t x) {
  char bits[72];
  const uint64_t u = static_cast<uint64_t>(x);
  int n = 0;
  bool started = false;
  for (int b = v.bits - 1; b >= 0; --b) {
    const bool one = (u >> b) & 1U;
    if (one) started = true;
    if (started) bits[n++] = one ? '1' : '0';
  }
  if (!started) bits[n++] = '0';
  bits[n] = '\0';
  m_out << 'b' << bits << ' ' << v.code << '\n';
}

void VcdWriter::sample() {
  const uint64_t stamp = sc_core::sc_time_stamp().value();
  if (!m_started) {
    m_started = true;
    write_header();
    // Align to the middle of cycle m_from.
    const uint64_t first = m_from * m_period.value() + m_period.value() / 2;
    if (stamp < first) {
      next_trigger(sc_core::sc_time::from_value(first - stamp));
      return;
    }
  }
  const uint64_t cyc = stamp / m_period.value();
  const bool first = m_last_sampled == UINT64_MAX;
  bool stamped = false;
  for (Var& v : m_vars) {
    const int64_t x = read(v);
    if (x == v.last) continue;
    if (!stamped) {
      m_out << '#' << cyc * m_period.value() << '\n';
      if (first) m_out << "$dumpvars\n";
      stamped = true;
      m_last_stamp = cyc;
    }
    emit(v, x);
    v.last = x;
  }
  if (first && stamped) m_out << "$end\n";
  if (!m_out && m_errno == 0) m_errno = errno ? errno : EIO;  // the first failed write's reason
  m_last_sampled = cyc;
  if (cyc < m_to) next_trigger(m_period);
}

void VcdWriter::sample_range(size_t first, size_t last, uint64_t cycle, std::vector<Change>& log) {
  for (size_t i = first; i < last; ++i) {
    Var& v = m_vars[i];
    const int64_t x = read(v);
    if (x == v.last) continue;
    log.push_back(Change{cycle, static_cast<uint32_t>(i), x});
    v.last = x;
  }
}

void VcdWriter::write_window(std::vector<Change>& changes, uint64_t last_cycle) {
  if (!m_started) {
    m_started = true;
    write_header();
  }
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.var < b.var;
  });
  for (size_t i = 0; i < changes.size();) {
    const uint64_t cyc = changes[i].cycle;
    const bool first = m_last_stamp == UINT64_MAX;
    m_out << '#' << cyc * m_period.value() << '\n';
    if (first) m_out << "$dumpvars\n";
    m_last_stamp = cyc;
    for (; i < changes.size() && changes[i].cycle == cyc; ++i) emit(m_vars[changes[i].var], changes[i].value);
    if (first) m_out << "$end\n";
  }
  changes.clear();
  if (!m_out && m_errno == 0) m_errno = errno ? errno : EIO;
  if (last_cycle >= m_from) m_last_sampled = std::min(last_cycle, m_to);
}

}  // namespace scfly
