#include "runtime/checked_files.hpp"

#include "runtime/user_cache.hpp"

#include <chrono>
#include <deque>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace fwi::detail {
namespace {

bool g_read_other_files = false;

/// The record's line for `version` read by `reader` (the reader's name last: it may hold spaces).
std::string line_for(const FileVersion& v, const std::string& reader) {
    std::ostringstream s;
    s << program_identity() << ' ' << v.device << ' ' << v.inode << ' ' << v.size << ' ' << v.modified_ns
      << ' ' << v.changed_ns << ' ' << reader;
    return s.str();
}

std::deque<std::string> read_lines(const std::filesystem::path& record) {
    std::deque<std::string> lines;
    std::ifstream in(record);
    std::string line;
    while (std::getline(in, line) && lines.size() < 4 * max_checked_files)
        lines.push_back(line);
    return lines;
}

} // namespace

bool was_read_safely(const std::filesystem::path& record, const FileVersion& version,
                     const std::string& reader) {
    if (record.empty() || version.size < 0) return false;
    const std::string wanted = line_for(version, reader);
    for (const std::string& line : read_lines(record))
        if (line == wanted) return true;
    return false;
}

void remember_read_safely(const std::filesystem::path& record, const FileVersion& version,
                          const std::string& reader, double min_age_s) {
    if (record.empty() || version.size < 0 || reader.find('\n') != std::string::npos) return;
    const std::int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    if (double(now_ns - version.changed_ns) < min_age_s * 1e9) return; // too fresh to tell a next write apart
    try {
        const std::string entry = line_for(version, reader);
        std::deque<std::string> lines = read_lines(record);
        for (const std::string& line : lines)
            if (line == entry) return;
        lines.push_back(entry);
        while (lines.size() > max_checked_files)
            lines.pop_front();
        std::error_code ec;
        std::filesystem::create_directories(record.parent_path(), ec);
        const std::filesystem::path tmp = record.string() + ".tmp" + std::to_string(long(::getpid()));
        {
            std::ofstream out(tmp);
            for (const std::string& line : lines)
                out << line << '\n';
            if (!out.flush()) {
                std::filesystem::remove(tmp, ec);
                return;
            }
        }
        std::filesystem::rename(tmp, record, ec); // atomic: a reader sees the old record or the new one
        if (ec) std::filesystem::remove(tmp, ec);
    } catch (const std::exception&) {
        // best effort (out of memory, a path the library refuses): the next read checks the file again
    }
}

void note_other_file_read() {
    g_read_other_files = true;
}

void forget_other_file_reads() {
    g_read_other_files = false;
}

bool read_other_files() {
    return g_read_other_files;
}

} // namespace fwi::detail
