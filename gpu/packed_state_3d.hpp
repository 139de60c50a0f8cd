#pragma once
// Wave and adjoint states of the 3D CUDA backend (and of its host twin): one device block per state,
//   [ field A | field B | psi_x | zeta_x | psi_y | zeta_y | psi_z | zeta_z ]       (kernel_plan_3d.hpp)
// where A/B are u^n/u^(n-1) (mu^(n+1)/mu^(n+2)) and swap roles by pointer every step, and the memory
// variables are packed as CpuPropagator3D's fields() expose them. So fields() of a 3D CUDA state has the
// CPU's five views (u, u_prev, x strips, y strips, z slabs; same rows, cols and plane_rows, same order), a
// checkpoint is three contiguous copies, and stores and codecs treat both backends' states alike. States
// borrow the propagator's device and must not outlive the propagator (as on the CPU).
#include "kernel_plan_3d.hpp"

#include "fwi/propagator.hpp"

#include <utility>
#include <vector>

namespace fwi::gpu {

template <class Device> class PackedFields3D {
  public:
    PackedFields3D(Device& device, const KernelPlan3D& plan, const char* what)
        : plan_(plan), block_(device.template alloc<float>(std::size_t(plan.state_floats()), what)),
          current_(block_.data()), previous_(block_.data() + plan.cells) {}
    float* current() const { return current_; }   ///< u^n (mu^(n+1))
    float* previous() const { return previous_; } ///< u^(n-1) (mu^(n+2)); receives the next field
    /// The six packed variables in block order: psi_x, zeta_x, psi_y, zeta_y, psi_z, zeta_z (r, s per axis).
    float* variable(int k) const {
        const KernelPlan3D& p = plan_;
        const std::int64_t sizes[6] = {p.x_strip, p.x_strip, p.y_strip, p.y_strip, p.z_strip, p.z_strip};
        float* v = block_.data() + 2 * p.cells;
        for (int j = 0; j < k; ++j)
            v += sizes[j];
        return v;
    }
    void swap() { std::swap(current_, previous_); }
    const KernelPlan3D& plan() const { return plan_; }

  private:
    const KernelPlan3D& plan_;
    typename Device::template Buffer<float> block_;
    float* current_;
    float* previous_;
};

template <class Device> class PackedWaveState3D final : public WaveState {
  public:
    PackedWaveState3D(Device& device, const KernelPlan3D& plan)
        : device_(device), fields_(device, plan, "allocating a 3D wave state on the GPU") {}
    ~PackedWaveState3D() override {
        try {
            device_.wait(fence_); // an upload may still read the staging memory
        } catch (...) {           // reported by the call that queued it; a destructor must not throw
        }
    }

    /// The views of CpuPropagator3D's state: u, u_prev (nz * ny rows of nx), x strips (2 nz ny rows of wx), y
    /// strips (2 nz wy rows of nx), z slabs (2 wz ny rows of nx), as volumes (plane_rows).
    std::vector<FieldView> fields() override {
        prepare_staging();
        const KernelPlan3D& p = fields_.plan();
        const std::int64_t nz = p.grid.nz, ny = p.grid.ny, nx = p.grid.nx;
        const std::int64_t wx = p.grid.wx, wy = p.grid.wy, wz = p.grid.wz;
        float* s = staging_.data();
        float* strips = s + 2 * p.cells;
        return {{s, nz * ny, nx, ny},
                {s + p.cells, nz * ny, nx, ny},
                {strips, 2 * nz * ny, wx, ny},
                {strips + 2 * p.x_strip, 2 * nz * wy, nx, wy},
                {strips + 2 * p.x_strip + 2 * p.y_strip, 2 * wz * ny, nx, ny}};
    }
    void to_host() override {
        prepare_staging();
        std::vector<Transfer> down;
        for (const Transfer& x : parts(staging_.data()))
            down.push_back({const_cast<void*>(x.src), x.dst, x.bytes});
        device_.download_state(down);
    }
    void from_host() override {
        prepare_staging();
        device_.upload_state(parts(staging_.data()), fence_);
    }

    /// The state's device arrays and their places in a block laid out as fields() (the staging, or a state
    /// slot): {device array, place in `block`, bytes} for u, u_prev, then all packed variables in one piece.
    std::vector<Transfer> parts(float* block) const {
        const KernelPlan3D& p = fields_.plan();
        const auto field = std::size_t(p.cells) * sizeof(float);
        const auto strips = std::size_t(p.state_floats() - 2 * p.cells) * sizeof(float);
        return {{fields_.current(), block, field},
                {fields_.previous(), block + p.cells, field},
                {fields_.variable(0), block + 2 * p.cells, strips}};
    }

    PackedFields3D<Device>& packed() { return fields_; }
    const PackedFields3D<Device>& packed() const { return fields_; }

  private:
    void prepare_staging() {
        device_.wait(fence_);
        if (!staging_.data() && fields_.plan().state_floats() > 0)
            staging_ = device_.template alloc_host<float>(std::size_t(fields_.plan().state_floats()),
                                                          "allocating pinned staging for a 3D wave state");
    }

    Device& device_;
    PackedFields3D<Device> fields_;
    typename Device::template HostBuffer<float> staging_; // allocated at the first checkpoint transfer
    typename Device::Fence fence_;
};

template <class Device> class PackedAdjointState3D final : public AdjointState {
  public:
    PackedAdjointState3D(Device& device, const KernelPlan3D& plan)
        : fields_(device, plan, "allocating a 3D adjoint state on the GPU") {}
    PackedFields3D<Device>& packed() { return fields_; }
    const PackedFields3D<Device>& packed() const { return fields_; }

  private:
    PackedFields3D<Device> fields_;
};

} // namespace fwi::gpu
