#pragma once
// The bulk reads of an isolated read (fwi/isolated_read.hpp), handed from the child to the parent, so that a
// file is decoded once: the child that checks a file records what each dataset read decoded into a memory
// file (memfd) the parent made; the parent's own read of the same file then walks the same metadata with
// libhdf5 (which the child just showed to be safe on this file) but copies each dataset's values from the
// record instead of decoding them again. A reader calls take_over() before a bulk read and hand_over() after
// one: outside an isolated read both do nothing, so the reader reads the file as before. Linux only (memfd);
// elsewhere nothing is recorded and the parent reads the file itself.
#include <cstddef>
#include <optional>
#include <string>

namespace fwi::detail {

/// In a reading child with a hand-over file: records `bytes` of `data` under `key` (the file and the
/// dataset), while the records stay under the limit (a quarter of the machine's memory). A failed write
/// ends the recording; the parent then reads the rest itself. Elsewhere: nothing.
void hand_over(const std::string& key, const void* data, std::size_t bytes);

/// On a thread replaying a hand-over (ReadHandOver::Replay): copies the next record under `key` into `data`
/// and returns true when it holds exactly `bytes` bytes; false otherwise (the caller reads the file).
bool take_over(const std::string& key, void* data, std::size_t bytes);

/// As take_over, for a record of any size (a string read from the file): its bytes, or nullopt when there is
/// none under `key`.
std::optional<std::string> take_over_any(const std::string& key);

/// read_in_child's side of the channel: the child's sink (set in the child only, before its read).
void start_hand_over_sink(int fd);

/// True in a child forked by read_in_child: it has none of the parent's OpenMP threads, so its readers run
/// no parallel region.
bool in_reading_child();

} // namespace fwi::detail
