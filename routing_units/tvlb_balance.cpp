#include "routing_units/tvlb_balance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace scfly {

namespace {

// The usage model of a rule's sets: per inter-group pair its intermediates, per intermediate
// the probability that a packet through it crosses each channel, by hop position (entries)
// and summed over positions (agg).
struct Entry {
  int32_t ch;
  int32_t pos;
  double w;
};
struct Agg {
  int32_t ch;
  double u;
};
struct Inter {
  int sw;
  double hops;                 // the mean hops of a packet through it
  uint32_t e0, e1, a0, a1;     // [e0, e1) into entries, [a0, a1) into agg
};
struct Pair {
  int s, d;
  uint32_t i0, i1;             // [i0, i1) into inters
  int alive, floor;
};

struct Model {
  const Dragonfly& t;
  TvlbChannels ch;
  std::vector<Pair> pairs;
  std::vector<Inter> inters;
  std::vector<Entry> entries;
  std::vector<Agg> agg;
  std::vector<char> alive;
  std::vector<double> use;     // sum over pairs of P_sd(l)

  Model(const Dragonfly& topo, const TvlbRule& rule, const TvlbRemovals* removed, bool generic)
      : t(topo), ch(topo), use(static_cast<size_t>(ch.count()), 0.0) {
    const int S = t.num_switches();
    std::vector<TvlbPath> p1, p2;
    std::vector<Entry> tmp;
    for (int s = 0; s < S; ++s)
      for (int d = 0; d < S; ++d) {
        if (t.group_of(s) == t.group_of(d)) continue;
        const std::vector<int> set = tvlb_rule_set(t, s, d, rule);
        Pair p{s, d, static_cast<uint32_t>(inters.size()), 0, 0, 0};
        const int full = static_cast<int>(set.size());
        for (int i : set) {
          if (removed && removed->removed(s, d, i)) continue;
          tvlb_segment_paths(t, ch, s, i, generic, p1);
          tvlb_segment_paths(t, ch, i, d, generic, p2);
          tmp.clear();
          double hops = 0;
          int off = 0;
          for (const std::vector<TvlbPath>* seg : {&p1, &p2}) {
            const double w = 1.0 / static_cast<double>(seg->size());
            int len = 0;
            for (const TvlbPath& x : *seg) {
              for (size_t k = 0; k < x.size(); ++k) tmp.push_back({x[k], off + static_cast<int>(k), w});
              hops += w * static_cast<double>(x.size());
              len = std::max(len, static_cast<int>(x.size()));
            }
            off += len;  // fewest-hop ties all have one length; generic ones may not (positions approximate)
          }
          Inter in{i, hops, 0, 0, 0, 0};
          // Merge equal (pos, channel) entries, then equal channels.
          std::sort(tmp.begin(), tmp.end(),
                    [](const Entry& a, const Entry& b) { return a.pos != b.pos ? a.pos < b.pos : a.ch < b.ch; });
          in.e0 = static_cast<uint32_t>(entries.size());
          for (const Entry& e : tmp) {
            if (entries.size() > in.e0 && entries.back().pos == e.pos && entries.back().ch == e.ch)
              entries.back().w += e.w;
            else
              entries.push_back(e);
          }
          in.e1 = static_cast<uint32_t>(entries.size());
          std::sort(tmp.begin(), tmp.end(), [](const Entry& a, const Entry& b) { return a.ch < b.ch; });
          in.a0 = static_cast<uint32_t>(agg.size());
          for (const Entry& e : tmp) {
            if (agg.size() > in.a0 && agg.back().ch == e.ch)
              agg.back().u += e.w;
            else
              agg.push_back({e.ch, e.w});
          }
          in.a1 = static_cast<uint32_t>(agg.size());
          inters.push_back(in);
        }
        p.i1 = static_cast<uint32_t>(inters.size());
        p.alive = static_cast<int>(p.i1 - p.i0);
        p.floor = (full + 1) / 2;
        pairs.push_back(p);
      }
    alive.assign(inters.size(), 1);
    for (const Pair& p : pairs) add_pair(p, +1);
  }

