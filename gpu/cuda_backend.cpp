#include "cuda_backend.hpp"

#include "cuda_check.hpp"
#include "cuda_propagator.hpp"

#include "fwi/error.hpp"
#include "fwi/propagator.hpp"

#include <sstream>

namespace fwi::gpu {
namespace {

DeviceProbe query() {
    DeviceProbe p;
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        cudaGetLastError(); // a missing driver is an answer, not an error to report later
        p.error = describe(code);
        return p;
    }
    p.devices = count;
    if (count == 0) p.error = "the CUDA runtime reports no device";
    return p;
}

std::string device_description() {
    const DeviceProbe p = probe_cuda_devices();
    if (p.devices == 0) return "no CUDA device (" + p.error + ")";
    cudaDeviceProp prop{};
    const cudaError_t code = cudaGetDeviceProperties(&prop, 0);
    if (code != cudaSuccess) {
        cudaGetLastError();
        return "CUDA device 0 (properties unavailable: " + describe(code) + ")";
    }
    std::ostringstream s;
    s.precision(3);
    s << prop.name << ", " << double(prop.totalGlobalMem) / double(1ull << 30) << " GiB, compute capability "
      << prop.major << "." << prop.minor;
    if (p.devices > 1) s << " (device 0 of " << p.devices << ")";
    return s.str();
}

void start_cuda_device() {
    // The runtime creates device 0's primary context on its first real call; later threads share it.
    if (cudaSetDevice(0) == cudaSuccess) cudaFree(nullptr);
    cudaGetLastError(); // an error here is make_cuda_propagator's to report
}

} // namespace

DeviceProbe probe_cuda_devices() {
    static const DeviceProbe probe = query();
    return probe;
}

std::unique_ptr<Propagator> make_cuda_propagator(const PropagatorSetup& setup, int ordinal) {
    const DeviceProbe p = probe_cuda_devices();
    if (ordinal < 0 || ordinal >= p.devices)
        throw ResourceError("no CUDA device " + std::to_string(ordinal) + " (" +
                            (p.devices == 0 ? p.error : std::to_string(p.devices) + " present") + ")");
    if (setup.grid.rank == 3) return std::make_unique<CudaPropagator3D>(setup, ordinal);
    return std::make_unique<CudaPropagator>(setup, ordinal);
}

void register_cuda_backend() {
    register_backend(BackendInfo{"cuda", [] { return probe_cuda_devices().devices > 0; }, device_description,
                                 [](const PropagatorSetup& s) { return make_cuda_propagator(s, 0); },
                                 start_cuda_device});
}

} // namespace fwi::gpu
