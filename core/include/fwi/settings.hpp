#pragma once
// Plain settings values. Units in names; defaults are what a first-time user should get.
#include "fwi/acquisition.hpp"
#include "fwi/model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fwi {

struct PropagationSettings {
    int order = 8;               ///< spatial accuracy order: 2, 4, 6 or 8
    int pml_width = 20;          ///< C-PML cells on every side (every side but the top with a free surface)
    double freq_hz = 5.0;        ///< Ricker peak frequency (also sets the PML's CFS alpha)
    double dt_s = 0.004;         ///< the user's (data) sample interval
    std::int64_t nt = 1000;      ///< number of data samples
    double max_velocity_mps = 0; ///< CFL and PML reference velocity; 0 = the model's maximum at setup
    double cfl_number = 0.6;     ///< v_max dt sqrt(1/dx^2 + 1/dz^2) <= cfl_number
    std::vector<float> wavelet;  ///< user wavelet at dt_s (nt samples); empty = Ricker(freq_hz)
    bool free_surface = false;   ///< the top (z = 0) is a pressure-free surface instead of a C-PML
    bool operator==(const PropagationSettings&) const = default;
};

struct GradientSettings {
    std::string schedule =
        "all"; ///< all | uniform:K | revolve:S | multilevel:R,D | online:S | adaptive[:S] | auto
    std::string compression =
        "none";                     ///< none | zstd | lz4 | blosc | zfp-accuracy:TOL | zfp-precision:B | ...
    std::uint64_t budget_bytes = 0; ///< RAM tier budget; 0 = unlimited
    std::uint64_t disk_budget_bytes = 0;
    std::string scratch_dir;   ///< disk tier directory; empty = system temp
    int sampling_interval = 1; ///< gradient sampling interval (Deepwave's model_gradient_sampling_interval)
    bool operator==(const GradientSettings&) const = default;
};

struct InversionSettings {
    int iterations = 10;
    std::vector<double> stage_freqs_hz; ///< low-pass cut-offs, one stage each; empty = one unfiltered stage
    double min_velocity_mps = 1400;
    double max_velocity_mps = 5000;
    std::string optimizer = "lbfgs";
    std::string misfit = "l2";
    bool operator==(const InversionSettings&) const = default;
};

/// Everything that defines a run, as loaded from or saved to a project.
struct Experiment {
    Model true_model; ///< may be empty (grid.cells() == 0) when data are real
    Model initial_model;
    Model current_model;
    Acquisition acquisition;
    PropagationSettings propagation;
    GradientSettings gradient;
    InversionSettings inversion;
};

} // namespace fwi
