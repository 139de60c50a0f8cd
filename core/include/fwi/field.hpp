#pragma once
// Views of 2D float arrays (row-major, x fast; see grid.hpp). A propagator state is a list of such fields,
// which is what checkpoint stores and codecs see: they own bytes, not meaning.
#include <cstdint>
#include <span>
#include <vector>

namespace fwi {

struct FieldView {
    float* data = nullptr;
    std::int64_t rows = 0; ///< slow axis
    std::int64_t cols = 0; ///< fast axis
    std::int64_t size() const { return rows * cols; }
    std::span<float> span() const { return {data, std::size_t(size())}; }
};

struct ConstFieldView {
    const float* data = nullptr;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    ConstFieldView() = default;
    ConstFieldView(const float* d, std::int64_t r, std::int64_t c) : data(d), rows(r), cols(c) {}
    ConstFieldView(FieldView v) : data(v.data), rows(v.rows), cols(v.cols) {} // NOLINT: views convert freely
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
