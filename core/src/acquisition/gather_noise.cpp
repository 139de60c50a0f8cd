// Additive white Gaussian noise at a chosen signal-to-noise ratio, for synthetic "observed" data.
#include "fwi/error.hpp"
#include "fwi/gather.hpp"

#include <cmath>
#include <random>

namespace fwi {

void add_noise(std::vector<Gather>& gathers, double snr_db, std::uint64_t seed) {
    if (!(std::abs(snr_db) <= 200)) // beyond, the noise is 0 or overflows float
        throw ConfigError("signal-to-noise ratio " + std::to_string(snr_db) +
                          " dB: give a number of dB in [-200, 200]");
    double energy = 0;
    std::size_t samples = 0;
    for (const Gather& g : gathers) {
        for (float v : g.traces)
            energy += double(v) * double(v);
        samples += g.traces.size();
    }
    if (samples == 0 || !(energy > 0))
        throw ConfigError("cannot add noise at an SNR to data that are all zero");
    // SNR = 10 log10(signal power / noise power), powers as mean squares over all samples of all shots.
    const double noise_rms = std::sqrt(energy / double(samples) / std::pow(10.0, snr_db / 10.0));
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, noise_rms);
    for (Gather& g : gathers)
        for (float& v : g.traces)
            v = float(double(v) + normal(rng));
}

} // namespace fwi
