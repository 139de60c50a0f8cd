#pragma once
// Zero-phase low-pass filtering of traces and wavelets for frequency continuation. The SAME filter is applied
// to the observed data and to the source wavelet; modelling is linear in the wavelet, so modelled data come
// out filtered consistently.
#include "fwi/gather.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace fwi {

/// Gain of the filter at f: 1 / (1 + (f / cutoff_hz)^(2 order)), the magnitude response of a Butterworth
/// filter of that order applied forward and backward (-6 dB at the cut-off), without phase.
double lowpass_gain(double freq_hz, double cutoff_hz, int order);

/// Filters each row of a (rows x n) array sampled at dt_s by multiplying its spectrum by lowpass_gain. Rows
/// are zero-padded to at least 2n (a power-of-two-friendly length) so that the filter does not wrap around in
/// time. ConfigError for a non-positive cut-off or dt, or an order outside 1..32.
std::vector<float> lowpass_rows(std::span<const float> rows_data, std::int64_t rows, std::int64_t n,
                                double dt_s, double cutoff_hz, int order = 6);

/// Every gather filtered (see lowpass_rows).
std::vector<Gather> lowpass_gathers(const std::vector<Gather>& gathers, double cutoff_hz, int order = 6);

} // namespace fwi
