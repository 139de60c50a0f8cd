#include "host_twin.hpp"

#include "host_device.hpp"
#include "packed_propagator_3d_impl.hpp"
#include "packed_propagator_impl.hpp"

namespace fwi::gpu {

template class PackedPropagator<HostDevice>;
template class PackedPropagator3D<HostDevice>;

std::unique_ptr<Propagator> make_host_twin_propagator(const PropagatorSetup& setup) {
    if (setup.grid.rank == 3)
        return std::make_unique<PackedPropagator3D<HostDevice>>(setup, std::make_unique<HostDevice>(),
                                                                kHostTwinBackend);
    return std::make_unique<PackedPropagator<HostDevice>>(setup, std::make_unique<HostDevice>(),
                                                          kHostTwinBackend);
}

void register_host_twin_backend() {
    register_backend(
        BackendInfo{kHostTwinBackend,
                    [] { return true; },
                    [] { return std::string("host twin of the CUDA backend (CPU, one thread)"); },
                    make_host_twin_propagator,
                    {}});
}

} // namespace fwi::gpu
