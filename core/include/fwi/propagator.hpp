#pragma once
// The propagator backend interface (CPU reference in core; CUDA in gpu/ registers itself).
// Scheme and adjoint are documented in core/src/propagator/cpu_kernels.hpp (2D) and cpu_kernels_3d.hpp (3D).
// One Propagator serves one model and one time step on a grid of rank 2 or 3; states are per shot. In 3D a
// state's fields() are views of nz * ny rows of nx (codecs see them as 2D arrays).
#include "fwi/acquisition.hpp"
#include "fwi/field.hpp"
#include "fwi/grid.hpp"
#include "fwi/model.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fwi {

/// The computational grid: the model padded by `pml` C-PML cells on each side and a `halo` of order/2 cells
/// that stay zero, along z and x, and along y in 3D (a 2D grid keeps ny() == 1, unpadded). Padded index
/// (pz, [py,] px) holds model cell (pz - origin, [py - origin,] px - origin) inside the model region. Arrays
/// are (z, [y,] x) row-major, x fastest (grid.hpp).
struct PaddedGrid {
    Grid model;
    int order = 8;
    int pml = 20;
    int halo = 4;
    /// The model's top (padded z index origin(), model z = 0) holds u = 0, the planes above it mirror the
    /// ones below with opposite sign, and the top PML does not absorb (free_surface.hpp).
    bool free_surface = false;
    bool three_d() const { return model.rank == 3; }
    std::int64_t origin() const { return pml + halo; }
    std::int64_t origin_y() const { return three_d() ? origin() : 0; } ///< 0 in 2D
    std::int64_t halo_y() const { return three_d() ? halo : 0; }       ///< 0 in 2D
    std::int64_t nz() const { return model.nz() + 2 * origin(); }
    std::int64_t ny() const { return model.ny() + 2 * origin_y(); }
    std::int64_t nx() const { return model.nx() + 2 * origin(); }
    std::int64_t cells() const { return nz() * ny() * nx(); }
    std::int64_t rows() const { return nz() * ny(); }                ///< rows of x (a field's FieldView rows)
    std::int64_t plane_rows() const { return three_d() ? ny() : 0; } ///< a field's FieldView plane_rows
    /// Cells the kernels compute per step (everything but the halo): model + PML.
    std::int64_t computed_cells() const {
        return (nz() - 2 * halo) * (ny() - 2 * halo_y()) * (nx() - 2 * halo);
    }
    std::int64_t index(std::int64_t pz, std::int64_t py, std::int64_t px) const {
        return (pz * ny() + py) * nx() + px;
    }
};

/// What a backend is built from. The grid's rank selects the 2D or the 3D kernels.
struct PropagatorSetup {
    Grid grid;
    int order = 8;
    int pml_width = 20;
    double dt_s = 0;              ///< the INNER time step
    double pml_velocity_mps = 0;  ///< reference velocity for the PML profile (kept fixed for exact gradients)
    double freq_hz = 5;           ///< dominant frequency for the CFS alpha of the PML
    double pml_reflection = 1e-3; ///< target normal-incidence reflection coefficient
    bool free_surface = false;    ///< pressure-free top instead of a top C-PML (PaddedGrid::free_surface)
};

/// An off-grid point as weights on padded-grid cells (Hicks' Kaiser-windowed sinc): the tensor product of one
/// weight list per axis on a box of at most 8 x 8 x 8 cells (2D: y has one weight of 1). Tap (a, b, c) of the
/// box is padded cell corner + a * z_stride + b * y_stride + c, with weight (wz[a] * wy[b]) * wx[c] in float.
/// Stored so rather than as a list of cells and weights: 144 bytes a point where the list took 6 KiB in
/// 3D (a million receivers over a survey's shots held 6 GB of stencils), and rows of x taps that are
/// contiguous in memory.
struct PointStencil {
    static constexpr int max_axis_taps = 8;
    std::int64_t corner = 0;   ///< padded linear index of tap (0, 0, 0)
    std::int64_t z_stride = 0; ///< padded cells from one z plane to the next
    std::int64_t y_stride = 0; ///< padded cells from one row to the next (the padded nx)
    std::int64_t row = 0; ///< the corner's row of the padded grid, counted over the planes: corner / y_stride
    std::array<float, max_axis_taps> wz{}, wy{}, wx{};
    std::int32_t z_taps = 0, y_taps = 0, x_taps = 0; ///< weights used on each axis (0 for no point)
    /// Cells the corner's row holds from the corner's x on, up to max_axis_taps: where it is max_axis_taps, a
    /// row of the box can be read as that many lanes without leaving the row.
    std::int32_t row_cells_from_corner = 0;

