#pragma once
// Text files for people and scripts (Markdown tables, JSON summaries), written as every file core writes:
// atomically, so that a full disk or a crash never leaves half a file where a good one was.
#include <string>
#include <string_view>

namespace fwi {

/// Replaces `path` with `text` (temporary file beside it, fsync, rename). Throws ResourceError naming the
/// path and the system's reason (no space, no permission, a missing directory).
void write_text_file(const std::string& path, std::string_view text);

} // namespace fwi
