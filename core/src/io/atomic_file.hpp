#pragma once
// Atomic replacement of a file from bytes in memory (private to core's I/O): the one way core writes a file a
// user keeps (projects, HDF5 models and gathers, .npy and raw arrays, SEG-Y, .vti/.pvd exports, pictures), so
// that a crash, a full disk or a bug mid-write never leaves a half-written file where the good one was.
#include <cstddef>
#include <functional>
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
/// The same with the file's bytes in pieces, written one after another.
void replace_file(const std::string& path, std::span<const std::span<const std::byte>> parts);

/// The steps of replace_file for a writer that holds the file open itself (SegyFile): a temporary path
/// beside the target (after refusing a read-only target), to be created by the caller; then, once it is
/// complete, fsynced, given the old file's mode and renamed over the target. The caller removes the temporary
/// file when it fails before the rename.
std::string begin_replacement(const std::string& path);
void commit_replacement(const std::string& temporary, const std::string& path);

/// The same for a file that `write` makes itself (a library that writes by path, such as segyio): `write`
/// creates the temporary path it is given; the rest is as above, and the temporary file is removed when
/// `write` throws.
void replace_file_written_by(const std::string& path,
                             const std::function<void(const std::string& temporary)>& write);

} // namespace fwi::detail
