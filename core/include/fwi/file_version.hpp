#pragma once
// A file's identity and version from stat(2), without reading it: device, inode, size, modification time and
// change time. The change time (ctime) moves on every write, truncation, rename onto the path and chmod, and
// no user can set it back (utimensat sets only the modification and access times), so two equal versions of a
// path are the same bytes; a file replaced by a rename (as save_project writes) is a new inode. The times
// have the resolution of the kernel's clock tick (a few ms): a write within the same tick as the last one can
// keep the change time, which is why runtime/checked_files.hpp remembers only files that have rested a while.
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace fwi {

struct FileVersion {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = -1; ///< -1: no file (missing, or cannot be stat()ed)
    std::int64_t modified_ns = -1;
    std::int64_t changed_ns = -1;
    bool exists() const { return size >= 0; }
    bool operator==(const FileVersion&) const = default;
};

/// The version of the file at `path` now; one whose exists() is false when there is none.
FileVersion file_version(const std::string& path);

} // namespace fwi
