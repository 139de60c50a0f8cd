#pragma once
// Files a reading child has read without crashing (fwi/isolated_read.hpp), remembered so that the next read
// of the same, unchanged file by the same reader and the same build of the program skips the child. libhdf5
// reads the same bytes the same way every time, so a file it read safely once it reads safely again; what
// must be certain is that the bytes are the same. A file is the same when its device, inode, size,
// modification time and change time are: the change time (ctime) moves on every write, truncation, rename
// onto the path and chmod, and no user can set it back (utimensat sets only the modification and access
// times). It has the resolution of the kernel's clock tick, so a file is remembered only once it has not
// changed for a while (IsolatedReadSettings::checked_files_min_age_s): a later write then cannot share its
// tick with the last one.
//
// The record is a text file, one line per file and reader, newest last, at most max_checked_files lines:
//   <program identity> <device> <inode> <size> <mtime ns> <ctime ns> <reader>
// A damaged or unreadable record is treated as empty; writing it is best effort (temporary file + rename).
#include "fwi/file_version.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace fwi::detail {

inline constexpr std::size_t max_checked_files = 256;

/// True when `record` lists `version` as read safely by `reader` in this build of the program.
bool was_read_safely(const std::filesystem::path& record, const FileVersion& version,
                     const std::string& reader);

/// Adds `version` (read safely by `reader`) to `record`, unless it changed less than `min_age_s` ago. Never
/// throws: a record that cannot be written only costs the next read its child.
void remember_read_safely(const std::filesystem::path& record, const FileVersion& version,
                          const std::string& reader, double min_age_s);

/// Set by the HDF5 layer when a read follows a file into another one (an external link, a virtual
/// dataset's sources): such a file is never remembered. Per process (the reading child's).
void note_other_file_read();
void forget_other_file_reads();
bool read_other_files();

} // namespace fwi::detail
