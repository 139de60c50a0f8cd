#pragma once
// Small helpers for the I/O tests: expected errors with message checks, and byte-level file writing.
#include <QtTest/QtTest>

#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace fwi_test {

/// The message of the expected exception type E, or a marker that the test's fragment checks cannot match.
template <typename E, typename F> std::string error_message(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("<wrong exception type: ") + e.what() + ">";
    }
    return "<no exception>";
}

inline bool write_bytes(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

inline std::vector<char> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

template <typename T> void append_le(std::vector<char>& out, T value) {
    char b[sizeof(T)];
    std::memcpy(b, &value, sizeof(T)); // the test hosts are little-endian, as the formats under test
    out.insert(out.end(), b, b + sizeof(T));
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

} // namespace fwi_test

/// Checks that `statement` throws exactly `ExceptionType` (or a subtype) whose message contains every
/// fragment.
#define FWI_VERIFY_ERROR(ExceptionType, statement, ...)                                                      \
    do {                                                                                                     \
        const std::string fwi_msg_ = fwi_test::error_message<ExceptionType>([&] { statement; });             \
        for (const char* fwi_frag_ : {__VA_ARGS__})                                                          \
            QVERIFY2(fwi_msg_.find(fwi_frag_) != std::string::npos,                                          \
                     qPrintable(                                                                             \
                         QString("expected '%1' in: %2").arg(fwi_frag_, QString::fromStdString(fwi_msg_)))); \
    } while (0)
