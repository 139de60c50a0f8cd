#pragma once
// Permission checks that hold the same for every user, root included (private to core's I/O).
//
// The rule: a file whose mode grants nobody read permission (no r bit in 0444, e.g. mode 0000 or 0200) is
// unreadable, and a file whose mode grants nobody write permission (no w bit in 0222, e.g. 0444) is
// read-only, even for root, who the kernel would let through. Otherwise access(2) decides for the calling
// user. So `chmod a-w project.fwi` protects a project from being replaced whoever runs FWI Studio.
#include <string>

namespace fwi::detail {

/// Throws ResourceError naming `path` and the reason if it does not exist, is not a regular file or may not
/// be read (by the rule above).
void require_readable(const std::string& path);

/// For a save that replaces `path` (the file a symbolic link points to, not the link): throws ResourceError
/// naming `path` if it exists and may not be written (by the rule above) or is not a regular file, or if its
/// directory does not let the caller create the temporary file and rename it. A missing `path` is fine.
void require_replaceable(const std::string& path);

} // namespace fwi::detail
