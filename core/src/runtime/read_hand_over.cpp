// Records of a reading child, replayed by its parent (read_hand_over.hpp, fwi/isolated_read.hpp).
//
// FORMAT of the memory file, written by the child only, in the machine's own byte order (the file never
// leaves the machine and lives as long as one read): records one after another, each a header {char magic[4]
// = "FWHO", u32 key bytes, u64 data bytes}, the key, then the data. A write that fails ends the recording, so
// only the last record can be incomplete; the parent's index stops at the first record that does not fit.
#include "runtime/read_hand_over.hpp"

#include "fwi/isolated_read.hpp"
#include "runtime/machine_memory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace fwi {
namespace {

struct RecordHeader {
    char magic[4] = {'F', 'W', 'H', 'O'};
    std::uint32_t key_bytes = 0;
    std::uint64_t data_bytes = 0;
};

/// Whole writes (write() may take part of a buffer); false on any failure.
bool write_all(int fd, const void* data, std::size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, std::min<std::size_t>(bytes, std::size_t(1) << 30));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= std::size_t(n);
    }
    return true;
}

/// Whole reads at an offset; false on any failure or a short file.
bool read_all(int fd, void* data, std::size_t bytes, std::uint64_t offset) {
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::pread(fd, p, std::min<std::size_t>(bytes, std::size_t(1) << 30), off_t(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= std::size_t(n);
        offset += std::uint64_t(n);
    }
    return true;
}

// The child's sink. Only a reading child sets it (it has a single thread).
int g_sink_fd = -1;
std::uint64_t g_sink_left = 0;

} // namespace

struct ReadHandOver::Records {
    struct Record {
        std::uint64_t offset = 0, bytes = 0;
    };
    int fd = -1;
    std::uint64_t bytes = 0;
    std::map<std::string, std::deque<Record>> by_key;
    ~Records() {
        if (fd >= 0) ::close(fd);
    }
};

namespace {
thread_local ReadHandOver::Records* t_replaying = nullptr;
} // namespace

namespace detail {

void start_hand_over_sink(int fd) {
    g_sink_fd = fd;
    g_sink_left = physical_memory_bytes() / 4;
}

void hand_over(const std::string& key, const void* data, std::size_t bytes) {
    if (g_sink_fd < 0) return;
    const std::uint64_t need = sizeof(RecordHeader) + key.size() + bytes;
    if (need > g_sink_left || key.size() > UINT32_MAX) return; // this one is left to the parent
    RecordHeader header;
    header.key_bytes = std::uint32_t(key.size());
    header.data_bytes = bytes;
    if (!write_all(g_sink_fd, &header, sizeof header) || !write_all(g_sink_fd, key.data(), key.size()) ||
        !write_all(g_sink_fd, data, bytes)) {
        g_sink_fd = -1; // the parent's index ends at the incomplete record
        return;
    }
    g_sink_left -= need;
}

bool take_over(const std::string& key, void* data, std::size_t bytes) {
    ReadHandOver::Records* r = t_replaying;
    if (r == nullptr) return false;
    const auto it = r->by_key.find(key);
    if (it == r->by_key.end() || it->second.empty()) return false;
    const ReadHandOver::Records::Record record = it->second.front();
    if (record.bytes != bytes) return false;
    it->second.pop_front();
    return read_all(r->fd, data, bytes, record.offset);
}

std::optional<std::string> take_over_any(const std::string& key) {
    ReadHandOver::Records* r = t_replaying;
    if (r == nullptr) return std::nullopt;
    const auto it = r->by_key.find(key);
    if (it == r->by_key.end() || it->second.empty()) return std::nullopt;
    const ReadHandOver::Records::Record record = it->second.front();
    std::string bytes(std::size_t(record.bytes), '\0');
    if (!read_all(r->fd, bytes.data(), bytes.size(), record.offset)) return std::nullopt;
    it->second.pop_front();
    return bytes;
}

} // namespace detail

ReadHandOver::ReadHandOver() = default;
ReadHandOver::ReadHandOver(ReadHandOver&&) noexcept = default;
ReadHandOver& ReadHandOver::operator=(ReadHandOver&&) noexcept = default;
ReadHandOver::~ReadHandOver() = default;

ReadHandOver ReadHandOver::index(int fd) {
    ReadHandOver h;
    h.records_ = std::make_unique<Records>();
    h.records_->fd = fd;
    struct stat info {};
    if (::fstat(fd, &info) != 0) return h;
    const auto size = std::uint64_t(info.st_size);
    std::uint64_t at = 0;
    while (at + sizeof(RecordHeader) <= size) {
        RecordHeader header;
        if (!read_all(fd, &header, sizeof header, at) || std::memcmp(header.magic, "FWHO", 4) != 0) break;
        const std::uint64_t key_at = at + sizeof header, data_at = key_at + header.key_bytes;
        if (data_at > size || header.data_bytes > size - data_at) break; // the incomplete last record
        std::string key(header.key_bytes, '\0');
        if (!read_all(fd, key.data(), key.size(), key_at)) break;
        h.records_->by_key[key].push_back({data_at, header.data_bytes});
        h.records_->bytes += header.data_bytes;
        at = data_at + header.data_bytes;
    }
    return h;
}

std::uint64_t ReadHandOver::bytes() const {
    return records_ ? records_->bytes : 0;
}

ReadHandOver::Replay::Replay(const ReadHandOver& records) : previous_(t_replaying) {
    if (records.records_) t_replaying = records.records_.get();
}

ReadHandOver::Replay::~Replay() {
    t_replaying = previous_;
}

} // namespace fwi