    std::int64_t taps() const { return std::int64_t(z_taps) * y_taps * x_taps; }
    std::int64_t cell(int a, int b, int c) const { return corner + a * z_stride + b * y_stride + c; }
    float weight(int a, int b, int c) const {
        return wz[std::size_t(a)] * wy[std::size_t(b)] * wx[std::size_t(c)];
    }
    /// f(cell, weight) for every tap, z slowest and x fastest (increasing cells).
    template <class F> void for_each_tap(F&& f) const {
        for (int a = 0; a < z_taps; ++a)
            for (int b = 0; b < y_taps; ++b)
                for (int c = 0; c < x_taps; ++c)
                    f(cell(a, b, c), weight(a, b, c));
    }
    bool operator==(const PointStencil&) const = default;
};

struct ShotGeometry {
    PointStencil source;
    std::vector<PointStencil> receivers;
};

/// Forward state: u^n, u^(n-1) and the C-PML memory variables. Resuming from a copy reproduces the run bit
/// for bit.
class WaveState {
  public:
    virtual ~WaveState() = default;
    std::int64_t step = 0; ///< n: the next forward step to run
    /// Host views of every array that makes the state (PML variables as packed strips). For device states the
    /// views are of a host staging copy: call to_host() before reading them and from_host() after writing
    /// them.
    virtual std::vector<FieldView> fields() = 0;
    virtual void to_host() {}
    virtual void from_host() {}
    /// Back to what new_state() gives (step 0, every value zero), in the memory it has: a new shot without
    /// mapping and first-touching the arrays again (a shot's two states on a 1040^2 grid: 70-110 ms made
    /// anew, about 2 ms cleared, on the 2-core VM while a store-all gradient held 4.4 GB of snapshots).
    /// False where a backend cannot: then make a new state.
    virtual bool clear() { return false; }
};

/// Adjoint state: mu = c * lambda_u at n+1 and n+2, and the adjoints of the PML variables. `step` = n + 1
/// where n is the forward step whose adjoint comes next; a new adjoint state for a run of N forward steps has
/// step = N.
class AdjointState {
  public:
    virtual ~AdjointState() = default;
    std::int64_t step = 0;
    /// Back to what new_adjoint_state() gives, in the memory it has (WaveState::clear). False where a
    /// backend cannot.
    virtual bool clear() { return false; }
};

/// Memory for gradient snapshots that a backend writes and reads where it computes (GPU memory for a GPU
/// backend): the forward kernel writes B^n into it and the adjoint reads it there, with no transfer. data()
/// may be a device address: nothing but the propagator that made it may dereference it, and only through
/// forward_with_snapshot and adjoint.
class SnapshotMemory {
  public:
    virtual ~SnapshotMemory() = default;
    virtual float* data() = 0;
    virtual std::int64_t floats() const = 0;
};

/// Checkpoint slots for wave states in a backend's own memory (a GPU's): a state is saved there and restored
/// from there without leaving the device. Saving and restoring copy every field of the state (its step is
/// the caller's to keep) and are ordered with the propagator's steps.
class StateSlots {
  public:
    virtual ~StateSlots() = default;
    virtual std::int64_t count() const = 0;
    virtual std::uint64_t slot_bytes() const = 0;
    /// Copies `state` into slot `slot` (0 <= slot < count()).
    virtual void save(const WaveState& state, std::int64_t slot) = 0;
    /// Copies slot `slot` into `state`.
    virtual void load(std::int64_t slot, WaveState& state) = 0;
};

