#include "io/file_access.hpp"

#include "fwi/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

namespace fwi::detail {

namespace {

std::string octal_mode(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
    return text;
}

} // namespace

void require_readable(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        const int error = errno;
        if (error == ENOENT) throw ResourceError("cannot open '" + path + "': no such file");
        throw ResourceError("cannot open '" + path + "': " + std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) throw ResourceError("cannot read '" + path + "': not a regular file");
    if ((info.st_mode & (S_IRUSR | S_IRGRP | S_IROTH)) == 0)
        throw ResourceError("cannot read '" + path + "': permission denied (mode " +
                            octal_mode(info.st_mode) + " lets nobody read it)");
    if (::access(path.c_str(), R_OK) != 0)
        throw ResourceError("cannot read '" + path + "': " + std::strerror(errno));
}

void require_replaceable(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (!S_ISREG(info.st_mode)) throw ResourceError("cannot replace '" + path + "': not a regular file");
        if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
            throw ResourceError("'" + path + "' is read-only (mode " + octal_mode(info.st_mode) +
                                "); it is not replaced (make it writable to save over it)");
        if (::access(path.c_str(), W_OK) != 0)
            throw ResourceError("cannot replace '" + path + "': " + std::strerror(errno));
    } else if (errno != ENOENT) {
        throw ResourceError("cannot write '" + path + "': " + std::strerror(errno));
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    const std::string directory = parent.empty() ? "." : parent.string();
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw ResourceError("cannot write '" + path + "': directory '" + directory +
                            "': " + std::strerror(errno));
}

} // namespace fwi::detail
