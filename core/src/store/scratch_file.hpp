#pragma once
// Checked POSIX file I/O for disk tiers: every failure is a ResourceError naming the file and the errno text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi::detail {

/// Writes the frames one after another into a new file (which must not exist). On failure removes the partial
/// file and throws ResourceError (ENOSPC, EFBIG, EACCES, ...).
void write_frames(const std::string& path, const std::vector<std::vector<std::byte>>& frames);

/// Reads a whole file that must hold exactly `expected_bytes`: ResourceError if it cannot be read,
/// FormatError if its size differs (truncated or replaced).
std::vector<std::byte> read_file(const std::string& path, std::uint64_t expected_bytes);

/// Removes a file if it exists; never throws.
void remove_file(const std::string& path) noexcept;

} // namespace fwi::detail