  // Adds (sign +1) or subtracts (-1) the pair's P_sd to `use`.
  void add_pair(const Pair& p, double sign) {
    if (p.alive == 0) return;
    const double f = sign / static_cast<double>(p.alive);
    for (uint32_t k = p.i0; k < p.i1; ++k) {
      if (!alive[k]) continue;
      for (uint32_t a = inters[k].a0; a < inters[k].a1; ++a) use[static_cast<size_t>(agg[a].ch)] += f * agg[a].u;
    }
  }

  void remove(Pair& p, uint32_t k) {
    add_pair(p, -1);
    alive[k] = 0;
    --p.alive;
    add_pair(p, +1);
  }
  void restore(Pair& p, uint32_t k) {
    add_pair(p, -1);
    alive[k] = 1;
    ++p.alive;
    add_pair(p, +1);
  }
  // max U / mean U of the channel class (0 local, 1 global) over its bound: the global rule's
  // objective is the larger of the two.
  double excess(int cls, double tau) const {
    double mx = 0, mn = 0;
    if (cls == 0) ratios(0, ch.locals(), mx, mn);
    else ratios(ch.locals(), ch.count(), mx, mn);
    return mx / tau;
  }

  TvlbUsage usage() const {
    TvlbUsage u;
    long long n = 0;
    double size = 0, hops = 0;
    for (const Pair& p : pairs) {
      if (p.alive == 0) continue;
      ++n;
      size += p.alive;
      double h = 0;
      for (uint32_t k = p.i0; k < p.i1; ++k)
        if (alive[k]) h += inters[k].hops;
      hops += h / p.alive;
    }
    if (n == 0) return u;
    u.intermediates = size / static_cast<double>(n);
    u.hops = hops / static_cast<double>(n);
    ratios(0, ch.locals(), u.local_max, u.local_min);
    ratios(ch.locals(), ch.count(), u.global_max, u.global_min);
    return u;
  }

  void ratios(int from, int to, double& mx, double& mn) const {
    double sum = 0, hi = 0, lo = 1e300;
    for (int c = from; c < to; ++c) {
      const double x = use[static_cast<size_t>(c)];
      sum += x;
      hi = std::max(hi, x);
      lo = std::min(lo, x);
    }
    const double mean = to > from ? sum / (to - from) : 0;
    mx = mean > 0 ? hi / mean : 0;
    mn = mean > 0 ? lo / mean : 0;
  }

  // The local rule on one pair: returns the intermediates removed; `left` set if a group
  // stays above tau because of the floor.
  int balance_pair(Pair& p, double tau, bool& flagged, bool& left) {
    struct Cell {
      int pos, cls, ch;
      double sum;
    };
    std::vector<Cell> cells;
    int removed = 0;
    double prev = 0;        // the worst ratio before the last removal
    uint32_t last = p.i1;   // the last removal (undone if it did not lower the worst ratio)
    for (;;) {
      cells.clear();
      for (uint32_t k = p.i0; k < p.i1; ++k) {
        if (!alive[k]) continue;
        for (uint32_t e = inters[k].e0; e < inters[k].e1; ++e)
          cells.push_back({entries[e].pos, entries[e].ch >= ch.locals() ? 1 : 0, entries[e].ch, entries[e].w});
      }
      std::sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) {
        return a.pos != b.pos ? a.pos < b.pos : a.cls != b.cls ? a.cls < b.cls : a.ch < b.ch;
      });
      // Merge equal channels within (pos, cls).
      size_t m = 0;
      for (size_t k = 0; k < cells.size(); ++k) {
        if (m > 0 && cells[m - 1].pos == cells[k].pos && cells[m - 1].cls == cells[k].cls &&
            cells[m - 1].ch == cells[k].ch)
          cells[m - 1].sum += cells[k].sum;
        else
          cells[m++] = cells[k];
      }
      cells.resize(m);
      // The worst group: its ratio and busiest channel.
      double worst = tau;
      int w_pos = -1, w_ch = -1;
      for (size_t b = 0; b < cells.size();) {
        size_t e = b;
        double sum = 0, hi = 0;
        int hi_ch = -1;
        while (e < cells.size() && cells[e].pos == cells[b].pos && cells[e].cls == cells[b].cls) {
          sum += cells[e].sum;
          if (cells[e].sum > hi) {
            hi = cells[e].sum;
            hi_ch = cells[e].ch;
          }
          ++e;
        }
        const size_t n = e - b;
        if (n >= 2) {
          const double ratio = hi / (sum / static_cast<double>(n));
          if (ratio > worst + 1e-12) {
            worst = ratio;
            w_pos = cells[b].pos;
            w_ch = hi_ch;
          }
        }
        b = e;
      }
      if (last != p.i1 && (w_ch < 0 ? 0.0 : worst) >= prev - 1e-12) {
        // The last removal made the pair no better (its paths are structurally uneven):
        // undo it and stop.
        restore(p, last);
        --removed;
        left = true;
        return removed;
      }
      if (w_ch < 0) return removed;
      flagged = true;
      if (p.alive <= p.floor) {
        left = true;
        return removed;
      }
      // The intermediate contributing most to (w_pos, w_ch).
      uint32_t best = p.i1;
      double bw = 0;
      for (uint32_t k = p.i0; k < p.i1; ++k) {
        if (!alive[k]) continue;
        for (uint32_t e = inters[k].e0; e < inters[k].e1; ++e) {
          if (entries[e].pos != w_pos || entries[e].ch != w_ch) continue;
          const double w = entries[e].w;
          if (best == p.i1 || w > bw + 1e-12 ||
              (std::abs(w - bw) <= 1e-12 && (inters[k].hops > inters[best].hops + 1e-12 ||
                                             (std::abs(inters[k].hops - inters[best].hops) <= 1e-12 &&
                                              inters[k].sw > inters[best].sw)))) {
            best = k;
            bw = w;
          }
        }
      }
      if (best == p.i1) return removed;  // cannot happen: the channel is used by someone alive
      remove(p, best);
      ++removed;
      prev = worst;
      last = best;
    }
  }
};

