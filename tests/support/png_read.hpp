#pragma once
// Decodes the 8-bit RGB, filter-0, one-IDAT PNGs the product writes, to check pixels in tests.
#include <QByteArray>
#include <QFile>
#include <array>
#include <cstdint>
#include <vector>
#include <zlib.h>

namespace fwi::test {

struct Png {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb; ///< empty when the bytes are not such a PNG
    std::array<std::uint8_t, 3> at(int x, int y) const {
        const auto* p = &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
        return {p[0], p[1], p[2]};
    }
};

inline std::uint32_t be32(const QByteArray& b, qsizetype i) {
    return std::uint32_t(std::uint8_t(b[i])) << 24 | std::uint32_t(std::uint8_t(b[i + 1])) << 16 |
           std::uint32_t(std::uint8_t(b[i + 2])) << 8 | std::uint32_t(std::uint8_t(b[i + 3]));
}

inline Png decode_png(const QByteArray& b) {
    if (!b.startsWith("\x89PNG\r\n\x1a\n")) return {};
    Png png;
    QByteArray idat;
    for (qsizetype i = 8; i + 8 <= b.size();) {
        const auto len = qsizetype(be32(b, i));
        const QByteArray type = b.mid(i + 4, 4);
        if (type == "IHDR") {
            png.width = int(be32(b, i + 8));
            png.height = int(be32(b, i + 12));
        } else if (type == "IDAT") {
            idat += b.mid(i + 8, len);
        }
        i += 12 + len;
    }
    std::vector<std::uint8_t> raw(std::size_t(png.height) * (std::size_t(png.width) * 3 + 1));
    uLongf n = uLongf(raw.size());
    if (png.width <= 0 || png.height <= 0 ||
        uncompress(raw.data(), &n, reinterpret_cast<const Bytef*>(idat.data()), uLong(idat.size())) != Z_OK ||
        n != raw.size())
        return {};
    for (int y = 0; y < png.height; ++y) {
        const auto* row = &raw[std::size_t(y) * (std::size_t(png.width) * 3 + 1)];
        if (row[0] != 0) return {};
        png.rgb.insert(png.rgb.end(), row + 1, row + 1 + png.width * 3);
    }
    return png;
}

inline Png read_png(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? decode_png(f.readAll()) : Png{};
}

} // namespace fwi::test
