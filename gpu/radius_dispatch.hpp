#pragma once
// with_radius(R, f): f(std::integral_constant<int, R>) for a stencil radius R in 1..4, the template
// parameter of every kernel (host code only: the launchers and the host twin). Core's dispatch_order, by
// radius.
#include "propagator/order_dispatch.hpp"

#include <utility>

namespace fwi::gpu {

template <typename F> void with_radius(int radius, F&& f) {
    dispatch_order(2 * radius, std::forward<F>(f));
}

} // namespace fwi::gpu
