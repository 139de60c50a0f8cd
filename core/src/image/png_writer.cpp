// Minimal PNG encoder: one IHDR, one zlib-compressed IDAT (filter 0 on every row), IEND; CRCs from zlib.
#include "fwi/error.hpp"
#include "fwi/image.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <zlib.h>

namespace fwi {
namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        out.push_back(std::uint8_t(v >> s));
}

void put_chunk(std::vector<std::uint8_t>& out, const char* type, const std::vector<std::uint8_t>& data) {
    put_u32(out, std::uint32_t(data.size()));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put_u32(out, std::uint32_t(crc32(0, out.data() + start, uInt(out.size() - start))));
}

// Anchor colours; linear interpolation between them.
constexpr std::array<std::array<double, 3>, 5> kViridis{
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
constexpr std::array<std::array<double, 3>, 3> kSeismic{{{0, 0, 180}, {255, 255, 255}, {180, 0, 0}}};

template <std::size_t N>
std::array<std::uint8_t, 3> lerp(const std::array<std::array<double, 3>, N>& anchors, double t) {
    const double x = std::clamp(t, 0.0, 1.0) * double(N - 1);
    const auto i = std::min<std::size_t>(std::size_t(x), N - 2);
    const double f = x - double(i);
    std::array<std::uint8_t, 3> c{};
    for (int k = 0; k < 3; ++k)
        c[std::size_t(k)] = std::uint8_t(
            std::lround(anchors[i][std::size_t(k)] * (1 - f) + anchors[i + 1][std::size_t(k)] * f));
    return c;
}

} // namespace

std::array<std::uint8_t, 3> colormap_rgb(Colormap map, double t) {
    if (!std::isfinite(t)) t = 0.5;
    switch (map) {
    case Colormap::Viridis:
        return lerp(kViridis, t);
    case Colormap::Seismic:
        return lerp(kSeismic, t);
    case Colormap::Gray: {
        const auto v = std::uint8_t(std::lround(std::clamp(t, 0.0, 1.0) * 255));
        return {v, v, v};
    }
    }
    return {0, 0, 0};
}

std::vector<std::uint8_t> encode_png_rgb(const std::vector<std::uint8_t>& rgb, int width, int height) {
    if (width <= 0 || height <= 0 || rgb.size() != std::size_t(width) * std::size_t(height) * 3)
        throw Error("PNG encoder: pixel buffer does not match " + std::to_string(width) + "x" +
                    std::to_string(height));
    std::vector<std::uint8_t> raw;
    raw.reserve(std::size_t(height) * (std::size_t(width) * 3 + 1));
    for (int y = 0; y < height; ++y) {
        raw.push_back(0);
        const auto* row = rgb.data() + std::size_t(y) * std::size_t(width) * 3;
        raw.insert(raw.end(), row, row + std::size_t(width) * 3);
    }
    uLongf packed_size = compressBound(uLong(raw.size()));
    std::vector<std::uint8_t> packed(packed_size);
    if (compress2(packed.data(), &packed_size, raw.data(), uLong(raw.size()), 6) != Z_OK)
        throw Error("PNG encoder: zlib compression failed");
    packed.resize(packed_size);
    std::vector<std::uint8_t> png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<std::uint8_t> ihdr;
    put_u32(ihdr, std::uint32_t(width));
    put_u32(ihdr, std::uint32_t(height));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8-bit, RGB, deflate, no filter method, no interlace
    put_chunk(png, "IHDR", ihdr);
    put_chunk(png, "IDAT", packed);
    put_chunk(png, "IEND", {});
    return png;
}

void write_png_rgb(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height) {
    const std::vector<std::uint8_t> png = encode_png_rgb(rgb, width, height);
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f) throw ResourceError("cannot write image " + path + ": " + std::strerror(errno));
    if (std::fwrite(png.data(), 1, png.size(), f.get()) != png.size())
        throw ResourceError("cannot write image " + path + ": " + std::strerror(errno));
}

void write_png(const std::string& path, ConstFieldView field, Colormap map, double vmin, double vmax,
               int scale) {
    scale = std::max(1, scale);
    const int width = int(field.cols) * scale, height = int(field.rows) * scale;
    std::vector<std::uint8_t> rgb(std::size_t(width) * std::size_t(height) * 3);
    const double span = vmax > vmin ? vmax - vmin : 1.0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float v =
                field.data[std::size_t(y / scale) * std::size_t(field.cols) + std::size_t(x / scale)];
            const auto c = colormap_rgb(map, (double(v) - vmin) / span);
            std::memcpy(&rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3], c.data(), 3);
        }
    write_png_rgb(path, rgb, width, height);
}

} // namespace fwi
