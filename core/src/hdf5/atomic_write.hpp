#pragma once
// Atomic replacement of an HDF5 file, so that a crash, a full disk or a bug in the middle of a save never
// leaves a half-written project or model where the good one was.
#include "hdf5/h5.hpp"

#include <functional>
#include <string>

namespace fwi::h5 {

/// `fill` writes into the root group of a new HDF5 file built in memory; its bytes are then written to
/// `<path>.tmp-<random>` in the target's directory with plain checked write(2) calls, fsync'ed, given the old
/// file's mode and renamed (rename(2)) over `path`. If `path` is a symbolic link, the file it points to is
/// replaced. A read-only target (no write bit in its mode, root included: io/file_access.hpp) is refused
/// before anything is written. On any failure the temporary file is removed, `path` is left untouched and
/// the exception propagates: ResourceError for I/O failures such as a full disk (its message names `path`),
/// or whatever `fill` threw.
///
/// Memory: the whole file image is held in memory (about twice the file size at the peak).
/// Throws ResourceError (naming `path`) now when write_atomically(path, ...) would be refused before writing
/// anything: a read-only file, an unwritable directory. Lets a long job fail before it starts.
void check_replaceable(const std::string& path);

void write_atomically(const std::string& path, const std::function<void(const Group& root)>& fill);

} // namespace fwi::h5
