#pragma once
// The analytic 3D direct wave in a homogeneous medium, for the 3D propagator tests (REFERENCES.md, "3D"): the
// solution of u_tt = v^2 lap u + v^2 q delta(x) f(t) is u(r, t) = q f(t - r / v) / (4 pi r), a delayed copy
// of the source falling like 1/r, with q = dx dy dz for a unit-cell injection. In the frequency domain (the
// DFT's e^{-i w t} convention of analytic_wave.hpp) U(w) = q F(w) e^{-i k r} / (4 pi r), k = w / v. With
// `leapfrog_dt` > 0 the wavenumber is the leapfrog scheme's, k = 2 sin(w dt / 2) / (v dt): the solution of
// the time-discrete, space-continuous equation, so that the comparison measures the spatial error alone (the
// 2D helper's convention). With leapfrog_dt = 0 the result is the delayed, scaled wavelet itself.
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace fwi::test {

inline std::vector<double> analytic_trace_3d(const std::vector<float>& wavelet, double dt, double r, double v,
                                             double q, double leapfrog_dt = 0) {
    const std::size_t n = wavelet.size() * 4; // no tail in 3D: padding only keeps the delay from wrapping
    const std::size_t bins = n / 2 + 1;
    std::vector<std::complex<double>> twiddle(n); // e^{-2 pi i m / n}
    for (std::size_t m = 0; m < n; ++m)
        twiddle[m] = std::polar(1.0, -2 * std::numbers::pi * double(m) / double(n));
    std::vector<std::complex<double>> spec(bins);
    for (std::size_t k = 0; k < bins; ++k) {
        std::complex<double> s = 0;
        for (std::size_t t = 0; t < wavelet.size(); ++t)
            s += double(wavelet[t]) * twiddle[k * t % n];
        const double w = 2 * std::numbers::pi * double(k) / (double(n) * dt);
        const double wavenumber =
            leapfrog_dt > 0 ? 2 * std::sin(w * leapfrog_dt / 2) / (v * leapfrog_dt) : w / v;
        spec[k] = s * q * std::polar(1.0, -wavenumber * r) / (4 * std::numbers::pi * r);
    }
    std::vector<double> out(wavelet.size());
    for (std::size_t t = 0; t < out.size(); ++t) {
        double sum = spec[0].real();
        for (std::size_t k = 1; k < bins; ++k) {
            const double weight = (k == n / 2) ? 1.0 : 2.0;
            sum += weight * (spec[k] * std::conj(twiddle[k * t % n])).real();
        }
        out[t] = sum / double(n);
    }
    return out;
}

} // namespace fwi::test