uint32_t pair_of(const std::vector<Pair>& pairs, uint32_t k) {
  auto it = std::upper_bound(pairs.begin(), pairs.end(), k, [](uint32_t x, const Pair& p) { return x < p.i1; });
  return static_cast<uint32_t>(it - pairs.begin());
}

TvlbRemovals collect(const Model& m, int S) {
  TvlbRemovals r;
  r.switches = S;
  for (const Pair& p : m.pairs)
    for (uint32_t k = p.i0; k < p.i1; ++k)
      if (!m.alive[k]) r.keys.push_back(TvlbRemovals::key(S, p.s, p.d, m.inters[k].sw));
  std::sort(r.keys.begin(), r.keys.end());
  return r;
}

nlohmann::json usage_json(const TvlbUsage& u) {
  return {{"local_max_over_mean", u.local_max},   {"local_min_over_mean", u.local_min},
          {"global_max_over_mean", u.global_max}, {"global_min_over_mean", u.global_min},
          {"intermediates", u.intermediates},     {"vlb_hops", u.hops}};
}

bool parse_class(const std::string& s, TvlbClass& out) {
  for (TvlbClass c : {TvlbClass::All, TvlbClass::I3, TvlbClass::I4, TvlbClass::I5, TvlbClass::I5Src,
                      TvlbClass::I5Dst, TvlbClass::I6})
    if (s == to_string(c)) {
      out = c;
      return true;
    }
  return false;
}

}  // namespace

TvlbUsage tvlb_usage(const Dragonfly& t, const TvlbRule& rule, const TvlbRemovals* removed, bool generic) {
  return Model(t, rule, removed, generic).usage();
}

