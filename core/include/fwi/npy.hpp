#pragma once
// A small reader/writer for NumPy .npy files (format versions 1.0, 2.0 and 3.0).
// In FWI Studio a 2D model in .npy is (nz, nx) and a 3D one (nz, ny, nx), in C order, i.e. the same layout as
// grid.hpp; traces are
// (receivers, samples) and several shots (shots, receivers, samples).
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

struct NpyArray {
    std::vector<std::int64_t> shape; ///< slowest axis first
    std::vector<float> data;         ///< C order (last axis fast)
    bool operator==(const NpyArray&) const = default;
};

/// Reads float32 or float64 (little-endian), C or Fortran order, 1 to 3 dimensions; returns C-order float32.
/// Throws ResourceError if the file cannot be opened, FormatError (naming the file and the problem) for a
/// wrong magic, a malformed or truncated header, an unsupported dtype or rank, or a data size that does not
/// match the shape.
NpyArray read_npy(const std::string& path);
/// Writes float32, C order, format 1.0. Throws ConfigError if the shape does not match data.size(),
/// ResourceError if the file cannot be written.
void write_npy(const std::string& path, const NpyArray& array);

} // namespace fwi
