#pragma once
// Whole-file reads and writes with typed errors (private to core's I/O).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace fwi::detail {

/// Throws ResourceError naming the path and the system's reason if the file cannot be opened or read.
std::vector<char> read_file_bytes(const std::string& path);
/// Size in bytes; throws ResourceError if the file does not exist or is not a regular file.
std::uint64_t file_size_bytes(const std::string& path);
/// Replaces the file with `parts` one after another, atomically (atomic_file.hpp). Throws ResourceError if
/// the file cannot be written completely; the old file is then untouched.
struct ByteSpan {
    const void* data;
    std::size_t size;
};
void write_file_bytes(const std::string& path, std::initializer_list<ByteSpan> parts);

/// Lower-case extension with the dot (".npy"), empty if none.
std::string lower_extension(const std::string& path);

} // namespace fwi::detail
