#pragma once
// The 3D CUDA propagator, written once over an execution policy as its 2D sibling (packed_propagator.hpp):
// Device = CudaDevice (the product) or HostDevice (the host twin). It owns the model arrays, the three PML
// profiles and the geometry tables on the device, and runs the passes of cuda_kernels_3d.cuh in the order of
// the CPU reference (cpu_kernels_3d.hpp). Host data in the interface (snapshots, Born sources, traces,
// residuals) are copied at the call, as in 2D.
#include "device_geometry.hpp"
#include "kernel_plan_3d.hpp"
#include "packed_state_3d.hpp"

#include "fwi/propagator.hpp"
#include "propagator/pml_profile.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fwi::gpu {

template <class Device> class PackedPropagator3D : public Propagator {
  public:
    /// Validates `setup` as the CPU backend does (ConfigError; a grid that is not 3D too) and allocates the
    /// model arrays on the device (ResourceError when they do not fit).
    PackedPropagator3D(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                       std::string backend_name);
    ~PackedPropagator3D() override;

    std::string backend() const override { return backend_name_; }
    const PaddedGrid& padded() const override { return grid_; }
    const PropagatorSetup& setup() const override { return setup_; }
    /// Throws ConfigError as CpuPropagator3D::set_model (other grid, bad velocity, one above the reference).
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

    const KernelPlan3D& plan() const { return plan_; }
    Device& device() const { return *device_; }

  private:
    template <class T> using Buffer = typename Device::template Buffer<T>;
    using Tables = DeviceGeometry<Device>;

    const Tables& on_device(const ShotGeometry& geometry) const;
    float* scratch(Buffer<float>& buffer, std::size_t count, const char* what) const;
    void require_model() const;
    void step(PackedWaveState3D<Device>& state, const Tables* geometry, std::span<const float> source,
              float* snapshot, const float* secondary);
    void gather(const PackedWaveState3D<Device>& state, const Tables& geometry, float* out,
                std::int64_t stride) const;
    void download_model_region(const float* field, std::span<float> out) const;

    PropagatorSetup setup_;
    PaddedGrid grid_;
    PmlProfile pml_x_, pml_y_, pml_z_;
    KernelPlan3D plan_;
    std::string backend_name_;
    std::unique_ptr<Device> device_; // before the buffers: they are released first
    Buffer<float> profiles_;         // a, b, b/a along x, then along y, then along z
    Buffer<float> c_, inv_c_, grad_c_;
    mutable Buffer<float> snapshot_out_, upload_, traces_, residual_;
    std::vector<float> velocity_, inv_c_host_; // padded, host copies for the gradient and the display
    mutable GeometryCache<Device> geometries_;
    bool has_model_ = false;
};

} // namespace fwi::gpu
