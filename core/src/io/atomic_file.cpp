#include "io/atomic_file.hpp"

#include "fwi/error.hpp"
#include "io/file_access.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fwi::detail {
namespace {

namespace fs = std::filesystem;

std::string random_suffix() {
    std::random_device device;
    std::uniform_int_distribution<unsigned> digit(0, 15);
    std::string suffix;
    for (int i = 0; i < 8; ++i)
        suffix += "0123456789abcdef"[digit(device)];
    return suffix;
}

[[noreturn]] void fail_io(const std::string& what, const fs::path& path, int error) {
    throw ResourceError(what + " '" + path.string() + "': " + std::strerror(error));
}

/// Writes `bytes` to the new file `path` (which must not exist), fsync'ed, with `mode`. `created` says
/// whether the caller has a partial file to remove.
void write_new_file(const fs::path& path, std::span<const std::byte> bytes, mode_t mode, bool set_mode,
                    bool& created) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail_io("cannot create", path, errno);
    created = true;
    std::size_t written = 0;
    int error = 0;
    while (written < bytes.size() && error == 0) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n > 0)
            written += std::size_t(n);
        else if (n < 0 && errno != EINTR)
            error = errno;
        else if (n == 0)
            error = EIO;
    }
    // The data must be on disk before the rename makes it the file; otherwise a crash could leave an empty
    // file under the old name on some file systems.
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    if (error == 0 && set_mode && ::fchmod(fd, mode) != 0) error = errno;
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) fail_io("cannot write", path, error);
}

void sync_directory(const fs::path& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd); // best effort: makes the rename itself durable
    ::close(fd);
}

} // namespace

std::string replacement_target(const std::string& path) {
    std::error_code error;
    if (!fs::is_symlink(path, error)) return path;
    const fs::path target = fs::read_symlink(path, error);
    if (error) return path;
    return target.is_absolute() ? target.string() : (fs::path(path).parent_path() / target).string();
}

void replace_file(const std::string& path, std::span<const std::byte> bytes) {
    const fs::path target = replacement_target(path);
    const fs::path temporary = target.string() + ".tmp-" + random_suffix();
    bool created = false;
    try {
        require_replaceable(target.string());
        struct stat old {};
        const bool replaces = ::stat(target.c_str(), &old) == 0;
        write_new_file(temporary, bytes, old.st_mode & 07777, replaces, created); // keeps the old file's mode
        if (std::rename(temporary.c_str(), target.c_str()) != 0) fail_io("cannot replace", target, errno);
        created = false;
        sync_directory(target.has_parent_path() ? target.parent_path() : fs::path("."));
    } catch (...) {
        if (created) ::unlink(temporary.c_str());
        throw;
    }
}

} // namespace fwi::detail
