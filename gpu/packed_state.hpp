#pragma once
// Wave and adjoint states of the CUDA backend (and of its host twin): one device block per state,
//   [ field A | field B | x strips (2 variables, nz x wx each) | z strips (2 variables, wz x nx each) ]
// where A/B are u^n/u^(n-1) (mu^(n+1)/mu^(n+2)) and swap roles by pointer every step. The PML variables are
// packed as in CpuWaveState::fields(), so fields() of a CUDA state has the CPU's shapes and order, and a
// checkpoint is three contiguous copies. States borrow the propagator's device and must not outlive the
// propagator (as on the CPU).
#include "kernel_plan.hpp"

#include "fwi/propagator.hpp"

#include <utility>
#include <vector>

namespace fwi::gpu {

template <class Device> class PackedFields {
  public:
    PackedFields(Device& device, const KernelPlan& plan, const char* what)
        : plan_(plan), block_(device.template alloc<float>(std::size_t(plan.state_floats()), what)),
          current_(block_.data()), previous_(block_.data() + plan.cells) {}
    float* current() const { return current_; }   ///< u^n (mu^(n+1))
    float* previous() const { return previous_; } ///< u^(n-1) (mu^(n+2)); receives the next field
    float* x_strips() const { return block_.data() + 2 * plan_.cells; }
    float* z_strips() const { return x_strips() + 2 * plan_.x_strip; }
    void swap() { std::swap(current_, previous_); }
    const KernelPlan& plan() const { return plan_; }

  private:
    const KernelPlan& plan_;
    typename Device::template Buffer<float> block_;
    float* current_;
    float* previous_;
};

template <class Device> class PackedWaveState final : public WaveState {
  public:
    PackedWaveState(Device& device, const KernelPlan& plan)
        : device_(device), fields_(device, plan, "allocating a wave state on the GPU") {}
    ~PackedWaveState() override {
        try {
            device_.wait(fence_); // an upload may still read the staging memory
        } catch (...) {           // reported by the call that queued it; a destructor must not throw
        }
    }

    std::vector<FieldView> fields() override {
        prepare_staging();
        const KernelPlan& p = fields_.plan();
        const std::int64_t nz = p.grid.nz, nx = p.grid.nx;
        float* s = staging_.data();
        return {{s, nz, nx},
                {s + p.cells, nz, nx},
                {s + 2 * p.cells, 2 * nz, p.grid.wx},
                {s + 2 * p.cells + 2 * p.x_strip, 2 * std::int64_t(p.grid.wz), nx}};
    }
    void to_host() override {
        prepare_staging();
        const auto t = parts(staging_.data());
        std::vector<Transfer> down;
        for (const Transfer& x : t)
            down.push_back({const_cast<void*>(x.src), x.dst, x.bytes});
        device_.download_state(down);
    }
    void from_host() override {
        prepare_staging();
        device_.upload_state(parts(staging_.data()), fence_);
    }

    /// The state's device arrays and their places in a block laid out as fields() (the staging, or a state
    /// slot): {device array, place in `block`, bytes} for u, u_prev, then all strips in one piece.
    std::vector<Transfer> parts(float* block) const {
        const KernelPlan& p = fields_.plan();
        const auto field = std::size_t(p.cells) * sizeof(float);
        const auto strips = std::size_t(2 * p.x_strip + 2 * p.z_strip) * sizeof(float);
        return {{fields_.current(), block, field},
                {fields_.previous(), block + p.cells, field},
                {fields_.x_strips(), block + 2 * p.cells, strips}};
    }

    PackedFields<Device>& packed() { return fields_; }
    const PackedFields<Device>& packed() const { return fields_; }

  private:
    void prepare_staging() {
        device_.wait(fence_);
        if (!staging_.data() && fields_.plan().state_floats() > 0)
            staging_ = device_.template alloc_host<float>(std::size_t(fields_.plan().state_floats()),
                                                          "allocating pinned staging for a wave state");
    }

    Device& device_;
    PackedFields<Device> fields_;
    typename Device::template HostBuffer<float> staging_; // allocated at the first checkpoint transfer
    typename Device::Fence fence_;
};

template <class Device> class PackedAdjointState final : public AdjointState {
  public:
    PackedAdjointState(Device& device, const KernelPlan& plan)
        : fields_(device, plan, "allocating an adjoint state on the GPU") {}
    PackedFields<Device>& packed() { return fields_; }
    const PackedFields<Device>& packed() const { return fields_; }

  private:
    PackedFields<Device> fields_;
};

} // namespace fwi::gpu
