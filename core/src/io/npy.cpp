// NumPy .npy format: 6-byte magic "\x93NUMPY", version (major, minor), header length (uint16 in 1.0, uint32
// in 2.0 and 3.0, little-endian), then a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (a, b), } padded with spaces and ending in '\n', then the raw data.
#include "fwi/npy.hpp"

#include "fwi/error.hpp"
#include "io/file_bytes.hpp"

#include <bit>
#include <cctype>
#include <cstring>
#include <optional>
#include <sstream>

namespace fwi {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy reader assumes a little-endian host");

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_size = 6;
constexpr std::size_t max_header_bytes = 1 << 20; // numpy itself refuses headers beyond ~10 kB

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
    throw FormatError("'" + path + "' is not a valid .npy file: " + problem);
}

// A strict little parser for the header dict: only the three keys numpy writes, in any order.
class HeaderParser {
  public:
    HeaderParser(std::string text, std::string path) : m_text(std::move(text)), m_path(std::move(path)) {}

    void parse() {
        expect('{');
        while (true) {
            skip_space();
            if (peek() == '}') {
                ++m_pos;
                break;
            }
            const std::string key = quoted();
            expect(':');
            if (key == "descr")
                m_descr = quoted();
            else if (key == "fortran_order")
                m_fortran = boolean();
            else if (key == "shape")
                m_shape = tuple();
            else
                fail(m_path, "unexpected header key '" + key + "'");
            skip_space();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != '}')
                fail(m_path, "expected ',' or '}' in the header at offset " + std::to_string(m_pos));
        }
        for (; m_pos < m_text.size(); ++m_pos)
            if (!std::isspace(static_cast<unsigned char>(m_text[m_pos])))
                fail(m_path, "unexpected text after the header dict");
        if (!m_descr) fail(m_path, "header has no 'descr'");
        if (!m_fortran) fail(m_path, "header has no 'fortran_order'");
        if (!m_shape) fail(m_path, "header has no 'shape'");
    }
    const std::string& descr() const { return *m_descr; }
    bool fortran_order() const { return *m_fortran; }
    const std::vector<std::int64_t>& shape() const { return *m_shape; }

  private:
    char peek() const {
        if (m_pos >= m_text.size()) fail(m_path, "header ends early");
        return m_text[m_pos];
    }
    void skip_space() {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c)
            fail(m_path,
                 std::string("expected '") + c + "' in the header at offset " + std::to_string(m_pos));
        ++m_pos;
    }
    std::string quoted() {
        skip_space();
        const char q = peek();
        if (q != '\'' && q != '"')
            fail(m_path, "expected a quoted string in the header at offset " + std::to_string(m_pos));
        const auto end = m_text.find(q, m_pos + 1);
        if (end == std::string::npos) fail(m_path, "unterminated string in the header");
        std::string s = m_text.substr(m_pos + 1, end - m_pos - 1);
        m_pos = end + 1;
        return s;
    }
    bool boolean() {
        skip_space();
        if (m_text.compare(m_pos, 4, "True") == 0) {
            m_pos += 4;
            return true;
        }
        if (m_text.compare(m_pos, 5, "False") == 0) {
            m_pos += 5;
            return false;
        }
        fail(m_path, "'fortran_order' is neither True nor False");
    }
    std::vector<std::int64_t> tuple() {
        expect('(');
        std::vector<std::int64_t> dims;
        while (true) {
            skip_space();
            if (peek() == ')') {
                ++m_pos;
                return dims;
            }
            if (!std::isdigit(static_cast<unsigned char>(peek())))
                fail(m_path, "'shape' holds something other than sizes");
            std::int64_t v = 0;
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
                if (v > (std::int64_t(1) << 50)) fail(m_path, "a 'shape' size is absurdly large");
                v = v * 10 + (m_text[m_pos++] - '0');
            }
            dims.push_back(v);
            skip_space();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != ')')
                fail(m_path, "expected ',' or ')' in 'shape'");
        }
    }

    std::string m_text, m_path;
    std::size_t m_pos = 0;
    std::optional<std::string> m_descr;
    std::optional<bool> m_fortran;
    std::optional<std::vector<std::int64_t>> m_shape;
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::ostringstream s;
    s << '(';
    for (std::size_t i = 0; i < shape.size(); ++i)
        s << (i ? ", " : "") << shape[i];
    if (shape.size() == 1) s << ',';
    s << ')';
    return s.str();
}

template <typename T> std::vector<float> to_float(const char* bytes, std::size_t count) {
    std::vector<float> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        T v;
        std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
        out[i] = static_cast<float>(v);
    }
    return out;
}

