#pragma once
// The CUDA backend's propagator logic, written once over an execution policy: Device = CudaDevice (the
// product) or HostDevice (its host twin, for tests without a GPU). It owns the model arrays, the PML profiles
// and the geometry tables on the device, and runs the passes of cuda_kernels.cuh in the CPU reference's
// order.
//
// Host data in the interface (snapshots, Born sources, traces, residuals) are copied at the call: snapshot
// B^n goes device -> host every forward_with_snapshot and host -> device every adjoint step that uses one.
// That is correct and simple; a device-resident snapshot store (snapshots kept in GPU memory as a checkpoint
// tier) is the fast path for later and needs an interface that hands out device buffers.
#include "device_geometry.hpp"
#include "kernel_plan.hpp"
#include "packed_state.hpp"

#include "fwi/propagator.hpp"
#include "propagator/pml_profile.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fwi::gpu {

template <class Device> class PackedPropagator : public Propagator {
  public:
    /// Validates `setup` as the CPU backend does (ConfigError) and allocates the model arrays on the device
    /// (ResourceError when they do not fit).
    PackedPropagator(const PropagatorSetup& setup, std::unique_ptr<Device> device, std::string backend_name);
    ~PackedPropagator() override;

    std::string backend() const override { return backend_name_; }
    const PaddedGrid& padded() const override { return grid_; }
    const PropagatorSetup& setup() const override { return setup_; }
    void set_model(const Model& model) override;
    std::unique_ptr<WaveState> new_state() const override;
    std::unique_ptr<AdjointState> new_adjoint_state() const override;
    void record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                std::int64_t trace_length) const override;
    void forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                 std::span<const float> source, float* traces, std::int64_t trace_length) override;
    void forward_with_snapshot(WaveState& state, const ShotGeometry& geometry, std::span<const float> source,
                               float* traces, std::int64_t trace_length, float* snapshot) override;
    void forward_scattered(WaveState& state, const float* secondary) override;
    void adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                 std::int64_t trace_length, const float* snapshot, float weight) override;
    void take_velocity_gradient(std::span<float> gradient_mps) override;
    void model_region_wavefield(const WaveState& state, std::span<float> out) const override;
    void model_region_adjoint(const AdjointState& adj, std::span<float> out) const override;
    std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const override;

    const KernelPlan& plan() const { return plan_; }
    Device& device() const { return *device_; }

  private:
    template <class T> using Buffer = typename Device::template Buffer<T>;
    using Tables = DeviceGeometry<Device>;

    const Tables& on_device(const ShotGeometry& geometry) const;
    float* scratch(Buffer<float>& buffer, std::size_t count, const char* what) const;
    void require_model() const;
    void step(PackedWaveState<Device>& state, const Tables* geometry, std::span<const float> source,
              float* snapshot, const float* secondary);
    void gather(const PackedWaveState<Device>& state, const Tables& geometry, float* out,
                std::int64_t stride) const;
    void download_model_region(const float* field, std::span<float> out) const;

    PropagatorSetup setup_;
    PaddedGrid grid_;
    PmlProfile pml_x_, pml_z_;
    KernelPlan plan_;
    std::string backend_name_;
    std::unique_ptr<Device> device_; // before the buffers: they are released first
    Buffer<float> profiles_;         // a, b, b/a along x, then along z
    Buffer<float> c_, inv_c_, grad_c_;
    mutable Buffer<float> snapshot_out_, upload_, traces_, residual_;
    std::vector<float> velocity_, inv_c_host_; // padded, host copies for the gradient and the display
    mutable GeometryCache<Device> geometries_;
    bool has_model_ = false;
};

} // namespace fwi::gpu
