#pragma once
// The 3D CUDA propagator over an execution policy, as its 2D sibling (packed_propagator.hpp): Device =
// CudaDevice (the product) or HostDevice (the host twin). What it shares with the 2D one is
// PackedPropagatorBase; here are the three PML profiles, the plan and the passes of cuda_kernels_3d.cuh in
// the order of the CPU reference (cpu_kernels_3d.hpp).
#include "kernel_plan_3d.hpp"
#include "packed_propagator_base.hpp"
#include "packed_state_3d.hpp"

namespace fwi::gpu {

template <class Device>
class PackedPropagator3D : public PackedPropagatorBase<Device, KernelPlan3D, PackedWaveState3D<Device>,
                                                       PackedAdjointState3D<Device>> {
    using Base =
        PackedPropagatorBase<Device, KernelPlan3D, PackedWaveState3D<Device>, PackedAdjointState3D<Device>>;

  public:
    /// Validates `setup` as the CPU backend does (ConfigError; a grid that is not 3D too) and allocates the
    /// model arrays on the device (ResourceError when they do not fit).
    PackedPropagator3D(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                       std::string backend_name);

  protected:
    void launch_forward(typename Base::Fields& s, float* snapshot, const float* secondary) override;
    void launch_adjoint(typename Base::Fields& s, const float* snapshot, float weight) override;

  private:
    PmlProfile pml_x_, pml_y_, pml_z_;
};

} // namespace fwi::gpu