// Fortran order (first axis fast) to C order (last axis fast), for up to 3 dimensions.
std::vector<float> fortran_to_c(const std::vector<float>& f, const std::vector<std::int64_t>& shape) {
    std::int64_t d[3] = {1, 1, 1};
    const std::size_t pad = 3 - shape.size(); // leading unit axes keep the index arithmetic uniform
    for (std::size_t i = 0; i < shape.size(); ++i)
        d[pad + i] = shape[i];
    std::vector<float> c(f.size());
    for (std::int64_t i = 0; i < d[0]; ++i)
        for (std::int64_t j = 0; j < d[1]; ++j)
            for (std::int64_t k = 0; k < d[2]; ++k)
                c[std::size_t((i * d[1] + j) * d[2] + k)] = f[std::size_t(i + d[0] * (j + d[1] * k))];
    return c;
}

} // namespace

NpyArray read_npy(const std::string& path) {
    const std::vector<char> bytes = detail::read_file_bytes(path);
    if (bytes.size() < magic_size + 2 || std::memcmp(bytes.data(), magic, magic_size) != 0)
        fail(path, "wrong magic (does not start with \\x93NUMPY)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    std::size_t header_len = 0, header_start = 0;
    auto byte = [&](std::size_t i) { return std::size_t(static_cast<unsigned char>(bytes[i])); };
    if (major == 1) {
        if (bytes.size() < 10) fail(path, "truncated before the header length");
        header_len = byte(8) | byte(9) << 8;
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(path, "truncated before the header length");
        header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
        header_start = 12;
    } else {
        fail(path, "unsupported format version " + std::to_string(major));
    }
    if (header_len > max_header_bytes)
        fail(path, "header length " + std::to_string(header_len) + " is absurd");
    if (bytes.size() < header_start + header_len)
        fail(path, "truncated inside the header (" + std::to_string(bytes.size()) + " bytes in the file)");

    HeaderParser header(std::string(bytes.data() + header_start, header_len), path);
    header.parse();
    const std::string& descr = header.descr();
    std::size_t item_bytes = 0;
    if (descr == "<f4")
        item_bytes = 4;
    else if (descr == "<f8")
        item_bytes = 8;
    else
        fail(path,
             "unsupported dtype '" + descr + "' (supported: little-endian float32 '<f4' and float64 '<f8')");
    const auto& shape = header.shape();
    if (shape.empty() || shape.size() > 3)
        fail(path, "has " + std::to_string(shape.size()) + " dimensions " + shape_text(shape) +
                       " (supported: 1 to 3)");

    const std::size_t data_bytes = bytes.size() - header_start - header_len;
    const std::size_t max_count = data_bytes / item_bytes;
    std::size_t count = 1;
    bool beyond_file = false; // checked by division so that a hostile shape cannot overflow
    for (auto d : shape) {
        if (d == 0)
            count = 0;
        else if (count > max_count / std::size_t(d))
            beyond_file = true;
        else
            count *= std::size_t(d);
    }
    if (count == 0) beyond_file = false;
    if (beyond_file || count * item_bytes != data_bytes) {
        std::ostringstream msg;
        msg << "shape " << shape_text(shape) << " of '" << descr << "' needs ";
        if (beyond_file)
            msg << "more than " << data_bytes;
        else
            msg << count * item_bytes;
        msg << " data bytes but the file holds " << data_bytes;
        if (beyond_file || count * item_bytes > data_bytes) msg << " (truncated)";
        fail(path, msg.str());
    }
    const char* data = bytes.data() + header_start + header_len;
    NpyArray out;
    out.shape = shape;
    out.data = item_bytes == 4 ? to_float<float>(data, count) : to_float<double>(data, count);
    if (header.fortran_order() && shape.size() > 1) out.data = fortran_to_c(out.data, shape);
    return out;
}

void write_npy(const std::string& path, const NpyArray& array) {
    std::size_t count = 1;
    for (auto d : array.shape) {
        if (d < 0)
            throw ConfigError("write_npy '" + path + "': negative size in shape " + shape_text(array.shape));
        count *= std::size_t(d);
    }
    if (array.shape.empty() || count != array.data.size()) {
        throw ConfigError("write_npy '" + path + "': shape " + shape_text(array.shape) + " does not match " +
                          std::to_string(array.data.size()) + " values");
    }
    std::string header =
        "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_text(array.shape) + ", }";
    // numpy pads so that the data start on a 64-byte boundary, with a final newline.
    const std::size_t preamble = magic_size + 2 + 2;
    const std::size_t total = (preamble + header.size() + 1 + 63) / 64 * 64;
    header.append(total - preamble - header.size() - 1, ' ');
    header.push_back('\n');
    if (header.size() > 0xffff)
        throw ConfigError("write_npy '" + path + "': shape too long for a 1.0 header");
    const unsigned char pre[preamble] = {0x93,
                                         'N',
                                         'U',
                                         'M',
                                         'P',
                                         'Y',
                                         1,
                                         0,
                                         static_cast<unsigned char>(header.size() & 0xff),
                                         static_cast<unsigned char>(header.size() >> 8)};
    detail::write_file_bytes(path, {{pre, preamble},
                                    {header.data(), header.size()},
                                    {array.data.data(), array.data.size() * sizeof(float)}});
}

} // namespace fwi