class Propagator {
  public:
    virtual ~Propagator() = default;
    virtual std::string backend() const = 0;
    virtual const PaddedGrid& padded() const = 0;
    virtual const PropagatorSetup& setup() const = 0;

    /// Sets the velocity model (m/s; grid must equal setup().grid). Throws ConfigError for bad velocities.
    virtual void set_model(const Model& model) = 0;
    virtual std::unique_ptr<WaveState> new_state() const = 0;
    virtual std::unique_ptr<AdjointState> new_adjoint_state() const = 0;

    /// Records receiver samples of the current state (sample n = state.step) into traces[r * trace_length +
    /// n].
    virtual void record(const WaveState& state, const ShotGeometry& geometry, float* traces,
                        std::int64_t trace_length) const = 0;
    /// Forward steps n = state.step .. state.step+count-1. `source` holds the inner-rate source amplitude per
    /// step; if `traces` is not null, receiver r's sample n goes to traces[r * trace_length + n].
    virtual void forward(WaveState& state, std::int64_t count, const ShotGeometry& geometry,
                         std::span<const float> source, float* traces, std::int64_t trace_length) = 0;
    /// One forward step n = state.step (recording sample n if traces) that also writes the gradient snapshot
    /// B^n = (u^(n+1) - 2u^n + u^(n-1)) / c over the padded grid into `snapshot` (padded().cells() floats).
    /// A backend that computes elsewhere (a GPU) may deliver the samples into `traces` only at its next
    /// synchronize(): keep `traces` alive and call synchronize() before reading them.
    virtual void forward_with_snapshot(WaveState& state, const ShotGeometry& geometry,
                                       std::span<const float> source, float* traces,
                                       std::int64_t trace_length, float* snapshot) = 0;
    /// forward_with_snapshot for a snapshot that is kept for the adjoint sweep and not read before it (a
    /// gradient's snapshots in place): a backend may write it past its caches. The CPU streams it to memory
    /// (no read of each line before its write); by default it is forward_with_snapshot.
    virtual void forward_with_kept_snapshot(WaveState& state, const ShotGeometry& geometry,
                                            std::span<const float> source, float* traces,
                                            std::int64_t trace_length, float* snapshot) {
        forward_with_snapshot(state, geometry, source, traces, trace_length, snapshot);
    }
    /// One source-free forward step with `secondary` (padded cells) added to u^(n+1): the Born scattered
    /// field.
    virtual void forward_scattered(WaveState& state, const float* secondary) = 0;
    /// The adjoint of forward step n = adj.step - 1 (recurrences in core/src/propagator/cpu_kernels.hpp).
    /// First adds weight * lambda_u^(n+1) * B^n to the gradient with respect to c = v^2 dt^2 when snapshot
    /// (B^n) is not null, then steps, then injects residual sample n (residual[r * trace_length + n]);
    /// adj.step becomes n.
    virtual void adjoint(AdjointState& adj, const ShotGeometry& geometry, std::span<const float> residual,
                         std::int64_t trace_length, const float* snapshot, float weight) = 0;
    /// `floats` floats of this backend's own snapshot memory (SnapshotMemory), or nullptr where it has none
    /// (the CPU's snapshots are in host memory already) or they would not leave room for the run's states.
    /// Pointers into it, at the start of a snapshot, may be passed as `snapshot` to forward_with_snapshot and
    /// adjoint. It must not outlive the propagator.
    virtual std::unique_ptr<SnapshotMemory> snapshot_memory(std::int64_t floats) {
        (void)floats;
        return nullptr;
    }
    /// `count` state slots in this backend's own memory (StateSlots), or nullptr where it has none or they
    /// would not leave room for the run. Only states of this propagator go in; they must not outlive it.
    virtual std::unique_ptr<StateSlots> state_slots(std::int64_t count) {
        (void)count;
        return nullptr;
    }
    /// Returns when every step queued so far has run and every receiver sample is in its traces. A GPU
    /// backend's steps that write no host memory return before they run (its kernels are queued); the CPU's
    /// have run on return. Timers need it.
    virtual void synchronize() {}
    /// Gradient with respect to velocity on the model grid (PML contributions folded onto the edge cells),
    /// added to `gradient_mps` (model cells). Clears the internal accumulator.
    virtual void take_velocity_gradient(std::span<float> gradient_mps) = 0;

