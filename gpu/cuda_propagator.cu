#include "cuda_propagator.hpp"

#include "packed_propagator_impl.hpp"

namespace fwi::gpu {

template class PackedPropagator<CudaDevice>;

CudaPropagator::CudaPropagator(const PropagatorSetup& setup, int device_ordinal)
    : PackedPropagator<CudaDevice>(setup, std::make_unique<CudaDevice>(device_ordinal), "cuda") {}

} // namespace fwi::gpu
