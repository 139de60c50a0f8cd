#pragma once
// What the 2D and the 3D CUDA propagators share (packed_propagator.hpp, packed_propagator_3d.hpp), written
// once over the execution policy (Device = CudaDevice, or HostDevice for the host twin) and the rank's plan
// and state types: the model arrays on the device, the geometry tables, trace recording in chunks, snapshot
// and Born transfers, residual injection, the velocity gradient and the model-region downloads. A rank adds
// its PML profiles and plan (constructor) and its kernel launches (launch_forward, launch_adjoint), which run
// the passes of cuda_kernels.cuh or cuda_kernels_3d.cuh in the CPU reference's order.
//
// Host data in the interface (snapshots, Born sources, traces, residuals) are copied at the call: a host
// snapshot B^n goes device -> host every forward_with_snapshot and host -> device every adjoint step that
// uses one. A snapshot in the propagator's own memory (snapshot_memory(): the executor's arena and its
// Reverse scratch) is written and read in place on the device, with no transfer.
#include "device_geometry.hpp"
#include "lent_memory.hpp"

#include "fwi/propagator.hpp"
#include "propagator/pml_profile.hpp"

#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace fwi::gpu {

template <class Device, class Plan, class Wave, class Adjoint>
class PackedPropagatorBase : public Propagator {
  public:
    ~PackedPropagatorBase() override;

    std::string backend() const override { return backend_name_; }
    const PaddedGrid& padded() const override { return grid_; }
    const PropagatorSetup& setup() const override { return setup_; }
    /// Throws ConfigError as the CPU backend of the same rank does (other grid, bad velocity; in 3D also a
    /// velocity above the reference one that fixed the time step).
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
    /// Device memory when it leaves room for the run's states and scratch (lendable), else nullptr.
    std::unique_ptr<SnapshotMemory> snapshot_memory(std::int64_t floats) override;
    /// Device memory for `count` states, under the same rule as snapshot_memory.
    std::unique_ptr<StateSlots> state_slots(std::int64_t count) override;
    /// Also delivers the receiver samples forward_with_snapshot keeps on the device.
    void synchronize() override;
    void take_velocity_gradient(std::span<float> gradient_mps) override;
    void model_region_wavefield(const WaveState& state, std::span<float> out) const override;
    void model_region_adjoint(const AdjointState& adj, std::span<float> out) const override;
    std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const override;

    const Plan& plan() const { return plan_; }
    Device& device() const { return *device_; }

  protected:
    template <class T> using Buffer = typename Device::template Buffer<T>;
    using Fields = std::remove_reference_t<decltype(std::declval<Wave&>().packed())>;

    /// Validates `setup` as the CPU backend does (ConfigError, a grid of another rank too) and pads the grid.
    PackedPropagatorBase(const PropagatorSetup& setup, std::unique_ptr<Device> device,
                         std::string backend_name, int rank);
    /// Uploads the profiles (a, b, b/a of each, in this order) and allocates the model and gradient arrays
    /// (ResourceError when they do not fit). Returns the profiles on the device; the rank points its plan's
    /// axes at them and at c_ and inv_c_.
    const float* allocate(std::initializer_list<const PmlProfile*> profiles);

    /// One step's kernels on the packed fields, before the source injection and the swap.
    virtual void launch_forward(Fields& s, float* snapshot, const float* secondary) = 0;
    /// One adjoint step's kernels (gradient included), before the residual injection and the swap.
    virtual void launch_adjoint(Fields& s, const float* snapshot, float weight) = 0;

    PropagatorSetup setup_;
    PaddedGrid grid_;
    Plan plan_;
    std::string backend_name_;
    std::unique_ptr<Device> device_; // before the buffers: they are released first
    Buffer<float> profiles_;
    Buffer<float> c_, inv_c_, grad_c_;

  private:
    using Tables = DeviceGeometry<Device>;

    const Tables& on_device(const ShotGeometry& geometry) const;
    float* scratch(Buffer<float>& buffer, std::size_t count, const char* what) const;
    /// True when `snapshot` points at a whole snapshot inside memory from snapshot_memory().
    bool in_own_memory(const float* snapshot) const;
    /// `floats` floats of zeroed device memory if they leave room for a run's states and scratch (16 fields,
    /// 256 MiB and a twentieth of the device), else an empty buffer.
    Buffer<float> lendable(std::size_t floats, const char* what);
    void require_model() const;
    void step(Wave& state, const Tables* geometry, std::span<const float> source, float* snapshot,
              const float* secondary);
    void gather(const Wave& state, const Tables& geometry, float* out, std::int64_t stride) const;
    /// The free surface's mirror on a field that has its step's point terms (the CPU's end of a step:
    /// cpu_step_ends.hpp); nothing without a free surface.
    void mirror(float* field) const;
    void download_model_region(const float* field, std::span<float> out) const;
    /// Samples of step `state.step` into the pending chunk (pending_), delivering the chunk first when the
    /// sample does not continue it.
    void record_pending(const Wave& state, const ShotGeometry& shot, const Tables& geometry, float* traces,
                        std::int64_t trace_length);
    /// Downloads the pending chunk into its traces.
    void deliver_pending();

    mutable Buffer<float> snapshot_out_, upload_, traces_, residual_;
    /// Receiver samples of consecutive forward_with_snapshot steps, kept on the device ([receiver][step]) and
    /// downloaded once per chunk (or at synchronize()), so that a step waits for no transfer.
    struct PendingSamples {
        Buffer<float> samples;
        const ShotGeometry* shot = nullptr; ///< compared, never dereferenced
        std::int64_t receivers = 0;
        float* traces = nullptr;
        std::int64_t trace_length = 0, first = 0, count = 0;
    } pending_;
    std::vector<float> velocity_, inv_c_host_; // padded, host copies for the gradient and the display
    mutable GeometryCache<Device> geometries_;
    std::shared_ptr<SnapshotRanges> own_snapshots_ = std::make_shared<SnapshotRanges>();
    bool has_model_ = false;
};

} // namespace fwi::gpu
