#pragma once
// Runs f(std::integral_constant<int, R>) for a spatial order 2R in {2, 4, 6, 8}: the kernels are templates on
// the stencil radius R, shared by the 2D and 3D CPU propagators.
#include "fwi/error.hpp"

#include <string>
#include <type_traits>

namespace fwi {

template <typename F> void dispatch_order(int order, F&& f) {
    switch (order) {
    case 2:
        f(std::integral_constant<int, 1>{});
        break;
    case 4:
        f(std::integral_constant<int, 2>{});
        break;
    case 6:
        f(std::integral_constant<int, 3>{});
        break;
    case 8:
        f(std::integral_constant<int, 4>{});
        break;
    default:
        throw ConfigError("spatial order " + std::to_string(order) + " is not one of 2, 4, 6, 8");
    }
}

} // namespace fwi