    /// Host copy of u^n (or of lambda_u) restricted to the model region (for display), model cells.
    virtual void model_region_wavefield(const WaveState& state, std::span<float> out) const = 0;
    virtual void model_region_adjoint(const AdjointState& adj, std::span<float> out) const = 0;
    /// The padded-grid perturbation dc = 2 v dt^2 E dv of a model-grid velocity perturbation (E extends edges
    /// into the PML), for Born modelling; its transpose is what take_velocity_gradient applies.
    virtual std::vector<float> padded_velocity_perturbation(std::span<const float> dv_mps) const = 0;
};

/// `state` ready for a new shot of `p`: cleared where its backend can (WaveState::clear), else replaced by a
/// new one; made where it is null. A run over several shots keeps one state and renews it per shot.
void renew_state(const Propagator& p, std::unique_ptr<WaveState>& state);
void renew_state(const Propagator& p, std::unique_ptr<AdjointState>& adj);

/// Throws ConfigError naming what is wrong with a setup (order, PML width, time step, grid, reference
/// velocity, a model smaller than the stencil, a time step above the CFL limit of the reference velocity).
/// Every backend calls it first.
void validate_propagator_setup(const PropagatorSetup& setup);

/// Throws ConfigError naming what is wrong with a model for a propagator built from `setup`: another grid,
/// a velocity that is not finite and positive (validate_model), or one above the reference velocity that
/// fixed the time step and the PML. Every backend's set_model calls it first, for both ranks.
void validate_model_for_setup(const PropagatorSetup& setup, const Model& model);

/// Hicks (2002) interpolation of a point (model coordinates; y only in 3D) onto the padded grid: the tensor
/// product of normalised 1D Kaiser-windowed sinc weights per axis. Throws ConfigError if the point lies
/// outside the model.
PointStencil hicks_stencil(const PaddedGrid& grid, const Point& point, const std::string& what);

/// Backend registry: "cpu" always; "cuda" when gpu/ is built and a device is present.
struct BackendInfo {
    std::string name;
    std::function<bool()> available; ///< false e.g. without a CUDA driver
    std::function<std::string()> device_name;
    std::function<std::unique_ptr<Propagator>(const PropagatorSetup&)> make;
    std::function<void()> start; ///< optional: readies the device ahead of make (start_backend)
};
void register_backend(BackendInfo info);
std::vector<std::string> available_backends();
/// "auto" picks cuda if available, else cpu. Throws ConfigError for an unknown or unavailable backend.
/// "cpu" and "cuda" run 2D or 3D kernels by the grid's rank.
std::unique_ptr<Propagator> make_propagator(const std::string& backend, const PropagatorSetup& setup);
std::string backend_device_name(const std::string& backend);
/// Readies the device of `backend` ("auto" resolved as make_propagator does) ahead of make_propagator: for
/// CUDA the driver and its context, about a quarter of a second on an H100, which a command times apart from
/// the propagator's set-up. Never throws: make_propagator reports what is wrong. Nothing to do for the CPU.
/// Call it after reading input files, not in a thread beside the reading: the first read of a file forks a
/// checking child (isolated_read.hpp), which must not inherit a lock held by a thread inside the driver's
/// start.
void start_backend(const std::string& backend);

} // namespace fwi
