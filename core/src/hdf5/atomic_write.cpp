#include "hdf5/atomic_write.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace fwi::h5 {

namespace fs = std::filesystem;

namespace {

std::string random_suffix() {
    std::random_device device;
    std::uniform_int_distribution<unsigned> digit(0, 15);
    std::string suffix;
    for (int i = 0; i < 8; ++i)
        suffix += "0123456789abcdef"[digit(device)];
    return suffix;
}

/// The file a save really replaces: the target of a symbolic link, else the path itself.
fs::path resolve_target(const fs::path& path) {
    std::error_code error;
    if (!fs::is_symlink(path, error)) return path;
    fs::path target = fs::read_symlink(path, error);
    if (error) return path;
    return target.is_absolute() ? target : path.parent_path() / target;
}

/// fsync(2) of a file or directory; false (errno set) on failure.
bool sync_path(const fs::path& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::fsync(fd) == 0;
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return ok;
}

} // namespace

void write_atomically(const std::string& path, const std::function<void(const Group& root)>& fill) {
    const fs::path target = resolve_target(path);
    const fs::path temporary = target.string() + ".tmp-" + random_suffix();
    try {
        File file = File::create(temporary.string(), /*exclusive=*/true);
        {
            const Group root = file.root();
            fill(root);
        }
        file.close();
        // The data must be on disk before the rename makes it the file; otherwise a crash could leave an
        // empty file under the old name on some file systems.
        if (!sync_path(temporary, O_RDONLY))
            throw ResourceError("cannot sync '" + temporary.string() + "': " + std::strerror(errno));
        std::error_code error;
        const auto old_status = fs::status(target, error);
        if (!error && fs::is_regular_file(old_status))
            fs::permissions(temporary, old_status.permissions(),
                            error); // keep the old file's mode; best effort
        if (std::rename(temporary.c_str(), target.c_str()) != 0)
            throw ResourceError("cannot replace '" + target.string() + "': " + std::strerror(errno));
        const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
        sync_path(directory, O_RDONLY | O_DIRECTORY); // best effort: makes the rename itself durable
    } catch (...) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        try {
            throw;
        } catch (const ResourceError& e) {
            throw ResourceError("cannot write '" + path + "': " + e.what());
        } catch (const ConfigError& e) {
            throw ConfigError("cannot write '" + path + "': " + e.what());
        }
    }
}

} // namespace fwi::h5
