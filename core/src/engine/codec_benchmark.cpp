// fwi bench --codecs: codec cost per propagator state against one forward step (codec_benchmark.hpp).
#include "fwi/codec_benchmark.hpp"

#include "engine/bench_propagator.hpp"
#include "fwi/codec.hpp"
#include "fwi/codec_timing.hpp"
#include "fwi/error.hpp"
#include "fwi/events.hpp"
#include "runtime/saved_thread_count.hpp"
#include "runtime/seconds_since.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <omp.h>
#include <random>

namespace fwi {
namespace {

/// Adds a jittered lattice of Gaussian pulses (sigma 4 cells, amplitudes 0.3-1 of either sign) to the
/// interior of a padded field, `spacing` cells apart.
void add_pulses(FieldView u, std::int64_t margin, std::int64_t spacing) {
    constexpr double sigma = 4.0;
    constexpr std::int64_t reach = 24; // 6 sigma: beyond it a pulse is below 1e-7 of its peak
    std::mt19937 rng(20261124);
    const auto uniform = [&rng] { return double(rng()) / 4294967296.0; };
    for (std::int64_t cz = margin + spacing / 2; cz < u.rows - margin - reach; cz += spacing)
        for (std::int64_t cx = margin + spacing / 2; cx < u.cols - margin - reach; cx += spacing) {
            const auto jitter = [&] { return std::int64_t((uniform() - 0.5) * 0.5 * double(spacing)); };
            const std::int64_t z0 = std::max(margin + reach, cz + jitter());
            const std::int64_t x0 = std::max(margin + reach, cx + jitter());
            const double amplitude = (0.3 + 0.7 * uniform()) * (uniform() < 0.5 ? -1 : 1);
            for (std::int64_t z = z0 - reach; z <= z0 + reach; ++z)
                for (std::int64_t x = x0 - reach; x <= x0 + reach; ++x) {
                    const double r2 = double((z - z0) * (z - z0) + (x - x0) * (x - x0));
                    u.data[z * u.cols + x] += float(amplitude * std::exp(-r2 / (2 * sigma * sigma)));
                }
        }
}

double max_abs_error(const Codec& codec, const std::vector<ConstFieldView>& fields) {
    double error = 0;
    std::vector<std::byte> bytes;
    for (const ConstFieldView& f : fields) {
        bytes.clear();
        codec.compress(f, bytes);
        std::vector<float> back(std::size_t(f.size()));
        codec.decompress(bytes.data(), bytes.size(), {back.data(), f.rows, f.cols, f.plane_rows});
        for (std::size_t i = 0; i < back.size(); ++i)
            error = std::max(error, std::abs(double(back[i]) - double(f.data[i])));
    }
    return error;
}

} // namespace

CodecBenchResult run_codec_benchmark(const CodecBenchCase& bench) {
    for (const int t : bench.threads)
        if (t < 1) throw ConfigError("codec benchmark: thread count " + std::to_string(t) + " is not >= 1");
    std::vector<std::unique_ptr<Codec>> codecs;
    for (const auto& spec : bench.codecs)
        codecs.push_back(make_codec(spec)); // bad specs fail before minutes of propagation
    const auto poll = [&] {
        if (bench.cancel) bench.cancel->checkpoint();
    };
    const SavedThreadCount saved;
    detail::BenchPropagator b =
        detail::make_bench_propagator(bench.nz, bench.nx, bench.order, bench.pml_width, bench.backend);
    Propagator& p = *b.propagator;
    CodecBenchResult r;
    r.device = backend_device_name(bench.backend);
    r.cells_per_step = p.padded().computed_cells();

    // The wavefield: pulses at rest (u = u_prev) propagated `steps` steps, without a source.
    ShotGeometry g;
    g.source =
        hicks_stencil(p.padded(), Point{b.model.grid.width_m() / 2, b.model.grid.depth_m() / 2}, "source");
    const std::int64_t timed = std::max<std::int64_t>(1, bench.timed_steps);
    const std::vector<float> silence(
        std::size_t(bench.steps + std::int64_t(bench.threads.size()) * (timed + 1) + 1));
    auto state = p.new_state();
    {
        const std::vector<FieldView> f = state->fields();
        const std::int64_t spacing = bench.pulse_spacing > 0 ? bench.pulse_spacing : bench.steps / 2;
        add_pulses(f[0], p.padded().origin(), std::max<std::int64_t>(32, spacing));
        std::copy(f[0].data, f[0].data + f[0].size(), f[1].data);
        state->from_host();
    }
    for (std::int64_t done = 0; done < bench.steps; done += 50) {
        poll();
        p.forward(*state, std::min<std::int64_t>(50, bench.steps - done), g, silence, nullptr, 0);
    }
    state->to_host();

    // A copy of the state scaled to a peak of 1: what the codecs see.
    std::vector<std::vector<float>> values;
    std::vector<ConstFieldView> fields;
    double peak = 0;
    for (const FieldView& f : state->fields())
        for (std::int64_t i = 0; i < f.size(); ++i)
            peak = std::max(peak, double(std::abs(f.data[i])));
    if (!(peak > 0))
        throw ConfigError("codec benchmark: no wavefield is left to code after " +
                          std::to_string(bench.steps) + " steps on " + std::to_string(bench.nz) + " x " +
                          std::to_string(bench.nx) +
                          " cells (the pulses did not fit, or the PML absorbed them): give a larger grid or "
                          "fewer wavefield steps");
    for (const FieldView& f : state->fields()) {
        auto& v = values.emplace_back(f.data, f.data + f.size());
        for (float& x : v)
            x = float(double(x) / peak);
        fields.emplace_back(v.data(), f.rows, f.cols, f.plane_rows);
        r.state_bytes += std::uint64_t(f.size()) * sizeof(float);
    }
    r.fields = int(fields.size());
    const auto& u = values.front();
    r.quiet_fraction =
        double(std::count_if(u.begin(), u.end(), [](float x) { return std::abs(x) < 1e-6f; })) /
        double(u.size());

    // One forward step at each thread count (after a warm-up step), on the same state.
    for (const int t : bench.threads) {
        poll();
        omp_set_num_threads(t);
        p.forward(*state, 1, g, silence, nullptr, 0);
        const auto t0 = std::chrono::steady_clock::now();
        p.forward(*state, timed, g, silence, nullptr, 0);
        r.step_threads.push_back(t);
        r.step_s.push_back(seconds_since(t0) / double(timed));
    }

    for (const auto& codec : codecs) {
        const double error = codec->lossless() ? 0 : max_abs_error(*codec, fields);
        for (std::size_t k = 0; k < bench.threads.size(); ++k) {
            poll();
            omp_set_num_threads(bench.threads[k]);
            CodecBenchRow row;
            row.codec = codec->name();
            row.threads = bench.threads[k];
            std::uint64_t stored = 0;
            for (const ConstFieldView& f : fields) {
                const CodecTiming t = measure_codec(*codec, f, bench.repeats);
                row.compress_s += t.compress_seconds;
                row.decompress_s += t.decompress_seconds;
                stored += t.compressed_bytes;
            }
            row.ratio = double(r.state_bytes) / double(std::max<std::uint64_t>(stored, 1));
            row.max_abs_error = error;
            row.cost_in_steps = (row.compress_s + row.decompress_s) / r.step_s[k];
            r.rows.push_back(row);
        }
    }
    return r;
}

} // namespace fwi
