#include "store/scratch_file.hpp"

#include "fwi/error.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace fwi::detail {
namespace {

[[noreturn]] void io_error(const char* action, const std::string& path, int err) {
    throw ResourceError(std::string("checkpoint store: cannot ") + action + " '" + path +
                        "': " + std::generic_category().message(err));
}

/// Closes on scope exit unless released (close errors are checked on the success path only).
class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

void write_all(int fd, const std::byte* data, std::size_t bytes, const std::string& path) {
    while (bytes > 0) {
        const ssize_t n = ::write(fd, data, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) io_error("write", path, errno);
        if (n == 0) io_error("write", path, ENOSPC);
        data += n;
        bytes -= std::size_t(n);
    }
}

} // namespace

void write_frames(const std::string& path, const std::vector<std::vector<std::byte>>& frames) {
    FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (fd.get() < 0) io_error("create", path, errno);
    try {
        for (const auto& frame : frames)
            write_all(fd.get(), frame.data(), frame.size(), path);
        if (::close(fd.release()) != 0) io_error("write", path, errno); // NFS and quotas report late
    } catch (...) {
        remove_file(path);
        throw;
    }
}

std::vector<std::byte> read_file(const std::string& path, std::uint64_t expected_bytes) {
    FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) io_error("open", path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) io_error("read", path, errno);
    if (std::uint64_t(st.st_size) != expected_bytes)
        throw FormatError("checkpoint store: scratch file '" + path + "' holds " +
                          std::to_string(st.st_size) + " bytes, expected " + std::to_string(expected_bytes) +
                          " (truncated or replaced)");
    std::vector<std::byte> bytes(expected_bytes);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) io_error("read", path, errno);
        if (n == 0)
            throw FormatError("checkpoint store: scratch file '" + path + "' ended early (truncated)");
        done += std::size_t(n);
    }
    return bytes;
}

void remove_file(const std::string& path) noexcept {
    if (!path.empty()) ::unlink(path.c_str());
}

} // namespace fwi::detail