TvlbRemovals tvlb_balance(const Dragonfly& t, const TvlbRule& rule, const TvlbBalanceOptions& opt,
                          TvlbBalanceReport* report) {
  const auto t0 = std::chrono::steady_clock::now();
  Model m(t, rule, nullptr, false);
  TvlbBalanceReport r;
  r.rule = rule;
  r.opt = opt;
  r.pairs = static_cast<long long>(m.pairs.size());
  r.intermediates = static_cast<long long>(m.inters.size());
  r.before = m.usage();

  if (opt.tau_local > 0)
    for (Pair& p : m.pairs) {
      bool flagged = false, left = false;
      r.removed_local += m.balance_pair(p, opt.tau_local, flagged, left);
      r.local_flagged += flagged;
      r.local_left += left;
    }

  if (opt.tau_global > 0) {
    // channel -> the intermediates using it, in intermediate order (so by pair).
    const int L = m.ch.count(), locals = m.ch.locals();
    std::vector<std::vector<std::pair<uint32_t, double>>> index(static_cast<size_t>(L));
    for (uint32_t k = 0; k < m.inters.size(); ++k)
      for (uint32_t a = m.inters[k].a0; a < m.inters[k].a1; ++a)
        index[static_cast<size_t>(m.agg[a].ch)].push_back({k, m.agg[a].u});
    std::vector<uint32_t> pair_of_inter(m.inters.size());
    for (uint32_t k = 0; k < m.inters.size(); ++k) pair_of_inter[k] = pair_of(m.pairs, k);
    std::vector<char> stuck(static_cast<size_t>(L), 0);
    for (;;) {
      // The class further above its bound, and its busiest channel that can still be lowered.
      int pick = -1;
      double pick_excess = 1.0;
      for (int cls = 0; cls < 2; ++cls) {
        const int from = cls ? locals : 0, to = cls ? L : locals;
        double sum = 0;
        for (int c = from; c < to; ++c) sum += m.use[static_cast<size_t>(c)];
        const double mean = to > from ? sum / (to - from) : 0;
        if (mean <= 0) continue;
        int hi_c = -1;
        double hi = 0;
        for (int c = from; c < to; ++c)
          if (!stuck[static_cast<size_t>(c)] && m.use[static_cast<size_t>(c)] > hi) {
            hi = m.use[static_cast<size_t>(c)];
            hi_c = c;
          }
        const double excess = hi / mean / opt.tau_global;
        if (hi_c >= 0 && excess > pick_excess + 1e-12) {
          pick_excess = excess;
          pick = hi_c;
        }
      }
      if (pick < 0) break;
      // The (pair, intermediate) lowering its pair's P_sd(pick) the most.
      const auto& users = index[static_cast<size_t>(pick)];
      double best_gain = 1e-12;
      uint32_t best = UINT32_MAX;
      for (size_t b = 0; b < users.size();) {
        const uint32_t pi = pair_of_inter[users[b].first];
        size_t e = b;
        double A = 0;
        while (e < users.size() && pair_of_inter[users[e].first] == pi) {
          if (m.alive[users[e].first]) A += users[e].second;
          ++e;
        }
        const Pair& p = m.pairs[pi];
        if (p.alive > p.floor && p.alive > 1) {
          const double n = p.alive;
          for (size_t k = b; k < e; ++k) {
            if (!m.alive[users[k].first]) continue;
            const double gain = A / n - (A - users[k].second) / (n - 1);
            if (gain > best_gain + 1e-15) {
              best_gain = gain;
              best = users[k].first;
            }
          }
        }
        b = e;
      }
      if (best == UINT32_MAX) {
        stuck[static_cast<size_t>(pick)] = 1;
        continue;
      }
      // Kept only if it lowers the objective (the larger excess of the two classes): a
      // removal moves the pair's traffic onto its other intermediates, which may load another
      // channel more than it relieves this one.
      const double before = std::max(m.excess(0, opt.tau_global), m.excess(1, opt.tau_global));
      m.remove(m.pairs[pair_of_inter[best]], best);
      if (std::max(m.excess(0, opt.tau_global), m.excess(1, opt.tau_global)) >= before - 1e-12) {
        m.restore(m.pairs[pair_of_inter[best]], best);
        stuck[static_cast<size_t>(pick)] = 1;
        continue;
      }
      ++r.removed_global;
    }
  }

  r.after = m.usage();
  r.global_reached = opt.tau_global <= 0 ||
                     (r.after.local_max <= opt.tau_global + 1e-9 && r.after.global_max <= opt.tau_global + 1e-9);
  for (const Pair& p : m.pairs) {
    r.pairs_changed += p.alive < static_cast<int>(p.i1 - p.i0);
    r.pairs_at_floor += p.alive < static_cast<int>(p.i1 - p.i0) && p.alive <= p.floor;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (report) *report = r;
  return collect(m, t.num_switches());
}

std::string tvlb_rule_overrides(const TvlbRule& r) {
  std::string o = "ugal.vlb_set=" + std::string(to_string(r.set));
  if (r.percent > 0) o += " ugal.vlb_percent=" + std::to_string(r.percent);
  if (r.percent > 0 && r.seed != 1) o += " ugal.vlb_seed=" + std::to_string(r.seed);
  return o;
}

nlohmann::json to_json(const TvlbBalanceReport& r) {
  return {{"tau_global", r.opt.tau_global},
          {"tau_local", r.opt.tau_local},
          {"pairs", r.pairs},
          {"intermediates", r.intermediates},
          {"removed_local", r.removed_local},
          {"removed_global", r.removed_global},
          {"removed_fraction", r.intermediates ? static_cast<double>(r.removed()) / r.intermediates : 0.0},
          {"pairs_changed", r.pairs_changed},
          {"pairs_at_floor", r.pairs_at_floor},
          {"local_flagged", r.local_flagged},
          {"local_left", r.local_left},
          {"global_reached", r.global_reached},
          {"before", usage_json(r.before)},
          {"after", usage_json(r.after)},
          {"seconds", r.seconds}};
}

std::string format(const TvlbBalanceReport& r) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3);
  o << "T-VLB " << to_string(r.rule.set);
  if (r.rule.percent > 0) o << " +" << r.rule.percent << " % (seed " << r.rule.seed << ")";
  o << ", load-balance rule tau_local " << r.opt.tau_local << ", tau_global " << r.opt.tau_global << ":\n";
  o << "  removed " << r.removed() << " of " << r.intermediates << " intermediates ("
    << std::setprecision(2) << (r.intermediates ? 100.0 * r.removed() / r.intermediates : 0.0) << " %: "
    << r.removed_local << " by the local rule, " << r.removed_global << " by the global rule) from "
    << r.pairs_changed << " of " << r.pairs << " pairs; " << r.pairs_at_floor << " pairs at the floor\n";
  o << std::setprecision(3);
  o << "  local rule: " << r.local_flagged << " pairs above tau_local, " << r.local_left
    << " left above it (at the floor, or no removal lowered the pair's worst ratio)\n";
  auto row = [&](const char* what, const TvlbUsage& u) {
    o << "  " << what << ": local U max/min over mean " << u.local_max << "/" << u.local_min << ", global "
      << u.global_max << "/" << u.global_min << ", " << std::setprecision(1) << u.intermediates
      << " intermediates, " << std::setprecision(2) << u.hops << " VLB hops\n"
      << std::setprecision(3);
  };
  row("before", r.before);
  row("after ", r.after);
  if (!r.global_reached) o << "  tau_global not reached: no removal lowers the imbalance any more (or the pairs are at the floor)\n";
  o << "  (" << std::setprecision(2) << r.seconds << " s)\n";
  return o.str();
}

