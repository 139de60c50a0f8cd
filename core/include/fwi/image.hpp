#pragma once
// Pictures of 2D fields written by the product itself (8-bit RGB PNG, no plotting dependency): velocity
// models, wavefields, gradients and shot gathers. Rows of the field become image rows (z down, x right for
// models).
#include "fwi/field.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

enum class Colormap { Viridis, Seismic, Gray };

/// Colour of t in [0, 1] (clamped).
std::array<std::uint8_t, 3> colormap_rgb(Colormap map, double t);

/// Writes `field` as a PNG, mapping [vmin, vmax] onto the colormap, each cell drawn as `scale` x `scale`
/// pixels. Throws ResourceError naming the path if it cannot be written.
void write_png(const std::string& path, ConstFieldView field, Colormap map, double vmin, double vmax,
               int scale = 1);

/// Raw RGB pixels to PNG (width x height x 3 bytes).
void write_png_rgb(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height);
/// The PNG file bytes of raw RGB pixels (for embedding, e.g. in SVG).
std::vector<std::uint8_t> encode_png_rgb(const std::vector<std::uint8_t>& rgb, int width, int height);

} // namespace fwi
