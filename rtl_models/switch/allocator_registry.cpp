// The allocator registry (parts/allocator_plugin.h) and the names of the allocator kinds.
#include <memory>
#include <stdexcept>

#include "rtl_models/switch/parts/allocator_plugin.h"

namespace scfly {

namespace {

constexpr int kBuiltinAllocators = 4;  // SeparableInput .. Islip

struct Registry {
  std::vector<std::unique_ptr<AllocatorPlugin>> all;
  std::vector<const AllocatorPlugin*> list;
};

Registry& registry() {
  static Registry r;
  return r;
}

bool valid_name(const std::string& s) {
  if (s.empty() || !(s.front() >= 'a' && s.front() <= 'z') || s.back() == '-') return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) return false;
  return true;
}

}  // namespace

const char* to_string(AllocatorKind k) {
  switch (k) {
    case AllocatorKind::SeparableInput: return "separable-input";
    case AllocatorKind::SeparableOutput: return "separable-output";
    case AllocatorKind::Wavefront: return "wavefront";
    case AllocatorKind::Islip: return "islip";
  }
  if (const AllocatorPlugin* p = allocator_plugin(k)) return p->name.c_str();
  return "?";
}

AllocatorKind register_allocator(AllocatorPlugin p) {
  Registry& r = registry();
  const std::string who = "allocator '" + p.name + "': ";
  if (!valid_name(p.name))
    throw std::logic_error(who + "a name is lowercase letters, digits and '-', starting with a letter");
  for (int k = 0; k < kBuiltinAllocators; ++k)
    if (p.name == to_string(static_cast<AllocatorKind>(k)))
      throw std::logic_error(who + "the name is one of scfly's own allocators");
  for (const AllocatorPlugin* q : r.list)
    if (q->name == p.name) throw std::logic_error(who + "the name is already registered");
  if (!p.make) throw std::logic_error(who + "a plug-in needs a factory (AllocatorPlugin::make)");
  if (kBuiltinAllocators + r.list.size() > UINT8_MAX) throw std::logic_error(who + "too many allocators registered");
  r.all.push_back(std::make_unique<AllocatorPlugin>(std::move(p)));
  r.list.push_back(r.all.back().get());
  return static_cast<AllocatorKind>(kBuiltinAllocators + r.list.size() - 1);
}

const std::vector<const AllocatorPlugin*>& allocator_plugins() { return registry().list; }

const AllocatorPlugin* allocator_plugin(AllocatorKind k) {
  const int i = static_cast<int>(k) - kBuiltinAllocators;
  const auto& l = registry().list;
  return i >= 0 && static_cast<size_t>(i) < l.size() ? l[static_cast<size_t>(i)] : nullptr;
}

AllocatorKind kind_of(const AllocatorPlugin& p) {
  const auto& l = registry().list;
  for (size_t i = 0; i < l.size(); ++i)
    if (l[i] == &p) return static_cast<AllocatorKind>(kBuiltinAllocators + i);
  throw std::logic_error("allocator '" + p.name + "' is not registered");
}

}  // namespace scfly
