#pragma once
// Atomic replacement of a file from bytes in memory (private to core's I/O): the one way core writes a file a
// user keeps (projects, HDF5 models and gathers, .vti/.pvd exports, pictures), so that a crash, a full disk
// or a bug mid-write never leaves a half-written file where the good one was.
#include <cstddef>
#include <span>
#include <string>

namespace fwi::detail {

/// The file a replacement really writes: the target of a symbolic link, else `path` itself.
std::string replacement_target(const std::string& path);

/// Writes `bytes` to `<target>.tmp-<random>` in the target's directory with checked write(2) calls, fsyncs
/// it, gives it the old file's mode and renames it over the target (a symbolic link's target, see above). A
/// read-only target is refused before anything is written (file_access.hpp). On failure the temporary file is
/// removed, the old file is untouched, and ResourceError names the target and the system's reason (EFBIG,
/// ENOSPC, ...).
void replace_file(const std::string& path, std::span<const std::byte> bytes);

} // namespace fwi::detail
