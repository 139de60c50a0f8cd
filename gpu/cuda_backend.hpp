#pragma once
// Registration of the "cuda" backend with the core's backend registry (fwi/propagator.hpp). The application
// and the tests call register_cuda_backend() once at start-up when built with CUDA (FWI_HAVE_CUDA). Without a
// device or a driver the backend stays registered but unavailable: "auto" then picks "cpu", and
// make_propagator("cuda") throws ConfigError saying that no device is available.
#include "fwi/propagator.hpp"

#include <memory>
#include <string>

namespace fwi::gpu {

void register_cuda_backend();

/// A CUDA propagator on device `ordinal`, bypassing the registry's availability check. Throws ResourceError
/// when the device cannot be used (no driver, no device, out of memory) and ConfigError for a bad setup.
std::unique_ptr<Propagator> make_cuda_propagator(const PropagatorSetup& setup, int ordinal = 0);

/// What the CUDA runtime reports: the device count, or why there is none (no driver, no device, ...).
struct DeviceProbe {
    int devices = 0;
    std::string error; ///< empty when the query succeeded
};
/// Queries the runtime once per process (cached); never throws and leaves no pending CUDA error behind.
DeviceProbe probe_cuda_devices();

} // namespace fwi::gpu
