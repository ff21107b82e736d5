// A routing context with empty queues everywhere (this switch's ports and UGAL-G's network
// view), for walking adaptive routing units hop by hop in the unit tests.
#pragma once

#include <cstdint>
#include <vector>

#include "routing_units/routing.h"

namespace scfly {

struct EmptyView {
  std::vector<uint32_t> out;
  std::vector<int32_t> cred;
  NetworkLoad table;
  AdaptiveView view;
  RouteContext ctx;
  explicit EmptyView(const Topology& t)
      : out(static_cast<size_t>(t.radix()), 0), cred(static_cast<size_t>(t.radix()), 0),
        table(t.num_switches(), t.radix()) {
    view.local.out_phits = out.data();
    view.local.credits_used = cred.data();
    view.global = &table;
    ctx.view = &view;
  }
  EmptyView(const EmptyView&) = delete;
  EmptyView& operator=(const EmptyView&) = delete;
};

}  // namespace scfly
