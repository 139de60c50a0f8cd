#pragma once
// The one checked layer over segyio's C API (private to core). Every segyio call goes through here; failures
// become FormatError (reading: malformed, truncated) or ResourceError (cannot open, cannot write), naming the
// file and the step. Byte order: segyio hands out headers and samples in file order (big-endian); this layer
// converts samples to native floats, and HeaderFields reads and writes header fields through segyio's own
// accessors.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

struct segy_file_handle;

namespace fwi::detail {

constexpr int segy_text_bytes = 3200;
constexpr int segy_binary_bytes = 400;
constexpr int segy_trace_header_bytes = 240;
constexpr int segy_max_samples = 32767; // the binary header's sample count is a signed 16-bit field
constexpr int segy_format_ibm = 1;
constexpr int segy_format_ieee = 5;

/// A binary (400 bytes) or trace (240 bytes) header with checked field access; `field` is segyio's byte
/// position.
template <int Bytes> class HeaderFields {
  public:
    std::int32_t get(int field) const;
    void set(int field, std::int32_t value);
    char* bytes() { return m_bytes.data(); }
    const char* bytes() const { return m_bytes.data(); }

  private:
    std::array<char, Bytes> m_bytes{};
};
using BinaryHeader = HeaderFields<segy_binary_bytes>;
using TraceHeader = HeaderFields<segy_trace_header_bytes>;

class SegyFile {
  public:
    enum class Mode { read, create };
    /// Throws ResourceError if the file cannot be opened (read) or created (create). A created file is
    /// written beside `path` and replaces it atomically in close() (io/atomic_file.hpp): a full disk or an
    /// error part-way leaves the old file as it was and no temporary file.
    SegyFile(const std::string& path, Mode mode);
    ~SegyFile();
    SegyFile(const SegyFile&) = delete;
    SegyFile& operator=(const SegyFile&) = delete;

    const std::string& path() const { return m_path; }

    /// The textual header as ASCII (segyio converts from EBCDIC).
    std::string read_text_header();
    /// `ascii` is padded with spaces (or cut) to 3200 characters and written as EBCDIC.
    void write_text_header(const std::string& ascii);

    /// Reads the binary header and derives the trace layout from it (format, samples, first trace offset).
    /// Throws FormatError for an unsupported sample format or a non-positive sample count.
    BinaryHeader read_binary_header();
    /// Writes the header and fixes the layout for writing IEEE float traces of `samples` samples.
    void write_binary_header(const BinaryHeader& header, int samples);

    int samples() const { return m_samples; }
    int format() const { return m_format; }
    /// Number of traces; FormatError if the file size is not a whole number of traces (truncated or
    /// inconsistent).
    int trace_count();

    TraceHeader read_trace_header(int trace);
    void write_trace_header(int trace, const TraceHeader& header);
    /// Samples of one trace as native floats (IBM or IEEE on disk).
    std::vector<float> read_trace(int trace);
    /// Writes native floats as big-endian IEEE float32; `samples` values.
    void write_trace(int trace, const float* samples);

    /// Closes and reports a failed final flush (ResourceError when writing). The destructor closes silently.
    void close();

  private:
    [[noreturn]] void fail(const std::string& step, int code) const;
    /// FormatError when reading, ResourceError when writing.
    void check(int code, const std::string& step) const;

    std::string m_path;      ///< the file named by the caller (and in messages)
    std::string m_temporary; ///< create: the file written, renamed over m_path by close()
    Mode m_mode;
    segy_file_handle* m_file = nullptr;
    long m_trace0 = segy_text_bytes + segy_binary_bytes;
    int m_samples = 0;
    int m_format = segy_format_ieee;
    int m_trace_bytes = 0;
};

/// The power-of-ten coordinate scalar for SEG-Y headers (SEG-Y: negative = divide): the finest of 1/10000 ..
/// 1 for which `max_abs_m` still fits in an int32. Throws ConfigError when even whole metres do not fit.
int coordinate_scalar(double max_abs_m, const std::string& what);
std::int32_t scaled_coordinate(double value_m, int scalar);
double unscaled_coordinate(std::int32_t value, int scalar);

/// Key=value numbers we record in our textual headers ("DZ_M=7.5"); nullopt-like NaN when absent or
/// malformed.
double text_header_number(const std::string& text, const std::string& key);

} // namespace fwi::detail
