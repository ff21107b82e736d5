// switch.allocator separable-output, wavefront or islip: the switch's allocation stage
// with an allocator variant (parts/allocator_{output_first,wavefront,islip}.h), in a
// translation unit of its own (see switch_allocate.h), so that the default allocator's
// path in switch.cpp is compiled as it is without them.
#include "rtl_models/switch/switch.h"
#include "rtl_models/switch/switch_allocate.h"

namespace scfly {

template <bool kCtl>
void Switch::allocate_variant_stage() {
  allocate_stage<kCtl, false, true>();
}

template void Switch::allocate_variant_stage<false>();
template void Switch::allocate_variant_stage<true>();

}  // namespace scfly
