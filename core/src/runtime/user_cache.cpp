#include "runtime/user_cache.hpp"

#include <cstdlib>
#include <sys/stat.h>

namespace fwi::detail {

std::filesystem::path user_cache_directory() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0')
        return std::filesystem::path(x) / "fwi-studio";
    if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
        return std::filesystem::path(h) / ".cache" / "fwi-studio";
    return {};
}

const std::string& program_identity() {
    static const std::string identity = [] {
        struct stat info {};
        if (::stat("/proc/self/exe", &info) != 0) return std::string("?");
        return std::to_string(info.st_size) + "@" + std::to_string(info.st_mtim.tv_sec) + "." +
               std::to_string(info.st_mtim.tv_nsec);
    }();
    return identity;
}

} // namespace fwi::detail
