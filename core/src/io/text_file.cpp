#include "fwi/text_file.hpp"

#include "io/atomic_file.hpp"

#include <span>

namespace fwi {

void write_text_file(const std::string& path, std::string_view text) {
    detail::replace_file(path, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

} // namespace fwi
