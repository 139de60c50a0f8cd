#include "cuda_propagator.hpp"

#include "packed_propagator_3d_impl.hpp"

namespace fwi::gpu {

template class PackedPropagator3D<CudaDevice>;

CudaPropagator3D::CudaPropagator3D(const PropagatorSetup& setup, int device_ordinal)
    : PackedPropagator3D<CudaDevice>(setup, std::make_unique<CudaDevice>(device_ordinal), "cuda") {}

} // namespace fwi::gpu