nlohmann::json tvlb_paths_json(const Dragonfly& t, const TvlbRule& rule, const TvlbRemovals& removed,
                               const TvlbBalanceReport* report) {
  nlohmann::json j;
  j["format"] = "scfly-tvlb-paths";
  j["version"] = 1;
  j["topology"] = t.describe();
  j["set"] = to_string(rule.set);
  j["percent"] = rule.percent;
  j["seed"] = rule.seed;
  j["overrides"] = tvlb_rule_overrides(rule);
  if (report) j["balance"] = to_json(*report);
  j["after"] = usage_json(tvlb_usage(t, rule, &removed));
  nlohmann::json list = nlohmann::json::array();
  const int S = t.num_switches();
  for (size_t k = 0; k < removed.keys.size();) {
    const uint64_t pair = removed.keys[k] / static_cast<uint64_t>(S);
    nlohmann::json is = nlohmann::json::array();
    while (k < removed.keys.size() && removed.keys[k] / static_cast<uint64_t>(S) == pair)
      is.push_back(static_cast<int>(removed.keys[k++] % static_cast<uint64_t>(S)));
    list.push_back({static_cast<int>(pair / static_cast<uint64_t>(S)), static_cast<int>(pair % static_cast<uint64_t>(S)),
                    is});
  }
  j["removed"] = list;
  return j;
}

