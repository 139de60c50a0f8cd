#include "io/atomic_file.hpp"

#include "fwi/error.hpp"
#include "io/file_access.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
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

/// Writes `parts` one after another to the new file `path` (which must not exist); errors name `shown`, the
/// file the user asked for. The caller removes a partial file.
void write_new_file(const fs::path& path, std::span<const std::span<const std::byte>> parts,
                    const fs::path& shown) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail_io("cannot create a temporary file beside", shown, errno);
    int error = 0;
    for (const auto bytes : parts) {
        std::size_t written = 0;
        while (written < bytes.size() && error == 0) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n > 0)
                written += std::size_t(n);
            else if (n < 0 && errno != EINTR)
                error = errno;
            else if (n == 0)
                error = EIO;
        }
    }
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) fail_io("cannot write", shown, error);
}

/// fsyncs the complete file `path` and gives it `mode`. The data must be on disk before the rename makes it
/// the file; otherwise a crash could leave an empty file under the old name on some file systems.
void finish_new_file(const fs::path& path, mode_t mode, bool set_mode) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail_io("cannot reopen", path, errno);
    int error = 0;
    if (::fsync(fd) != 0) error = errno;
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

std::string begin_replacement(const std::string& path) {
    const std::string target = replacement_target(path);
    require_replaceable(target);
    // A name nobody uses: on failure the caller removes the file at this name.
    for (;;) {
        std::string temporary = target + ".tmp-" + random_suffix();
        struct stat existing {};
        if (::lstat(temporary.c_str(), &existing) != 0)
            return temporary; // absent (or not even statable: creating it then says why)
    }
}

void commit_replacement(const std::string& temporary, const std::string& path) {
    const fs::path target = replacement_target(path);
    struct stat old {};
    const bool replaces = ::stat(target.c_str(), &old) == 0;
    finish_new_file(temporary, old.st_mode & 07777, replaces); // keeps the old file's mode
    if (std::rename(temporary.c_str(), target.c_str()) != 0) fail_io("cannot replace", target, errno);
    sync_directory(target.has_parent_path() ? target.parent_path() : fs::path("."));
}

void replace_file_written_by(const std::string& path,
                             const std::function<void(const std::string& temporary)>& write) {
    const std::string temporary = begin_replacement(path);
    try {
        write(temporary);
        commit_replacement(temporary, path);
    } catch (...) {
        ::unlink(temporary.c_str()); // nothing to remove when `write` failed to create it
        throw;
    }
}

void replace_file(const std::string& path, std::span<const std::span<const std::byte>> parts) {
    replace_file_written_by(path,
                            [&](const std::string& temporary) { write_new_file(temporary, parts, path); });
}

void replace_file(const std::string& path, std::span<const std::byte> bytes) {
    const std::span<const std::byte> parts[] = {bytes};
    replace_file(path, parts);
}

} // namespace fwi::detail
