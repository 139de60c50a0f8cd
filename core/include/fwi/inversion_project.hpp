#pragma once
// Glue between a Project (what is saved) and run_inversion (what runs), shared by the CLI and the GUI.
#include "fwi/inversion.hpp"
#include "fwi/project.hpp"

namespace fwi {

/// The inversion a project describes: its initial model (and true model, when known), acquisition,
/// propagation and gradient settings, observed data, and experiment.inversion (stages from stage_freqs_hz
/// with `iterations` each, velocity bounds, optimizer, misfit). The reference velocity is max(upper bound,
/// the project's own reference), so that every model the bounds allow is stable. When the project holds an
/// optimizer state and `resume` is true, the setup resumes from it, with the run options the inversion was
/// started with (load_run_options). ConfigError for a project without
/// observed data, unknown optimizer/misfit names, or an upper bound above 4 times the project's reference
/// velocity (the time step would shrink as much).
InversionSetup inversion_setup(const Project& project, bool resume = false);

/// Key of project.metadata that holds the run options of the project's inversion (JSON).
inline constexpr const char* run_options_key = "fwi_invert_options";

/// Keeps the options of `setup` that InversionSettings has no place for (per-stage iteration counts, data
/// window, batches and random subsets, conditioning, L-BFGS memory) in project.metadata[run_options_key], so
/// that a resume, from the command line or the GUI, continues with the same ones. With `stage_counts` false
/// the per-stage counts already saved are kept (the GUI's settings edit the other options).
void save_run_options(Project& project, const InversionSetup& setup, bool stage_counts = true);

/// Applies the run options saved in the project to `setup`; nothing when there are none (or the entry is
/// empty). With `stage_counts` false the per-stage iteration counts are left alone (a fresh run takes them
/// from the settings). ConfigError when they are malformed or give counts for a different number of stages.
void load_run_options(const Project& project, InversionSetup& setup, bool stage_counts = true);

/// Records an iteration in the project: appended to the history, and the current model, gradient and misfit
/// set from it (the model and gradient only when the record carries them).
void apply_record(Project& project, const IterationRecord& record);

} // namespace fwi
