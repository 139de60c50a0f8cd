#include "io/file_bytes.hpp"

#include "fwi/error.hpp"
#include "io/atomic_file.hpp"
#include "io/file_access.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>

namespace fwi::detail {
namespace {

std::string reason() {
    return errno ? std::strerror(errno) : "unknown error";
}

} // namespace

std::uint64_t file_size_bytes(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw ResourceError("cannot open '" + path + "': no such file");
    if (!std::filesystem::is_regular_file(status))
        throw ResourceError("cannot read '" + path + "': not a regular file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw ResourceError("cannot read the size of '" + path + "': " + ec.message());
    return size;
}

std::vector<char> read_file_bytes(const std::string& path) {
    require_readable(path);
    const std::uint64_t size = file_size_bytes(path);
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ResourceError("cannot open '" + path + "' for reading: " + reason());
    std::vector<char> bytes(static_cast<std::size_t>(size));
    if (size > 0 && !in.read(bytes.data(), std::streamsize(size)))
        throw ResourceError("cannot read '" + path + "': " + reason());
    return bytes;
}

void write_file_bytes(const std::string& path, std::initializer_list<ByteSpan> parts) {
    std::vector<std::span<const std::byte>> spans;
    for (const ByteSpan& part : parts)
        spans.emplace_back(static_cast<const std::byte*>(part.data), part.size);
    replace_file(path, spans);
}

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

} // namespace fwi::detail
