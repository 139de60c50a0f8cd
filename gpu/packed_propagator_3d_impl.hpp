#pragma once
// Definitions of PackedPropagator3D<Device>; included only by the two files that instantiate it
// (cuda_propagator_3d.cu for CudaDevice, host_twin.cpp for HostDevice).
#include "packed_propagator_3d.hpp"
#include "packed_propagator_base_impl.hpp"

namespace fwi::gpu {

template <class Device>
PackedPropagator3D<Device>::PackedPropagator3D(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                                               std::string backend_name)
    : Base(setup, std::move(device), std::move(backend_name), 3) {
    const PaddedGrid& grid = this->grid_;
    pml_z_ = setup_pml_profile(setup, grid.halo, 0); // the CPU backend's profiles
    pml_y_ = setup_pml_profile(setup, grid.halo, 1);
    pml_x_ = setup_pml_profile(setup, grid.halo, 2);
    this->plan_ = make_kernel_plan_3d(grid, pml_x_, pml_y_, pml_z_);
    const float* p = this->allocate({&pml_x_, &pml_y_, &pml_z_}); // a, b, b/a along x, then y, then z
    GridArgs3D& g = this->plan_.grid;
    for (AxisPml* a : {&g.px, &g.py, &g.pz}) {
        const std::size_t n = a == &g.px ? pml_x_.a.size() : a == &g.py ? pml_y_.a.size() : pml_z_.a.size();
        a->a = p;
        a->b = p + n;
        a->b_over_a = p + 2 * n;
        p += 3 * n;
    }
    g.c = this->c_.data();
    g.inv_c = this->inv_c_.data();
}

template <class Device>
void PackedPropagator3D<Device>::launch_forward(typename Base::Fields& s, float* snapshot,
                                                const float* secondary) {
    const ForwardPtrs3D f{s.current(),   s.previous(),  s.variable(0), s.variable(1), s.variable(2),
                          s.variable(3), s.variable(4), s.variable(5), snapshot,      secondary};
    Device& device = *this->device_;
    device.forward_psi_3d(this->plan_.radius, this->plan_.grid, f);
    device.forward_update_3d(this->plan_.radius, this->plan_.grid, f);
}

template <class Device>
void PackedPropagator3D<Device>::launch_adjoint(typename Base::Fields& s, const float* snapshot,
                                                float weight) {
    // r sits in psi's slot, s in zeta's (packed_state_3d.hpp).
    const AdjointPtrs3D f{s.current(),          s.previous(),  s.variable(0), s.variable(1),
                          s.variable(2),        s.variable(3), s.variable(4), s.variable(5),
                          this->grad_c_.data(), snapshot,      weight};
    Device& device = *this->device_;
    device.adjoint_s_3d(this->plan_.grid, f);
    device.adjoint_r_3d(this->plan_.radius, this->plan_.grid, f);
    device.adjoint_update_3d(this->plan_.radius, this->plan_.grid, f);
}

} // namespace fwi::gpu
