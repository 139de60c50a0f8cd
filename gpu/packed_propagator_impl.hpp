#pragma once
// Definitions of PackedPropagator<Device>; included only by the two files that instantiate it
// (cuda_propagator.cu for CudaDevice, host_twin.cpp for HostDevice).
#include "packed_propagator.hpp"
#include "packed_propagator_base_impl.hpp"

namespace fwi::gpu {

template <class Device>
PackedPropagator<Device>::PackedPropagator(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                                           std::string backend_name)
    : Base(setup, std::move(device), std::move(backend_name), 2) {
    const PaddedGrid& grid = this->grid_;
    pml_x_ = setup_pml_profile(setup, grid.halo, 2); // the CPU backend's profiles
    pml_z_ = setup_pml_profile(setup, grid.halo, 0);
    this->plan_ = make_kernel_plan(grid, pml_x_, pml_z_);
    const float* p = this->allocate({&pml_x_, &pml_z_}); // a, b, b/a along x, then along z
    GridArgs& g = this->plan_.grid;
    const auto nx = std::size_t(g.nx), nz = std::size_t(g.nz);
    g.px.a = p;
    g.px.b = p + nx;
    g.px.b_over_a = p + 2 * nx;
    g.pz.a = p + 3 * nx;
    g.pz.b = p + 3 * nx + nz;
    g.pz.b_over_a = p + 3 * nx + 2 * nz;
    g.c = this->c_.data();
    g.inv_c = this->inv_c_.data();
}

template <class Device>
void PackedPropagator<Device>::launch_forward(typename Base::Fields& s, float* snapshot,
                                              const float* secondary) {
    const ForwardPtrs f{s.current(), s.previous(), s.x_strips(), s.z_strips(), snapshot, secondary};
    const KernelPlan& plan = this->plan_;
    Device& device = *this->device_;
    device.forward_psi(plan.radius, plan.grid, f, plan.layers);
    device.forward_interior(plan.radius, plan.grid, f);
    device.forward_pml(plan.radius, plan.grid, f, plan.zones);
}

template <class Device>
void PackedPropagator<Device>::launch_adjoint(typename Base::Fields& s, const float* snapshot, float weight) {
    const AdjointPtrs f{s.current(),          s.previous(), s.x_strips(), s.z_strips(),
                        this->grad_c_.data(), snapshot,     weight};
    const KernelPlan& plan = this->plan_;
    Device& device = *this->device_;
    device.adjoint_s(plan.grid, f, plan.layers);
    device.adjoint_r(plan.radius, plan.grid, f, plan.layers);
    device.adjoint_interior(plan.radius, plan.grid, f);
    device.adjoint_pml(plan.radius, plan.grid, f, plan.zones);
}

} // namespace fwi::gpu