TvlbPathFile read_tvlb_paths(const std::string& path, const Dragonfly& t) {
  auto fail = [&](const std::string& why) { throw std::runtime_error("path file '" + path + "': " + why); };
  std::ifstream in(path);
  if (!in) fail("cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("is not JSON (") + e.what() + ")");
  }
  if (!j.is_object() || j.value("format", "") != "scfly-tvlb-paths")
    fail("is not a T-VLB path file (no \"format\": \"scfly-tvlb-paths\"; write one with scfly tvlb CONFIG --paths FILE)");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    fail("has version " + (j.contains("version") ? j["version"].dump() : std::string("none")) + "; this scfly reads version 1");
  const std::string topo = j.value("topology", "");
  if (topo != t.describe())
    fail("was made for " + (topo.empty() ? std::string("no topology") : topo) + ", not for " + t.describe() +
         "; write one for this network with scfly tvlb CONFIG --paths FILE");
  TvlbPathFile f;
  if (!j.contains("set") || !j["set"].is_string() || !parse_class(j["set"].get<std::string>(), f.rule.set) ||
      f.rule.set == TvlbClass::All)
    fail("key 'set': " + (j.contains("set") ? j["set"].dump() : std::string("missing")) +
         "; allowed: i3, i4, i5, i5src, i5dst, i6");
  if (!j.contains("percent") || !j["percent"].is_number_integer() || j["percent"].get<int>() < 0 ||
      j["percent"].get<int>() > 99)
    fail("key 'percent': " + (j.contains("percent") ? j["percent"].dump() : std::string("missing")) +
         "; allowed: an integer 0-99");
  f.rule.percent = j["percent"].get<int>();
  if (f.rule.percent > 0 && f.rule.set != TvlbClass::I3 && f.rule.set != TvlbClass::I4 && f.rule.set != TvlbClass::I5)
    fail("key 'percent': " + std::to_string(f.rule.percent) + " with set " + to_string(f.rule.set) +
         "; a fraction needs set i3, i4 or i5");
  if (!j.contains("seed") || !j["seed"].is_number_unsigned())
    fail("key 'seed': " + (j.contains("seed") ? j["seed"].dump() : std::string("missing")) +
         "; allowed: an integer >= 0");
  f.rule.seed = j["seed"].get<uint64_t>();
  if (!j.contains("removed") || !j["removed"].is_array())
    fail("key 'removed': missing or not a list of [s, d, [i, ...]]");
  const int S = t.num_switches();
  f.removed.switches = S;
  size_t n = 0;
  std::vector<uint64_t> listed;
  for (const nlohmann::json& e : j["removed"]) {
    const std::string where = "entry " + std::to_string(n++) + " of 'removed' (" + e.dump().substr(0, 60) + ")";
    if (!e.is_array() || e.size() != 3 || !e[0].is_number_integer() || !e[1].is_number_integer() || !e[2].is_array())
      fail(where + ": not [s, d, [i, ...]]");
    const int s = e[0].get<int>(), d = e[1].get<int>();
    if (s < 0 || s >= S || d < 0 || d >= S || t.group_of(s) == t.group_of(d))
      fail(where + ": s and d must be switches 0-" + std::to_string(S - 1) + " in different groups");
    listed.push_back(static_cast<uint64_t>(s) * static_cast<uint64_t>(S) + static_cast<uint64_t>(d));
    const std::vector<int> set = tvlb_rule_set(t, s, d, f.rule);
    int prev = -1;
    for (const nlohmann::json& x : e[2]) {
      if (!x.is_number_integer()) fail(where + ": an intermediate is not an integer");
      const int i = x.get<int>();
      if (i <= prev) fail(where + ": the intermediates must ascend without repeats");
      if (!std::binary_search(set.begin(), set.end(), i))
        fail(where + ": switch " + std::to_string(i) + " is not in the " + to_string(f.rule.set) + " set of (" +
             std::to_string(s) + ", " + std::to_string(d) + ")");
      prev = i;
      f.removed.keys.push_back(TvlbRemovals::key(S, s, d, i));
    }
    if (e[2].size() >= set.size())
      fail(where + ": removes every intermediate of the pair (at least one must stay)");
  }
  std::sort(listed.begin(), listed.end());
  if (auto it = std::adjacent_find(listed.begin(), listed.end()); it != listed.end())
    fail("'removed' lists the pair (" + std::to_string(*it / static_cast<uint64_t>(S)) + ", " +
         std::to_string(*it % static_cast<uint64_t>(S)) + ") twice");
  std::sort(f.removed.keys.begin(), f.removed.keys.end());
  return f;
}

}  // namespace scfly
