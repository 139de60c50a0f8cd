#include "fwi/ui/colormap.hpp"

#include <vtkLookupTable.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace fwi::ui {
namespace {

using Rgb = std::array<double, 3>;

// Matplotlib's viridis sampled at 0, 0.1, ..., 1 (linear interpolation between samples is visually exact).
constexpr std::array<Rgb, 11> viridis = {{{0.267004, 0.004874, 0.329415},
                                          {0.282623, 0.140926, 0.457517},
                                          {0.253935, 0.265254, 0.529983},
                                          {0.206756, 0.371758, 0.553117},
                                          {0.163625, 0.471133, 0.558148},
                                          {0.127568, 0.566949, 0.550556},
                                          {0.134692, 0.658636, 0.517649},
                                          {0.266941, 0.748751, 0.440573},
                                          {0.477504, 0.821444, 0.318195},
                                          {0.741388, 0.873449, 0.149561},
                                          {0.993248, 0.906157, 0.143936}}};
// Matplotlib's seismic: dark blue, blue, white (zero), red, dark red.
constexpr std::array<Rgb, 5> seismic = {{{0, 0, 0.3}, {0, 0, 1}, {1, 1, 1}, {1, 0, 0}, {0.5, 0, 0}}};
constexpr std::array<Rgb, 2> gray = {{{0, 0, 0}, {1, 1, 1}}};
constexpr std::array<Rgb, 6> rainbow = {
    {{0, 0, 0.6}, {0, 0.5, 1}, {0, 0.9, 0.6}, {0.9, 0.9, 0}, {1, 0.5, 0}, {0.8, 0, 0}}};

std::span<const Rgb> stops(Colormap c) {
    switch (c) {
    case Colormap::Seismic:
        return seismic;
    case Colormap::Gray:
        return gray;
    case Colormap::Rainbow:
        return rainbow;
    case Colormap::Viridis:
        break;
    }
    return viridis;
}

Rgb sample(Colormap c, double t) {
    const auto s = stops(c);
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * double(s.size() - 1);
    const auto i = std::min(std::size_t(t), s.size() - 2);
    const double f = t - double(i);
    return {s[i][0] + f * (s[i + 1][0] - s[i][0]), s[i][1] + f * (s[i + 1][1] - s[i][1]),
            s[i][2] + f * (s[i + 1][2] - s[i][2])};
}

} // namespace

QStringList colormap_names() {
    return {"viridis", "seismic", "gray", "rainbow"};
}

QString colormap_name(Colormap c) {
    return colormap_names().at(int(c));
}

Colormap colormap_from_name(const QString& name) {
    const int i = int(colormap_names().indexOf(name.toLower()));
    return i < 0 ? Colormap::Viridis : Colormap(i);
}

QColor colormap_color(Colormap c, double t) {
    const Rgb rgb = sample(c, t);
    return QColor::fromRgbF(float(rgb[0]), float(rgb[1]), float(rgb[2]));
}

void apply_colormap(vtkLookupTable* table, Colormap c, double low, double high) {
    if (!(high > low)) {
        const double pad = std::max(std::abs(low) * 1e-3, 1e-12);
        low -= pad;
        high += pad;
    }
    constexpr int entries = 256;
    table->SetNumberOfTableValues(entries);
    table->SetTableRange(low, high);
    for (int i = 0; i < entries; ++i) {
        const Rgb rgb = sample(c, double(i) / (entries - 1));
        table->SetTableValue(i, rgb[0], rgb[1], rgb[2], 1.0);
    }
    table->SetNanColor(0.5, 0.5, 0.5, 1.0);
    table->Modified();
}

} // namespace fwi::ui
