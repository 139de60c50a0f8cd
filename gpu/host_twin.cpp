#include "host_twin.hpp"

#include "host_device.hpp"
#include "packed_propagator_impl.hpp"

namespace fwi::gpu {

template class PackedPropagator<HostDevice>;

std::unique_ptr<Propagator> make_host_twin_propagator(const PropagatorSetup& setup) {
    return std::make_unique<PackedPropagator<HostDevice>>(setup, std::make_unique<HostDevice>(),
                                                          kHostTwinBackend);
}

void register_host_twin_backend() {
    register_backend(
        BackendInfo{kHostTwinBackend, [] { return true; },
                    [] { return std::string("host twin of the CUDA backend (CPU, one thread)"); },
                    make_host_twin_propagator});
}

} // namespace fwi::gpu
