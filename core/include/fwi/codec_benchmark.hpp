#pragma once
// What compressing a propagator state costs against one forward step, both measured in one run on one grid
// (fwi bench --codecs). The state is a real propagated wavefield: a jittered lattice of smooth pulses let
// loose in the bench's velocity model (bench_propagator.hpp) and propagated `steps` forward steps, so that
// the expanding wavefronts cross and interfere with quiet patches between them, then scaled to a peak of 1
// (ZFP accuracy tolerances are relative to that peak). Every codec compresses and decompresses every field
// of that state at each thread count.
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

class CancelToken;

struct CodecBenchCase {
    std::int64_t nz = 4000, nx = 4000;
    int order = 8;
    int pml_width = 20;
    std::int64_t steps = 600;      ///< forward steps that make the wavefield (not timed)
    std::int64_t timed_steps = 20; ///< forward steps timed at each thread count
    /// Cells between the initial pulses (0: steps / 2, where the wavefronts of 600 steps overlap and few
    /// cells stay quiet; larger spacings leave quiet patches, as early in a shot).
    std::int64_t pulse_spacing = 0;
    std::vector<std::string> codecs{"none",       "lz4",         "zstd:1",           "blosc",
                                    "zfp-rate:8", "zfp-rate:16", "zfp-accuracy:1e-4"};
    std::vector<int> threads{1, 2}; ///< OpenMP threads for the steps and the codecs
    int repeats = 3;                ///< codec timings are medians of this many round trips
    std::string backend = "cpu";
    const CancelToken* cancel = nullptr; ///< polled between codecs and steps; Cancelled is thrown
};

struct CodecBenchRow {
    std::string codec;
    int threads = 1;
    double compress_s = 0;    ///< one whole state (every field), median per field summed
    double decompress_s = 0;  ///< likewise
    double ratio = 1;         ///< raw bytes / stored bytes of the state (frame headers included)
    double max_abs_error = 0; ///< over the state, against its peak of 1
    double cost_in_steps = 0; ///< (compress + decompress) / one forward step at the same thread count
};

struct CodecBenchResult {
    std::string device;
    std::int64_t cells_per_step = 0;
    std::uint64_t state_bytes = 0; ///< raw bytes of one state (all fields)
    int fields = 0;                ///< fields per state
    double quiet_fraction = 0;     ///< share of the wavefield's cells with |u| < 1e-6 of the peak
    std::vector<int> step_threads;
    std::vector<double> step_s; ///< one forward step, per entry of step_threads
    std::vector<CodecBenchRow> rows;
};

/// Throws ConfigError for a bad codec spec or thread count, Cancelled when `cancel` fires.
CodecBenchResult run_codec_benchmark(const CodecBenchCase& bench);

} // namespace fwi
