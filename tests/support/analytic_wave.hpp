#pragma once
// The analytic 2D direct wave in a homogeneous medium, for the propagator tests (REFERENCES.md): the trace at
// distance r of u_tt = v^2 lap u + v^2 q delta(x) f(t), q = dx dz (a unit-cell injection), is
// U(w) = q F(w) G(w) with G = (-i/4) H0^(2)(k r), k = w / v, for the e^{+iwt} convention of the DFT used
// here. With `leapfrog_dt` > 0 the wavenumber is the leapfrog scheme's, k = 2 sin(w dt / 2) / (v dt): the
// solution of the time-discrete, space-continuous equation, so the comparison measures the spatial error
// alone.
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace fwi::test {

inline std::vector<double> analytic_trace(const std::vector<float>& wavelet, double dt, double r, double v,
                                          double q, double leapfrog_dt = 0) {
    const std::size_t n = wavelet.size() * 8; // padding keeps the 2D tail from wrapping around
    const std::size_t bins = n / 2 + 1;
    std::vector<std::complex<double>> twiddle(n); // e^{-2 pi i m / n}
    for (std::size_t m = 0; m < n; ++m)
        twiddle[m] = std::polar(1.0, -2 * std::numbers::pi * double(m) / double(n));
    std::vector<std::complex<double>> spec(bins);
    for (std::size_t k = 1; k < bins; ++k) {
        std::complex<double> s = 0;
        for (std::size_t t = 0; t < wavelet.size(); ++t)
            s += double(wavelet[t]) * twiddle[k * t % n];
        const double w = 2 * std::numbers::pi * double(k) / (double(n) * dt);
        const double wavenumber =
            leapfrog_dt > 0 ? 2 * std::sin(w * leapfrog_dt / 2) / (v * leapfrog_dt) : w / v;
        const double kr = wavenumber * r;
        const std::complex<double> h2(std::cyl_bessel_j(0.0, kr), -std::cyl_neumann(0.0, kr));
        spec[k] = s * q * std::complex<double>(0, -0.25) * h2;
    }
    std::vector<double> out(wavelet.size());
    for (std::size_t t = 0; t < out.size(); ++t) {
        double sum = 0;
        for (std::size_t k = 1; k < bins; ++k) {
            const double weight = (k == n / 2) ? 1.0 : 2.0;
            sum += weight * (spec[k] * std::conj(twiddle[k * t % n])).real();
        }
        out[t] = sum / double(n);
    }
    return out;
}

} // namespace fwi::test
