#include "sc_main/tvlb_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <stdexcept>
#include <thread>

#include "ClpSimplex.hpp"
#include "CoinPackedMatrix.hpp"
#include "routing_units/minimal.h"
#include "routing_units/tvlb_balance.h"
#include "sc_main/config.h"
#include "sc_main/results_db.h"
#include "sc_main/sweep.h"
#include "topologies/common/rng.h"

namespace scfly {

namespace {

constexpr int kMaxHops = 8;  // VLB paths have at most 6 hops

// Paths of one flow grouped by (kind, hops): count and channel incidences.
struct PathClass {
  bool vlb = false;
  int hops = 0;
  long long n = 0;
  std::vector<std::pair<int, long long>> uses;  // (channel, paths crossing it), channel order
};

struct ClassBuilder {
  long long n[2][kMaxHops + 1] = {};
  std::vector<long long> uses[2][kMaxHops + 1];
  std::vector<int> touched[2][kMaxHops + 1];
  int L;
  explicit ClassBuilder(int channels) : L(channels) {}
  // One path: p1 followed by p2 (a VLB path's two segments) or p1 alone (p2 null).
  void add(bool vlb, const TvlbPath& p1, const TvlbPath* p2) {
    const int hops = static_cast<int>(p1.size() + (p2 ? p2->size() : 0));
    if (hops > kMaxHops) throw std::logic_error("tvlb model: a path of more than 8 hops");
    const int k = vlb ? 1 : 0;
    auto& u = uses[k][hops];
    if (u.empty()) u.assign(static_cast<size_t>(L), 0);
    ++n[k][hops];
    auto bump = [&](int c) {
      if (u[static_cast<size_t>(c)] == 0) touched[k][hops].push_back(c);
      ++u[static_cast<size_t>(c)];
    };
    for (int c : p1) bump(c);
    if (p2)
      for (int c : *p2) bump(c);
  }
  std::vector<PathClass> classes() {
    std::vector<PathClass> out;
    for (int k = 0; k < 2; ++k)
      for (int hops = 0; hops <= kMaxHops; ++hops) {
        if (n[k][hops] == 0) continue;
        PathClass c;
        c.vlb = k == 1;
        c.hops = hops;
        c.n = n[k][hops];
        auto& tl = touched[k][hops];
        std::sort(tl.begin(), tl.end());
        for (int ch : tl) c.uses.push_back({ch, uses[k][hops][static_cast<size_t>(ch)]});
        out.push_back(std::move(c));
      }
    return out;
  }
};

std::vector<PathClass> flow_classes(const Dragonfly& t, const TvlbChannels& ch, int s, int d, const TvlbPoint& point,
                                    uint64_t seed) {
  ClassBuilder b(ch.count());
  std::vector<TvlbPath> m, p1, p2;
  tvlb_segment_paths(t, ch, s, d, /*generic=*/true, m);
  for (const TvlbPath& p : m) b.add(false, p, nullptr);
  if (!point.min_only) {
    std::vector<int> inter;
    if (t.group_of(s) == t.group_of(d)) {
      for (int r = 0; r < t.a(); ++r) {
        const int i = t.switch_id(t.group_of(s), r);
        if (i != s && i != d) inter.push_back(i);
      }
    } else {
      inter = tvlb_point_set(t, s, d, point, seed);
    }
    for (int i : inter) {
      tvlb_segment_paths(t, ch, s, i, point.generic_segments, p1);
      tvlb_segment_paths(t, ch, i, d, point.generic_segments, p2);
      for (const TvlbPath& x : p1)
        for (const TvlbPath& y : p2) b.add(true, x, &y);
    }
  }
  return b.classes();
}

std::string percent_name(TvlbClass base, int percent) {
  const char* k = base == TvlbClass::I3 ? "4" : base == TvlbClass::I4 ? "5" : "6";
  return " +" + std::to_string(percent) + "% " + k + "-hop";
}

const char* le_name(TvlbClass c) {
  switch (c) {
    case TvlbClass::I3: return "<=3";
    case TvlbClass::I4: return "<=4";
    case TvlbClass::I5: return "<=5";
    default: return "all";
  }
}

}  // namespace

std::vector<int> tvlb_point_set(const Dragonfly& t, int s, int d, const TvlbPoint& p, uint64_t seed) {
  if (p.min_only) return {};
  return tvlb_rule_set(t, s, d, TvlbRule{p.base, p.percent, seed});
}

std::string tvlb_point_overrides(const TvlbPoint& p, uint64_t seed) {
  if (p.min_only || p.generic_segments) return {};
  std::string o = "ugal.vlb_set=" + std::string(to_string(p.base == TvlbClass::All ? TvlbClass::I6 : p.base));
  if (p.percent > 0) o += " ugal.vlb_percent=" + std::to_string(p.percent) + " ugal.vlb_seed=" + std::to_string(seed);
  return o;
}

std::vector<TvlbPoint> tvlb_table1_points(int step) {
  std::vector<TvlbPoint> out;
  const TvlbClass chain[] = {TvlbClass::I3, TvlbClass::I4, TvlbClass::I5, TvlbClass::All};
  for (int k = 0; k < 4; ++k) {
    TvlbPoint p;
    p.base = chain[k];
    p.name = le_name(chain[k]);
    out.push_back(p);
    if (k == 3) break;
    for (int pc = step; pc < 100; pc += step) {
      TvlbPoint q = p;
      q.percent = pc;
      q.name = p.name + percent_name(chain[k], pc);
      out.push_back(q);
    }
  }
  TvlbPoint src, dst, gen;
  src.base = TvlbClass::I5Src;
  src.name = "i5src";
  dst.base = TvlbClass::I5Dst;
  dst.name = "i5dst";
  gen.name = "all (generic segments)";
  gen.generic_segments = true;
  out.push_back(src);
  out.push_back(dst);
  out.push_back(gen);
  return out;
}

std::string parse_tvlb_point(const std::string& text, TvlbPoint& out) {
  if (text == "min") {
    out = TvlbPoint{};
    out.name = "min";
    out.min_only = true;
    return {};
  }
  for (const TvlbPoint& p : tvlb_table1_points(1))
    if (p.name == text) {
      out = p;
      return {};
    }
  // The run-time class names (ugal.vlb_set) as aliases.
  const std::pair<const char*, const char*> aliases[] = {
      {"i3", "<=3"}, {"i4", "<=4"}, {"i5", "<=5"}, {"i6", "all"}, {"generic", "all (generic segments)"}};
  for (const auto& [alias, name] : aliases)
    if (text == alias) return parse_tvlb_point(name, out);
  return "'" + text +
         "' is not a T-VLB point; allowed: min, <=3, <=4, <=5, all, '<=K +X% (K+1)-hop' (K 3..5, X 1..99), i3, i4, "
         "i5, i6, i5src, i5dst, 'all (generic segments)' (or generic)";
}

TvlbLpResult solve_tvlb_lp(const Dragonfly& t, const TrafficPattern& pattern, const TvlbPoint& point,
                           const TvlbLpOptions& opt) {
  const TvlbChannels ch(t);
  const int S = t.num_switches(), P = t.p(), L = ch.count();
  // Flows: switch-pair demands in nodes, and the terminal bound.
  std::vector<double> dem(static_cast<size_t>(S) * S, 0.0), eject(static_cast<size_t>(S * P), 0.0);
  double max_inject = 0;
  std::vector<std::pair<int, double>> w;
  for (int n = 0; n < S * P; ++n) {
    pattern.weights(n, w);
    double sum = 0;
    for (const auto& [to, q] : w) {
      sum += q;
      eject[static_cast<size_t>(to)] += q;
      if (to / P != n / P) dem[static_cast<size_t>(n / P) * S + to / P] += q;
    }
    max_inject = std::max(max_inject, sum);
  }
  const double terminal = std::max(max_inject, *std::max_element(eject.begin(), eject.end()));

  struct Col {
    int flow;
    PathClass c;
  };
  std::vector<Col> cols;
  std::vector<std::pair<int, double>> flows;  // (s*S+d, demand)
  for (int s = 0; s < S; ++s)
    for (int d = 0; d < S; ++d) {
      const double q = dem[static_cast<size_t>(s) * S + d];
      if (q <= 0) continue;
      const int f = static_cast<int>(flows.size());
      flows.push_back({s * S + d, q});
      for (PathClass& c : flow_classes(t, ch, s, d, point, opt.seed)) cols.push_back({f, std::move(c)});
    }
  const int F = static_cast<int>(flows.size());
  // Rows: [0, F) demand, [F, F+L) channels, then the ordering rows.
  std::vector<int> ri, ci;
  std::vector<double> v;
  std::vector<double> row_lo, row_hi;
  row_lo.assign(static_cast<size_t>(F), 0.0);
  row_hi.assign(static_cast<size_t>(F), 0.0);
  row_lo.resize(static_cast<size_t>(F + L), -COIN_DBL_MAX);
  row_hi.resize(static_cast<size_t>(F + L), 1.0);
  for (int f = 0; f < F; ++f) {
    ri.push_back(f);
    ci.push_back(0);
    v.push_back(-flows[static_cast<size_t>(f)].second);
  }
  int ordering_rows = 0;
  for (size_t j = 0; j < cols.size(); ++j) {
    const int col = static_cast<int>(j) + 1;
    const Col& c = cols[j];
    ri.push_back(c.flow);
    ci.push_back(col);
    v.push_back(static_cast<double>(c.c.n));
    for (const auto& [chan, k] : c.c.uses) {
      ri.push_back(F + chan);
      ci.push_back(col);
      v.push_back(static_cast<double>(k));
    }
    // Ordering: this VLB class against the next longer VLB class of the same flow.
    if (opt.ordering && c.c.vlb && j + 1 < cols.size() && cols[j + 1].flow == c.flow && cols[j + 1].c.vlb) {
      const int row = F + L + ordering_rows++;
      row_lo.push_back(0.0);
      row_hi.push_back(COIN_DBL_MAX);
      ri.push_back(row);
      ci.push_back(col);
      v.push_back(1.0);
      ri.push_back(row);
      ci.push_back(col + 1);
      v.push_back(-1.0);
    }
  }
  const int rows = F + L + ordering_rows, ncols = static_cast<int>(cols.size()) + 1;
  const CoinPackedMatrix m(true, ri.data(), ci.data(), v.data(), static_cast<CoinBigIndex>(v.size()));
  std::vector<double> col_lo(static_cast<size_t>(ncols), 0.0), col_hi(static_cast<size_t>(ncols), COIN_DBL_MAX);
  col_hi[0] = terminal > 0 ? 1.0 / terminal : COIN_DBL_MAX;
  std::vector<double> obj(static_cast<size_t>(ncols), 0.0);
  obj[0] = -1.0;
  ClpSimplex lp;
  lp.setLogLevel(0);
  lp.loadProblem(m, col_lo.data(), col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
  const auto t0 = std::chrono::steady_clock::now();
  lp.dual();
  TvlbLpResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.rows = rows;
  r.cols = ncols;
  r.nonzeros = static_cast<long long>(v.size());
  if (!lp.isProvenOptimal())
    throw std::runtime_error("tvlb: the Step 1 LP was not solved (CLP status " + std::to_string(lp.status()) + ")");
  const double* sol = lp.primalColumnSolution();
  r.x = sol[0];
  double all = 0, min = 0, vlb = 0, vlb_hops = 0, hops = 0;
  for (size_t j = 0; j < cols.size(); ++j) {
    const double q = static_cast<double>(cols[j].c.n) * sol[j + 1];
    all += q;
    hops += q * cols[j].c.hops;
    if (cols[j].c.vlb) {
      vlb += q;
      vlb_hops += q * cols[j].c.hops;
    } else {
      min += q;
    }
  }
  if (all > 0) {
    r.min_share = min / all;
    r.hops = hops / all;
  }
  if (vlb > 0) r.vlb_hops = vlb_hops / vlb;
  for (size_t j = 0; j + 1 < cols.size(); ++j)
    if (cols[j].c.vlb && cols[j + 1].c.vlb && cols[j + 1].flow == cols[j].flow)
      r.ordering_excess = std::max(r.ordering_excess, sol[j + 2] - sol[j + 1]);
  const double* dual = lp.dualRowSolution();
  for (int k = 0; k < ordering_rows; ++k)
    if (std::fabs(dual[F + L + k]) > 1e-9) ++r.ordering_binding;
  return r;
}

std::vector<TvlbPattern> tvlb_patterns(const Dragonfly& t, bool quick, int type2_count) {
  std::vector<TvlbPattern> out;
  const int g = t.g(), a = t.a();
  std::vector<int> dgs, dss;
  if (quick) {
    for (int dg : {1, 2, (g - 1) / 2, g - 1})
      if (dg >= 1 && dg < g && std::find(dgs.begin(), dgs.end(), dg) == dgs.end()) dgs.push_back(dg);
    dss = {0};
    if (a / 2 > 0) dss.push_back(a / 2);
    type2_count = std::min(type2_count, 3);
  } else {
    for (int dg = 1; dg < g; ++dg) dgs.push_back(dg);
    for (int ds = 0; ds < a; ++ds) dss.push_back(ds);
  }
  for (int dg : dgs)
    for (int ds : dss) {
      TvlbPattern p;
      p.name = "shift(" + std::to_string(dg) + "," + std::to_string(ds) + ")";
      if (auto why = parse_traffic(p.name, p.spec); !why.empty()) throw std::logic_error(why);
      out.push_back(p);
    }
  for (int k = 1; k <= type2_count; ++k) {
    TvlbPattern p;
    p.name = "group-perm seed " + std::to_string(k);
    if (auto why = parse_traffic("group-perm", p.spec); !why.empty()) throw std::logic_error(why);
    p.seed = static_cast<uint64_t>(k);
    out.push_back(p);
  }
  return out;
}

TvlbSetStats tvlb_set_stats(const Dragonfly& t, const TvlbPoint& p, uint64_t seed) {
  TvlbSetStats st;
  const int S = t.num_switches();
  const int all = (t.g() - 2) * t.a();
  long long pairs = 0;
  double size = 0, paths = 0, hops = 0;
  st.min_size = 1 << 30;
  for (int s = 0; s < S; ++s)
    for (int d = 0; d < S; ++d) {
      if (t.group_of(s) == t.group_of(d)) continue;
      const std::vector<int> set = tvlb_point_set(t, s, d, p, seed);
      ++pairs;
      size += static_cast<double>(set.size());
      st.min_size = std::min(st.min_size, static_cast<int>(set.size()));
      st.max_size = std::max(st.max_size, static_cast<int>(set.size()));
      double np = 0, nh = 0;
      for (int i : set) {
        // Segment paths and their hop sums: every link of the group pair (generic) or the
        // fewest-hop ones.
        double na = 0, nb = 0, sa = 0, sb = 0;
        const int ha = minimal_distance(t, s, i), hb = minimal_distance(t, i, d);
        for (int k = 0; k < t.links_per_group_pair(); ++k) {
          const int xa = hops_via_link(t, s, i, k), xb = hops_via_link(t, i, d, k);
          if (p.generic_segments || xa == ha) {
            ++na;
            sa += xa;
          }
          if (p.generic_segments || xb == hb) {
            ++nb;
            sb += xb;
          }
        }
        np += na * nb;
        nh += sa / na + sb / nb;  // this intermediate's mean VLB hops (segment links uniform)
      }
      paths += np;
      if (!set.empty()) hops += nh / static_cast<double>(set.size());
    }
  if (pairs == 0) {
    st.min_size = 0;
    return st;
  }
  st.intermediates = size / static_cast<double>(pairs);
  st.fraction = all > 0 ? st.intermediates / all : 0;
  st.paths = paths / static_cast<double>(pairs);
  st.hops = hops / static_cast<double>(pairs);
  return st;
}

TvlbBalance tvlb_balance(const Dragonfly& t, const TvlbPoint& p, uint64_t seed) {
  if (p.min_only) return {};
  const TvlbUsage u = tvlb_usage(t, TvlbRule{p.base, p.percent, seed}, nullptr, p.generic_segments);
  TvlbBalance b;
  b.local_max = u.local_max;
  b.local_min = u.local_min;
  b.global_max = u.global_max;
  b.global_min = u.global_min;
  return b;
}

TvlbStep1 run_tvlb_step1(const Dragonfly& t, const TvlbStep1Options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  TvlbStep1 r;
  r.topology = t.describe();
  r.jobs = std::max(1, opt.jobs);
  r.set_seed = opt.lp.seed;
  r.patterns = tvlb_patterns(t, opt.quick, opt.type2);
  const std::vector<TvlbPoint> points = opt.points.empty() ? tvlb_table1_points() : opt.points;
  std::vector<std::unique_ptr<TrafficPattern>> pats;
  for (const TvlbPattern& p : r.patterns) pats.push_back(std::make_unique<TrafficPattern>(p.spec, t, p.seed, 0));
  for (const TvlbPoint& p : points) {
    TvlbStep1Point sp;
    sp.point = p;
    sp.stats = tvlb_set_stats(t, p, opt.lp.seed);
    sp.balance = tvlb_balance(t, p, opt.lp.seed);
    sp.x.assign(r.patterns.size(), 0.0);
    r.points.push_back(std::move(sp));
  }
  const int total = static_cast<int>(points.size() * r.patterns.size());
  std::atomic<int> next{0};
  int done = 0;
  std::mutex mu;
  std::string error;
  std::vector<double> secs(static_cast<size_t>(total), 0.0);
  auto worker = [&] {
    for (;;) {
      const int k = next.fetch_add(1);
      if (k >= total) return;
      const size_t pi = static_cast<size_t>(k) / r.patterns.size(), qi = static_cast<size_t>(k) % r.patterns.size();
      try {
        const TvlbLpResult lp = solve_tvlb_lp(t, *pats[qi], points[pi], opt.lp);
        std::lock_guard<std::mutex> lock(mu);
        r.points[pi].x[qi] = lp.x;
        secs[static_cast<size_t>(k)] = lp.seconds;
        ++done;
        if (opt.progress) opt.progress(done, total);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (error.empty()) error = points[pi].name + ", " + r.patterns[qi].name + ": " + e.what();
        next.store(total);
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < r.jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();
  if (!error.empty()) throw std::runtime_error(error);
  const size_t n = r.patterns.size();
  for (size_t pi = 0; pi < r.points.size(); ++pi) {
    TvlbStep1Point& sp = r.points[pi];
    double sum = 0, sq = 0;
    sp.min = 1e300;
    sp.max = -1e300;
    for (size_t q = 0; q < n; ++q) {
      sum += sp.x[q];
      sp.min = std::min(sp.min, sp.x[q]);
      sp.max = std::max(sp.max, sp.x[q]);
      sp.seconds += secs[pi * n + q];
    }
    sp.mean = sum / static_cast<double>(n);
    for (size_t q = 0; q < n; ++q) sq += (sp.x[q] - sp.mean) * (sp.x[q] - sp.mean);
    sp.sem = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1) / static_cast<double>(n)) : 0;
  }
  // The best Table 1 point (not the strategic or reference ones) and its vicinity.
  auto table1 = [](const TvlbPoint& p) {
    return !p.min_only && !p.generic_segments && p.base != TvlbClass::I5Src && p.base != TvlbClass::I5Dst;
  };
  // Ties (means within 1e-4 phits/node/cycle, below what Step 2's simulations resolve) go
  // to the shorter set: T-VLB's point is to shorten VLB paths where throughput allows it.
  auto better = [&](size_t x, size_t y) {
    const TvlbStep1Point &p = r.points[x], &q = r.points[y];
    if (std::fabs(p.mean - q.mean) > 1e-4) return p.mean > q.mean;
    return p.stats.hops < q.stats.hops;
  };
  for (size_t pi = 0; pi < r.points.size(); ++pi)
    if (table1(r.points[pi].point) && (r.best < 0 || better(pi, static_cast<size_t>(r.best))))
      r.best = static_cast<int>(pi);
  if (r.best >= 0) {
    // The vicinity (Step 2's candidates besides the strategic ones): the best, then the
    // points within `vicinity_gap` of it with the fewest mean VLB hops, four in all.
    const double floor = r.points[static_cast<size_t>(r.best)].mean - opt.vicinity_gap;
    std::vector<int> near;
    for (size_t pi = 0; pi < r.points.size(); ++pi)
      if (table1(r.points[pi].point) && static_cast<int>(pi) != r.best && r.points[pi].mean >= floor)
        near.push_back(static_cast<int>(pi));
    std::stable_sort(near.begin(), near.end(), [&](int x, int y) {
      return r.points[static_cast<size_t>(x)].stats.hops < r.points[static_cast<size_t>(y)].stats.hops;
    });
    if (near.size() > 3) near.resize(3);
    r.vicinity = {r.best};
    r.vicinity.insert(r.vicinity.end(), near.begin(), near.end());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

nlohmann::json to_json(const TvlbStep1& r) {
  nlohmann::json j;
  j["topology"] = r.topology;
  j["skipped"] = r.skipped;
  j["seconds"] = r.seconds;
  j["jobs"] = r.jobs;
  j["set_seed"] = r.set_seed;
  j["patterns"] = nlohmann::json::array();
  for (const TvlbPattern& p : r.patterns) j["patterns"].push_back(p.name);
  j["points"] = nlohmann::json::array();
  for (const TvlbStep1Point& p : r.points) {
    nlohmann::json q;
    q["name"] = p.point.name;
    q["overrides"] = tvlb_point_overrides(p.point, r.set_seed);
    q["set"] = {{"intermediates", p.stats.intermediates}, {"min", p.stats.min_size},
                {"max", p.stats.max_size},            {"fraction_of_all", p.stats.fraction},
                {"paths", p.stats.paths},             {"mean_hops", p.stats.hops}};
    q["balance"] = {{"local_max_over_mean", p.balance.local_max},
                    {"local_min_over_mean", p.balance.local_min},
                    {"global_max_over_mean", p.balance.global_max},
                    {"global_min_over_mean", p.balance.global_min}};
    q["mean"] = p.mean;
    q["sem"] = p.sem;
    q["min"] = p.min;
    q["max"] = p.max;
    q["x"] = p.x;
    q["lp_seconds"] = p.seconds;
    j["points"].push_back(q);
  }
  j["best"] = r.best >= 0 ? nlohmann::json(r.points[static_cast<size_t>(r.best)].point.name) : nlohmann::json();
  j["vicinity"] = nlohmann::json::array();
  for (int k : r.vicinity) j["vicinity"].push_back(r.points[static_cast<size_t>(k)].point.name);
  return j;
}

std::string format(const TvlbStep1& r) {
  std::ostringstream os;
  os << "T-VLB Step 1 (LP throughput model), " << r.topology << "\n";
  if (r.skipped) {
    os << "  one global link per group pair: T-VLB = all VLB paths (paper sec. 4.2), no LP run"
          " (--force runs it)\n";
    return os.str();
  }
  os << "  " << r.patterns.size() << " patterns, " << r.points.size() << " points, " << std::fixed
     << std::setprecision(1) << r.seconds << " s on " << r.jobs << " thread(s)\n\n";
  os << "  point                        inter.  hops  paths    mean     sem     min     max   local U  global U\n";
  for (size_t k = 0; k < r.points.size(); ++k) {
    const TvlbStep1Point& p = r.points[k];
    std::string name = p.point.name;
    if (static_cast<int>(k) == r.best) name += " *";
    os << "  " << std::left << std::setw(28) << name << std::right << std::setprecision(1) << std::setw(7)
       << p.stats.intermediates << std::setprecision(2) << std::setw(6) << p.stats.hops << std::setprecision(0)
       << std::setw(7) << p.stats.paths << std::setprecision(4) << std::setw(8) << p.mean << std::setw(8) << p.sem
       << std::setw(8) << p.min << std::setw(8) << p.max << std::setprecision(2) << std::setw(6)
       << p.balance.local_max << "/" << p.balance.local_min << std::setw(6) << p.balance.global_max << "/"
       << p.balance.global_min << "\n";
  }
  os << "\n  inter. = mean intermediates per switch pair, hops = mean VLB hops of a draw, paths = VLB paths per\n"
        "  pair; mean/sem/min/max of the LP throughput over the patterns; local/global U = max/min over mean\n"
        "  of the VLB link usage (the imbalance Step 2 checks)\n";
  if (r.best >= 0) {
    os << "\n  best (Table 1 points): " << r.points[static_cast<size_t>(r.best)].point.name << "; vicinity:";
    for (int k : r.vicinity) os << " [" << r.points[static_cast<size_t>(k)].point.name << "]";
    os << "\n  as run-time sets (Step 2's candidates with i5src and i5dst):\n";
    for (int k : r.vicinity)
      os << "    " << tvlb_point_overrides(r.points[static_cast<size_t>(k)].point, r.set_seed) << "\n";
  }
  return os.str();
}

namespace {

std::string candidate_name(const TvlbPoint& p) {
  std::string n = to_string(p.base == TvlbClass::All ? TvlbClass::I6 : p.base);
  if (p.percent > 0) n += "-p" + std::to_string(p.percent);
  return n;
}

std::string fmt_num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> tvlb_step2_candidates(const TvlbStep1& r) {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const TvlbPoint& p) {
    const std::string o = tvlb_point_overrides(p, r.set_seed);
    if (o.empty()) return;
    const std::string n = candidate_name(p);
    for (const auto& [name, ov] : out)
      if (name == n) return;
    out.emplace_back(n, o);
  };
  for (int k : r.vicinity) add(r.points[static_cast<size_t>(k)].point);
  TvlbPoint src, dst;
  src.base = TvlbClass::I5Src;
  dst.base = TvlbClass::I5Dst;
  add(src);
  add(dst);
  // Step 2's load-balance adjustment of the strategic candidates (sec. 3.3.3; tvlb_balance.h).
  const TvlbBalanceOptions bal;
  for (const TvlbPoint* p : {&src, &dst}) {
    const std::string o = tvlb_point_overrides(*p, r.set_seed);
    if (o.empty()) continue;
    out.emplace_back(candidate_name(*p) + "-bal", o + " tugal.tau_global=" + fmt_num(bal.tau_global) +
                                                      " tugal.tau_local=" + fmt_num(bal.tau_local));
  }
  return out;
}

std::string tvlb_step2_sweep(const TvlbStep1& r, const TvlbStep2Options& opt) {
  std::ostringstream y;
  y << "# T-VLB Step 2 for " << r.topology << ", written by scfly tvlb (T-UGAL paper sec. 3.3.3):\n"
    << "# every candidate on " << opt.patterns << " TYPE_2 patterns (group-perm, run seeds 1.." << opt.patterns
    << "), a saturation search per\n# (routing, candidate, pattern) by the paper's criterion (the last load with mean "
       "latency under " << fmt_num(opt.max_latency) << " cycles).\n"
    << "# Run it with: scfly sweep THIS_FILE --db DB [--jobs N | --slurm]\n"
    << "# Then choose:  scfly tvlb --select THIS_FILE --db DB\n"
    << "# *-bal: the strategic candidate after the load-balance removals (tugal.tau_*, docs/model.md).\n";
  y << "base: " << nlohmann::json(opt.config_path).dump() << "\n";
  y << "name: " << nlohmann::json("tvlb-step2-" + stem_of(opt.config_path)).dump() << "\n";
  y << "set:\n  traffic: group-perm\n";
  for (const std::string& o : opt.overrides) {
    const size_t eq = o.find('=');
    y << "  " << nlohmann::json(o.substr(0, eq)).dump() << ": " << o.substr(eq + 1) << "\n";
  }
  y << "saturation_search: {low: " << fmt_num(opt.low) << ", high: " << fmt_num(opt.high)
    << ", resolution: " << fmt_num(opt.resolution) << ", max_latency: " << fmt_num(opt.max_latency) << "}\n";
  y << "saturation: {latency_factor: 1000, accept_ratio: 0.9}  # the latency bound decides; 0.9 guards short "
       "windows\n";
  y << "axes:\n  routing: [";
  for (size_t k = 0; k < opt.routings.size(); ++k) y << (k ? ", " : "") << opt.routings[k];
  y << "]\n  candidate:\n";
  for (const auto& [name, ov] : tvlb_step2_candidates(r)) {
    // "ugal.vlb_set=i5src tugal.tau_local=2" -> {ugal: {vlb_set: i5src}, tugal: {tau_local: 2}}
    std::vector<std::pair<std::string, std::string>> groups;  // (prefix, "k: v, ...") in order
    std::istringstream in(ov);
    std::string kv;
    while (in >> kv) {
      const size_t dot = kv.find('.'), eq = kv.find('=');
      const std::string pre = kv.substr(0, dot), item = kv.substr(dot + 1, eq - dot - 1) + ": " + kv.substr(eq + 1);
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == pre; });
      if (g == groups.end())
        groups.emplace_back(pre, item);
      else
        g->second += ", " + item;
    }
    y << "    " << name << ": {";
    for (size_t k = 0; k < groups.size(); ++k) y << (k ? ", " : "") << groups[k].first << ": {" << groups[k].second << "}";
    y << "}\n";
  }
  y << "  pattern:\n";
  for (int k = 1; k <= opt.patterns; ++k) y << "    gp" << k << ": {seed: " << k << "}\n";
  return y.str();
}

TvlbSelection tvlb_select(const std::string& sweep_path, const std::string& db_path) {
  const SweepSpec spec = load_sweep(sweep_path);
  const SweepAxis *cand = nullptr, *pat = nullptr, *rout = nullptr;
  for (const SweepAxis& a : spec.axes) {
    if (a.key == "candidate" && a.variants()) cand = &a;
    if (a.key == "pattern" && a.variants()) pat = &a;
    if (a.key == "routing") rout = &a;
  }
  if (!cand || !pat || !rout)
    throw ConfigError("--select: '" + sweep_path + "' is not a T-VLB Step 2 sweep (it needs the routing axis and the "
                      "candidate and pattern variant axes that scfly tvlb --step2 writes)");
  struct stat st {};
  if (::stat(db_path.c_str(), &st) != 0)
    throw ConfigError("--db: '" + db_path + "' does not exist; run scfly sweep " + sweep_path + " --db " + db_path +
                      " first");
  TvlbSelection sel;
  sel.sweep = spec.name;
  std::map<std::string, const nlohmann::json*> by_series;
  const nlohmann::json rows = ResultsDb(db_path).saturation_rows(spec.name);
  for (const nlohmann::json& row : rows) by_series[row.at("series").get<std::string>()] = &row;
  for (const std::string& routing : rout->values) {
    std::vector<TvlbChoice> mine;
    for (size_t c = 0; c < cand->values.size(); ++c) {
      TvlbChoice ch;
      ch.routing = routing;
      ch.candidate = cand->values[c];
      for (const std::string& o : cand->bundles[c]) ch.overrides += (ch.overrides.empty() ? "" : " ") + o;
      double sum = 0;
      for (const std::string& p : pat->values) {
        // The series name: the non-load, non-seed axes in file order (sweep.h).
        std::string series;
        for (const SweepAxis& a : spec.axes) {
          const std::string v = &a == rout ? routing : &a == cand ? cand->values[c] : &a == pat ? p : "";
          if (v.empty()) continue;
          series += (series.empty() ? "" : " ") + a.key + "=" + v;
        }
        const auto it = by_series.find(series);
        if (it == by_series.end()) {
          ++sel.missing;
          continue;
        }
        const nlohmann::json& load = it->second->at("saturation_load");
        const double v = load.is_number() ? load.get<double>() : 0.0;  // null: below the search's low load
        ch.per_pattern.push_back(v);
        sum += v;
        ++ch.patterns;
      }
      ch.mean = ch.patterns ? sum / ch.patterns : 0;
      mine.push_back(ch);
    }
    std::stable_sort(mine.begin(), mine.end(), [](const TvlbChoice& a, const TvlbChoice& b) {
      if (a.patterns != b.patterns) return a.patterns > b.patterns;
      return a.mean > b.mean;
    });
    if (!mine.empty() && mine.front().patterns > 0) sel.best.push_back(mine.front());
    sel.rows.insert(sel.rows.end(), mine.begin(), mine.end());
  }
  return sel;
}

nlohmann::json to_json(const TvlbSelection& s) {
  auto one = [](const TvlbChoice& c) {
    return nlohmann::json{{"routing", c.routing},     {"candidate", c.candidate}, {"overrides", c.overrides},
                          {"mean", c.mean},           {"patterns", c.patterns},   {"per_pattern", c.per_pattern}};
  };
  nlohmann::json j;
  j["sweep"] = s.sweep;
  j["missing"] = s.missing;
  j["rows"] = nlohmann::json::array();
  for (const auto& c : s.rows) j["rows"].push_back(one(c));
  j["best"] = nlohmann::json::array();
  for (const auto& c : s.best) j["best"].push_back(one(c));
  return j;
}

std::string format(const TvlbSelection& s) {
  std::ostringstream os;
  os << "T-VLB Step 2 selection, sweep " << s.sweep << " (mean saturation load over the patterns)\n";
  os << "  routing  candidate   patterns    mean   per pattern\n";
  for (const auto& c : s.rows) {
    os << "  " << std::left << std::setw(8) << c.routing << " " << std::setw(11) << c.candidate << std::right
       << std::setw(9) << c.patterns << std::fixed << std::setprecision(3) << std::setw(8) << c.mean << "  ";
    for (double v : c.per_pattern) os << " " << v;
    os << "\n";
  }
  if (s.missing) os << "  " << s.missing << " (routing, candidate, pattern) searches have no result yet\n";
  for (const auto& c : s.best)
    os << "  best for " << c.routing << ": " << c.candidate << " (" << c.overrides << "), mean " << std::setprecision(3)
       << c.mean << "\n";
  return os.str();
}

}  // namespace scfly
