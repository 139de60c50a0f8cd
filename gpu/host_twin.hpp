#pragma once
// The host twin of the CUDA backend: PackedPropagator over HostDevice (host_device.hpp). Same plan, packed
// states, pass order, thread mapping and source/receiver tables as "cuda", executed on the CPU one emulated
// thread at a time. For tests on machines without a GPU (and CI): it checks the CUDA backend's logic against
// the CPU reference. Slow; never registered by the product.
#include "fwi/propagator.hpp"

#include <memory>

namespace fwi::gpu {

inline constexpr const char* kHostTwinBackend = "cuda-host-twin";

std::unique_ptr<Propagator> make_host_twin_propagator(const PropagatorSetup& setup);
/// Registers kHostTwinBackend with the backend registry (tests only), so Simulation can use it by name.
void register_host_twin_backend();

} // namespace fwi::gpu
