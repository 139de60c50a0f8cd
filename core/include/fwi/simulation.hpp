#pragma once
// A Simulation binds a grid, an acquisition and propagation settings to a backend: it computes the time axis
// ONCE (CFL sub-stepping), resamples the source wavelet over the whole trace, and precomputes every shot's
// stencils. Forward modelling returns gathers at the user's sampling (receivers downsampled over the whole
// trace). The grid's rank (2D or 3D) selects the propagator's kernels; everything else is the same for both.
#include "fwi/events.hpp"
#include "fwi/gather.hpp"
#include "fwi/propagator.hpp"
#include "fwi/settings.hpp"
#include "fwi/time_axis.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

/// The propagator setup a Simulation with these settings builds: the grid, order and PML, the inner time step
/// of `time`, the reference velocity and the frequency that tunes the PML.
PropagatorSetup make_propagator_setup(const Grid& grid, const PropagationSettings& settings,
                                      const TimeAxis& time, double reference_velocity_mps);

class Simulation {
  public:
    /// `reference_velocity_mps` (> 0) fixes the CFL step and the PML profile; set_model refuses a model
    /// faster than it. Throws ConfigError for impossible settings or points outside the model (in 3D the
    /// points' y counts too).
    Simulation(const Grid& grid, const Acquisition& acquisition, const PropagationSettings& settings,
               double reference_velocity_mps, const std::string& backend = "auto");

    const TimeAxis& time() const { return time_; }
    const Acquisition& acquisition() const { return acquisition_; }
    const PropagationSettings& settings() const { return settings_; }
    Propagator& propagator() { return *propagator_; }
    const ShotGeometry& geometry(std::size_t shot) const { return geometries_.at(shot); }
    /// Inner-rate source amplitudes (inner_nt samples).
    const std::vector<float>& inner_source() const { return inner_source_; }
    /// The user-rate wavelet.
    const std::vector<float>& wavelet() const { return wavelet_; }
    /// Replaces the wavelet (user rate, nt samples), e.g. a low-passed one for a frequency stage.
    void set_wavelet(std::vector<float> wavelet);
    std::string warnings() const { return warnings_; }

    void set_model(const Model& model);
    /// A number that changes whenever this simulation's wavefields would (set_model, set_wavelet) and that no
    /// other simulation of the process has had: what a cache of its wavefields is keyed by (not its address:
    /// set_model keeps the object, and the next simulation may be built where this one was).
    std::uint64_t wavefield_serial() const { return wavefield_serial_; }
    /// Models the given shots (all when empty); gathers at the user's sampling.
    std::vector<Gather> forward(const std::vector<int>& shots = {}, Observer* observer = nullptr,
                                const CancelToken* cancel = nullptr);
    /// The modelled traces of one shot at the user's rate from inner-rate traces.
    std::vector<float> to_user_rate(const std::vector<float>& inner_traces, std::int64_t receivers) const;
    /// The inner-rate adjoint source of a user-rate residual (the exact transpose of to_user_rate), into
    /// `inner` (resized to receivers x inner_nt; a run reuses its memory from shot to shot).
    void to_inner_rate_adjoint(const std::vector<float>& user_residual, std::int64_t receivers,
                               std::vector<float>& inner) const;
    Gather empty_gather(std::size_t shot) const;
    /// The user-rate gather of `shot` from its inner-rate traces (receivers x inner_nt): to_user_rate's,
    /// without zeroing a gather first.
    Gather gather_from_inner(std::size_t shot, const std::vector<float>& inner) const;

    /// The bytes of the traces of `shots` (all when empty): `data`, every shot's at the user's rate, summed;
    /// `shot`, the largest shot's at the user's rate; `inner`, the largest shot's at the inner rate. Runs
    /// check what they hold against the machine with them.
    struct TraceBytes {
        std::uint64_t data = 0, shot = 0, inner = 0;
    };
    TraceBytes trace_bytes(const std::vector<int>& shots = {}) const;
    /// The bytes of every shot's source and receiver stencils, which a simulation holds for its lifetime.
    std::uint64_t stencil_bytes() const;

  private:
    Acquisition acquisition_;
    PropagationSettings settings_;
    TimeAxis time_;
    std::unique_ptr<Propagator> propagator_;
    std::vector<ShotGeometry> geometries_;
    std::vector<float> wavelet_, inner_source_;
    std::string warnings_;
    static std::uint64_t next_wavefield_serial();
    std::uint64_t wavefield_serial_ = next_wavefield_serial();
};

} // namespace fwi
