#pragma once
// CudaPropagator (2D) and CudaPropagator3D: the "cuda" backend. The propagator logic is PackedPropagator
// (packed_propagator.hpp) over the CUDA execution policy (cuda_device.hpp); the kernels are in
// cuda_kernels.cuh. States live on the device; fields() of a state are host staging views (pinned memory)
// filled by to_host() and consumed by from_host(). Errors: ResourceError when GPU or pinned memory runs out
// ("GPU memory exhausted: needed X bytes, Y free") or the device cannot be used; fwi::Error for any other
// CUDA failure; ConfigError for bad setups, as the CPU backend.
#include "cuda_device.hpp"
#include "packed_propagator.hpp"
#include "packed_propagator_3d.hpp"

namespace fwi::gpu {

class CudaPropagator final : public PackedPropagator<CudaDevice> {
  public:
    explicit CudaPropagator(const PropagatorSetup& setup, int device_ordinal = 0);
};

/// The 3D kernels (cuda_kernels_3d.cuh) over the same CUDA policy; make_cuda_propagator picks it for a 3D
/// grid.
class CudaPropagator3D final : public PackedPropagator3D<CudaDevice> {
  public:
    explicit CudaPropagator3D(const PropagatorSetup& setup, int device_ordinal = 0);
};

} // namespace fwi::gpu
