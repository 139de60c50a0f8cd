#include "store/scratch_directory.hpp"

#include "fwi/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace fwi::detail {

ScratchDirectory::ScratchDirectory(const std::string& parent, const std::string& owner) {
    std::string base = parent;
    if (base.empty()) {
        std::error_code ec;
        base = std::filesystem::temp_directory_path(ec).string();
        if (ec)
            throw ResourceError("checkpoint store: tier '" + owner +
                                "': no system temp directory: " + ec.message());
    }
    std::string pattern = (std::filesystem::path(base) / "fwi-store-XXXXXX").string();
    std::vector<char> text(pattern.begin(), pattern.end());
    text.push_back('\0');
    if (::mkdtemp(text.data()) == nullptr) {
        const int err = errno;
        throw ResourceError("checkpoint store: tier '" + owner + "': cannot create a scratch directory in '" +
                            base + "': " + std::generic_category().message(err));
    }
    path_ = text.data();
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ec; // best effort: a destructor must not throw, and nothing useful can be done on failure
    std::filesystem::remove_all(path_, ec);
}

} // namespace fwi::detail
