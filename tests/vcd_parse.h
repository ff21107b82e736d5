// A VCD file as every variable's value at every time stamp, for whole-network tests that
// check traced behaviour (test_rtl_network.cpp, test_pfc.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

// A VCD as {full variable name -> value at every time stamp of the file} (values held
// between changes; bit vectors read as unsigned integers).
struct Waves {
  std::vector<uint64_t> times;
  std::map<std::string, std::vector<uint64_t>> values;
};

inline Waves parse_vcd(const std::string& text) {
  Waves w;
  std::map<std::string, std::string> by_code;  // code -> full name
  std::vector<std::string> scope;
  std::map<std::string, uint64_t> now;  // full name -> current value
  std::istringstream in(text);
  std::string line;
  bool defs = true, have_time = false;
  auto flush = [&] {
    if (!have_time) return;
    for (const auto& [name, v] : now) w.values[name].push_back(v);
  };
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tok;
    ls >> tok;
    if (defs) {
      if (tok == "$scope") {
        std::string kind, name;
        ls >> kind >> name;
        scope.push_back(name);
      } else if (tok == "$upscope") {
        scope.pop_back();
      } else if (tok == "$var") {
        std::string kind, width, code, name, full;
        ls >> kind >> width >> code >> name;
        for (const auto& s : scope) full += s + ".";
        by_code[code] = full + name;
        now[full + name] = 0;
      } else if (tok == "$enddefinitions") {
        defs = false;
      }
      continue;
    }
    if (tok.empty() || tok[0] == '$') continue;
    if (tok[0] == '#') {
      flush();
      w.times.push_back(std::stoull(tok.substr(1)));
      have_time = true;
    } else if (tok[0] == 'b') {
      std::string code;
      ls >> code;
      now[by_code.at(code)] = std::stoull(tok.substr(1), nullptr, 2);
    }
  }
  flush();
  return w;
}

