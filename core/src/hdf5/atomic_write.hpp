#pragma once
// Atomic replacement of an HDF5 file, so that a crash, a full disk or a bug in the middle of a save never
// leaves a half-written project or model where the good one was.
#include "hdf5/h5.hpp"

#include <functional>
#include <string>

namespace fwi::h5 {

/// `fill` writes into the root group of a new file `<path>.tmp-<random>` in the target's directory; the file
/// is then closed, fsync'ed and renamed (rename(2)) over `path`. If `path` is a symbolic link, the file it
/// points to is replaced. On any failure the temporary file is removed, `path` is left untouched and the
/// exception propagates: ResourceError for I/O failures (its message names `path`), or whatever `fill` threw.
void write_atomically(const std::string& path, const std::function<void(const Group& root)>& fill);

} // namespace fwi::h5
