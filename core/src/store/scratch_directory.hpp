#pragma once
// A private scratch sub-directory (mkdtemp) that removes itself and everything in it when destroyed.
#include <string>

namespace fwi::detail {

class ScratchDirectory {
  public:
    /// Creates "<parent>/fwi-store-XXXXXX" (parent = the system temp directory if empty). Throws
    /// ResourceError naming the parent and the errno text (missing, not a directory, not writable). `owner`
    /// names the tier in messages.
    ScratchDirectory(const std::string& parent, const std::string& owner);
    ~ScratchDirectory(); ///< removes the directory tree; never throws
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;

    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

} // namespace fwi::detail
