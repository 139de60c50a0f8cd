#pragma once
// The 2D CUDA propagator over an execution policy: Device = CudaDevice (the product) or HostDevice (its host
// twin, for tests without a GPU). What it shares with the 3D one (model arrays, geometry tables, transfers,
// gradient) is PackedPropagatorBase; here are the two PML profiles, the plan and the passes of
// cuda_kernels.cuh in the CPU reference's order.
#include "kernel_plan.hpp"
#include "packed_propagator_base.hpp"
#include "packed_state.hpp"

namespace fwi::gpu {

template <class Device>
class PackedPropagator
    : public PackedPropagatorBase<Device, KernelPlan, PackedWaveState<Device>, PackedAdjointState<Device>> {
    using Base =
        PackedPropagatorBase<Device, KernelPlan, PackedWaveState<Device>, PackedAdjointState<Device>>;

  public:
    /// Validates `setup` as the CPU backend does (ConfigError; a grid that is not 2D too) and allocates the
    /// model arrays on the device (ResourceError when they do not fit).
    PackedPropagator(const PropagatorSetup& setup, std::unique_ptr<Device> device, std::string backend_name);

  protected:
    void launch_forward(typename Base::Fields& s, float* snapshot, const float* secondary) override;
    void launch_adjoint(typename Base::Fields& s, const float* snapshot, float weight) override;

  private:
    PmlProfile pml_x_, pml_z_;
};

} // namespace fwi::gpu
