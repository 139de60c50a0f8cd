#include "io/segy_file.hpp"

#include "fwi/error.hpp"
#include "io/atomic_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <segyio/segy.h>
#include <unistd.h>

namespace fwi::detail {
namespace {

const char* segy_error_name(int code) {
    switch (code) {
    case SEGY_FOPEN_ERROR:
        return "cannot open";
    case SEGY_FSEEK_ERROR:
        return "seek failed (file shorter than its headers say?)";
    case SEGY_FREAD_ERROR:
        return "read failed (file truncated?)";
    case SEGY_FWRITE_ERROR:
        return "write failed (disk full?)";
    case SEGY_INVALID_FIELD:
        return "invalid header field";
    case SEGY_TRACE_SIZE_MISMATCH:
        return "file size is not a whole number of traces (truncated or wrong sample count)";
    case SEGY_INVALID_ARGS:
        return "invalid arguments (file shorter than its headers?)";
    case SEGY_READONLY:
        return "file is read-only";
    default:
        return "segyio error";
    }
}

} // namespace

template <int Bytes> std::int32_t HeaderFields<Bytes>::get(int field) const {
    std::int32_t value = 0;
    const int rc = Bytes == segy_binary_bytes ? segy_get_bfield(m_bytes.data(), field, &value)
                                              : segy_get_field(m_bytes.data(), field, &value);
    if (rc != SEGY_OK) throw FormatError("SEG-Y: invalid header field at byte " + std::to_string(field));
    return value;
}

template <int Bytes> void HeaderFields<Bytes>::set(int field, std::int32_t value) {
    const int rc = Bytes == segy_binary_bytes ? segy_set_bfield(m_bytes.data(), field, value)
                                              : segy_set_field(m_bytes.data(), field, value);
    if (rc != SEGY_OK) throw FormatError("SEG-Y: invalid header field at byte " + std::to_string(field));
}

template class HeaderFields<segy_binary_bytes>;
template class HeaderFields<segy_trace_header_bytes>;

SegyFile::SegyFile(const std::string& path, Mode mode) : m_path(path), m_mode(mode) {
    if (mode == Mode::create) m_temporary = begin_replacement(path);
    errno = 0;
    m_file =
        segy_open(mode == Mode::read ? path.c_str() : m_temporary.c_str(), mode == Mode::read ? "rb" : "w+b");
    if (!m_file) {
        const std::string why = errno ? std::strerror(errno) : "unknown error";
        throw ResourceError("cannot open '" + path + "' for " + (mode == Mode::read ? "reading" : "writing") +
                            ": " + why);
    }
}

SegyFile::~SegyFile() {
    if (m_file) segy_close(m_file);
    if (!m_temporary.empty()) ::unlink(m_temporary.c_str()); // not committed: the old file stays
}

void SegyFile::close() {
    if (!m_file) return;
    const int rc = segy_close(m_file);
    m_file = nullptr;
    if (m_mode != Mode::create) return;
    if (rc != SEGY_OK) fail("close (flush)", rc);
    commit_replacement(m_temporary, m_path);
    m_temporary.clear();
}

void SegyFile::fail(const std::string& step, int code) const {
    // Writing, segyio's stdio calls leave the system's reason in errno (a full disk fails the next seek).
    const int error = errno;
    const bool system = m_mode == Mode::create && (error == ENOSPC || error == EFBIG || error == EDQUOT ||
                                                   error == EIO || error == EROFS);
    const std::string msg = "SEG-Y '" + m_path + "': " + step + ": " +
                            (system ? std::string(std::strerror(error)) : segy_error_name(code));
    if (m_mode == Mode::create) throw ResourceError(msg);
    throw FormatError(msg);
}

void SegyFile::check(int code, const std::string& step) const {
    if (code != SEGY_OK) fail(step, code);
}

std::string SegyFile::read_text_header() {
    std::vector<char> buf(std::size_t(segy_textheader_size()) + 1, '\0');
    check(segy_read_textheader(m_file, buf.data()), "reading the textual header");
    return std::string(buf.data());
}

void SegyFile::write_text_header(const std::string& ascii) {
    std::string text = ascii.substr(0, segy_text_bytes);
    text.resize(segy_text_bytes, ' ');
    check(segy_write_textheader(m_file, 0, text.c_str()), "writing the textual header");
}

BinaryHeader SegyFile::read_binary_header() {
    BinaryHeader header;
    check(segy_binheader(m_file, header.bytes()), "reading the binary header");
    m_format = segy_format(header.bytes());
    if (m_format != segy_format_ibm && m_format != segy_format_ieee) {
        throw FormatError("SEG-Y '" + m_path + "': sample format code " + std::to_string(m_format) +
                          " is not supported (1 = IBM float, 5 = IEEE float)");
    }
    m_trace0 = segy_trace0(header.bytes());
    m_samples = segy_samples(header.bytes());
    if (m_samples <= 0) {
        // Some writers leave the binary header's count empty; the first trace header must then have it.
        m_trace_bytes = 0;
        m_samples = read_trace_header(0).get(SEGY_TR_SAMPLE_COUNT);
    }
    if (m_samples <= 0)
        throw FormatError("SEG-Y '" + m_path + "': no sample count in the binary or the first trace header");
    m_trace_bytes = segy_trsize(m_format, m_samples);
    return header;
}

void SegyFile::write_binary_header(const BinaryHeader& header, int samples) {
    check(segy_write_binheader(m_file, header.bytes()), "writing the binary header");
    m_format = segy_format_ieee;
    m_samples = samples;
    m_trace0 = segy_text_bytes + segy_binary_bytes;
    m_trace_bytes = segy_trsize(m_format, samples);
}

int SegyFile::trace_count() {
    int count = 0;
    check(segy_traces(m_file, &count, m_trace0, m_trace_bytes), "counting traces");
    return count;
}

TraceHeader SegyFile::read_trace_header(int trace) {
    TraceHeader header;
    check(segy_traceheader(m_file, trace, header.bytes(), m_trace0, m_trace_bytes),
          "reading trace header " + std::to_string(trace));
    return header;
}

void SegyFile::write_trace_header(int trace, const TraceHeader& header) {
    check(segy_write_traceheader(m_file, trace, header.bytes(), m_trace0, m_trace_bytes),
          "writing trace header " + std::to_string(trace));
}

std::vector<float> SegyFile::read_trace(int trace) {
    std::vector<float> samples(static_cast<std::size_t>(m_samples));
    check(segy_readtrace(m_file, trace, samples.data(), m_trace0, m_trace_bytes),
          "reading trace " + std::to_string(trace));
    check(segy_to_native(m_format, m_samples, samples.data()), "converting trace " + std::to_string(trace));
    return samples;
}

void SegyFile::write_trace(int trace, const float* samples) {
    std::vector<float> buf(samples, samples + m_samples);
    check(segy_from_native(m_format, m_samples, buf.data()), "converting trace " + std::to_string(trace));
    check(segy_writetrace(m_file, trace, buf.data(), m_trace0, m_trace_bytes),
          "writing trace " + std::to_string(trace));
}

int coordinate_scalar(double max_abs_m, const std::string& what) {
    constexpr double int32_max = std::numeric_limits<std::int32_t>::max();
    for (int factor : {10000, 1000, 100, 10}) {
        if (max_abs_m * factor <= int32_max) return -factor;
    }
    if (max_abs_m <= int32_max) return 1;
    throw ConfigError(what + ": coordinate " + std::to_string(max_abs_m) +
                      " m is too large for SEG-Y headers");
}

std::int32_t scaled_coordinate(double value_m, int scalar) {
    const double factor = scalar < 0 ? -scalar : 1.0 / scalar;
    return std::int32_t(std::llround(value_m * factor));
}

double unscaled_coordinate(std::int32_t value, int scalar) {
    // SEG-Y: positive scalar multiplies, negative divides, 0 means 1. Division keeps decimal values
    // exact-as-typed.
    if (scalar < 0) return double(value) / double(-scalar);
    if (scalar > 0) return double(value) * double(scalar);
    return double(value);
}

double text_header_number(const std::string& text, const std::string& key) {
    const auto pos = text.find(key + "=");
    if (pos == std::string::npos) return std::nan("");
    const char* start = text.c_str() + pos + key.size() + 1;
    char* end = nullptr;
    const double v = std::strtod(start, &end);
    if (end == start) return std::nan("");
    return v;
}

} // namespace fwi::detail
