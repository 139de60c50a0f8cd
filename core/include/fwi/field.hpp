#pragma once
// Views of float arrays (row-major, x fast; see grid.hpp). A propagator state is a list of such fields,
// which is what checkpoint stores and codecs see: they own bytes, not meaning.
// A 3D array (z, y, x) is viewed as rows = nz * ny rows of nx values with plane_rows = ny, so every consumer
// that only needs bytes treats it as a 2D field; codecs that exploit the third axis (ZFP's 4x4x4 blocks) read
// plane_rows. plane_rows = 0 marks a 2D field.
#include <cstdint>
#include <span>
#include <vector>

namespace fwi {

struct FieldView {
    float* data = nullptr;
    std::int64_t rows = 0;       ///< slow axis
    std::int64_t cols = 0;       ///< fast axis
    std::int64_t plane_rows = 0; ///< rows per z-plane (ny) of a 3D field; 0 for a 2D field
    std::int64_t size() const { return rows * cols; }
    std::span<float> span() const { return {data, std::size_t(size())}; }
};

struct ConstFieldView {
    const float* data = nullptr;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t plane_rows = 0; ///< as FieldView::plane_rows
    ConstFieldView() = default;
    ConstFieldView(const float* d, std::int64_t r, std::int64_t c, std::int64_t rows_per_plane = 0)
        : data(d), rows(r), cols(c), plane_rows(rows_per_plane) {}
    ConstFieldView(FieldView v) // NOLINT: views convert freely
        : data(v.data), rows(v.rows), cols(v.cols), plane_rows(v.plane_rows) {}
    std::int64_t size() const { return rows * cols; }
    std::span<const float> span() const { return {data, std::size_t(size())}; }
};

inline std::uint64_t raw_bytes(const std::vector<ConstFieldView>& fields) {
    std::uint64_t n = 0;
    for (const auto& f : fields)
        n += std::uint64_t(f.size()) * sizeof(float);
    return n;
}

} // namespace fwi
