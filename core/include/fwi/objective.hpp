#pragma once
// The inversion objective: misfit and gradient dJ/dv over the shots, evaluated in batches of B shots with the
// gradient accumulated (memory bounded by one batch: modelled data are not kept), optionally on a random
// subset of shots per iteration (seeded, reproducible), for one frequency stage at a time (observed data and
// wavelet low-passed alike). With a communicator every rank runs the same objective and each batch's shots
// are split over the ranks; the sums are the shot-ordered ones of communicator.hpp, so any number of ranks
// gives the single process's bits.
//
// Frequency stages: the observed data are low-passed once per stage with the zero-phase filter F
// (frequency_filter.hpp). By default F is applied to the modelled traces too, inside the misfit, with adjoint
// source F^T r = F r (the zero-padded zero-phase filter is a symmetric matrix): exactly consistent at every
// cut-off. With filter_wavelet the wavelet is low-passed instead (Simulation::set_wavelet), which is
// equivalent only when the filtered wavelet has no energy before t = 0 and the traces have none near their
// end: a zero-phase filter spreads signals backwards in time by about 1/cutoff; what the wavelet gets before
// t = 0 is lost, and filtering truncated observed traces is not filtering the untruncated ones. With a
// Ricker's 1.5/f delay, a low cut-off or short traces the two data sets disagree even at the true model
// (tst_inversion_objective measures it).
#include "fwi/communicator.hpp"
#include "fwi/conditioning.hpp"
#include "fwi/events.hpp"
#include "fwi/gather.hpp"
#include "fwi/misfit.hpp"
#include "fwi/optimizer.hpp"
#include "fwi/settings.hpp"
#include "fwi/simulation.hpp"

#include <cstdint>
#include <vector>

namespace fwi {

struct ObjectiveOptions {
    MisfitOptions misfit;
    GradientSettings gradient;   ///< checkpointing of each batch's gradient
    int batch_shots = 0;         ///< shots per batch; 0 = all in one
    int shots_per_iteration = 0; ///< random subset size per iteration; 0 = every shot
    std::uint64_t seed = 1;      ///< for the subsets: the same seed, stage and iteration give the same shots
    std::vector<int> shots;      ///< the shots this objective may use; empty = all
    int lowpass_order = 6;       ///< of the frequency-continuation filter (frequency_filter.hpp)
    bool filter_wavelet = false; ///< low-pass the wavelet instead of the modelled traces (see above)
    MaskOptions mask;
    PreconditionerOptions preconditioner;
    bool illumination = false;     ///< precondition with the source illumination (conditioning.hpp)
    int illumination_interval = 0; ///< inner steps between wavefield samples for E; 0 = inner_nt / 100
    /// The job's ranks: each batch's shots are split over them (gradient_engine.hpp); null = alone.
    Communicator* communicator = nullptr;
};

class Objective {
  public:
    /// `start_model` fixes the mask (water by velocity). ConfigError for bad options or observed data of the
    /// wrong shape. `observer` and `cancel` are passed to every gradient computation.
    Objective(Simulation& sim, std::vector<Gather> observed, const Model& start_model,
              ObjectiveOptions options, Observer* observer = nullptr, const CancelToken* cancel = nullptr);
    /// Gives the simulation its original wavelet back.
    ~Objective();
    Objective(const Objective&) = delete;
    Objective& operator=(const Objective&) = delete;

    /// Selects the stage: data low-passed at cutoff_hz (0 = unfiltered), see above.
    void set_frequency(double cutoff_hz);
    double frequency() const { return cutoff_hz_; }
    /// Picks the shots of (stage, iteration): all usable shots, or a seeded random subset (sorted).
    void select_shots(int stage, int iteration);
    const std::vector<int>& active_shots() const { return active_; }

    /// J and dJ/dv summed over the active shots, batch by batch; masked cells get a zero gradient (they are
    /// fixed).
    double evaluate(const Model& model, std::vector<float>& gradient);
    /// evaluate() on the simulation's grid, as an optimizer objective.
    ObjectiveFunction function();

    /// E = sum over the usable shots and time (every illumination_interval inner steps) of u^2, model cells,
    /// from one forward pass per shot at `model` with the current stage's wavelet.
    std::vector<double> source_illumination(const Model& model);
    /// Sets the illumination used by preconditioner() (e.g. restored on resume); empty = none.
    void set_illumination(std::vector<double> illumination) { illumination_ = std::move(illumination); }
    const std::vector<double>& illumination() const { return illumination_; }
    /// C = M D^1/2 K K D^1/2 M from the mask, the current illumination and the smoothing options.
    Preconditioner preconditioner() const;

    const std::vector<float>& mask() const { return mask_; }
    const ObjectiveOptions& options() const { return options_; }
    int evaluations() const { return evaluations_; }
    std::int64_t propagated_shots() const { return propagated_shots_; }

  private:
    Simulation& sim_;
    std::vector<Gather> observed_, stage_observed_;
    std::vector<float> wavelet_; ///< the experiment's own (unfiltered) wavelet
    ObjectiveOptions options_;
    Observer* observer_;
    const CancelToken* cancel_;
    MisfitFunction base_misfit_, misfit_;
    std::vector<int> usable_, active_;
    std::vector<float> mask_;
    std::vector<double> illumination_;
    double cutoff_hz_ = 0;
    int evaluations_ = 0;
    std::int64_t propagated_shots_ = 0;
};

/// The indices of `count` shots out of `from`, drawn without replacement by a generator seeded with (seed,
/// stage, iteration) (splitmix64 + Fisher-Yates: the same on every platform), sorted. count >= from.size()
/// returns `from`.
std::vector<int> random_shot_subset(const std::vector<int>& from, int count, std::uint64_t seed, int stage,
                                    int iteration);

} // namespace fwi
