#pragma once
// A thin checked RAII layer over the HDF5 C API (private to core). Nothing else in FWI Studio calls HDF5
// directly.
//
// Every call is checked. A failure throws with the file, the object and the innermost messages of HDF5's
// error stack in the text; HDF5's own automatic printing to stderr is switched off (per thread, HDF5 keeps it
// per thread in thread-safe builds). Which exception a failure becomes depends on how the file was opened:
//   File::open (reading)  -> fwi::FormatError   (missing, unreadable, corrupt, truncated, unexpected content)
//   File::create (writing) -> fwi::ResourceError (unwritable path, disk full, ...)
// Handles close themselves (errors on close in destructors are ignored; File::close() reports them).
//
// Arrays are row-major with the slowest axis first, as everywhere in FWI Studio (grid.hpp); HDF5 uses the
// same (C) order, so shapes go to and from files unchanged.
#include "fwi/error.hpp"

#include <hdf5.h>

#include <concepts>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace fwi::h5 {

enum class Access { Read, Write };

/// Turns off HDF5's automatic error printing for the calling thread (idempotent, cheap).
void silence_errors();

/// Serialises HDF5 use when the library was built without thread safety; a no-op lock otherwise. Hold it for
/// the whole life of every handle of one operation (declare it first).
std::unique_lock<std::recursive_mutex> lock_library();

/// `what` with the HDF5 library's version, as isolated reads name a reader (fwi/isolated_read.hpp): a file
/// read safely by one version of the library is checked again under another.
std::string reader_name(const std::string& what);

/// Owns one hid_t and the function that releases it.
class Handle {
  public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(Handle&& other) noexcept;
    Handle& operator=(Handle&& other) noexcept;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle();

    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }
    /// Closes now; returns HDF5's status (negative on failure).
    herr_t close();

  private:
    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

/// What every object of one open file shares: its path and access mode (which decides the exception type).
struct FileContext {
    std::string path;
    Access access = Access::Read;
    /// Whether variable-length strings may be read. libhdf5 converts them without checking a damaged file
    /// (fuzzing found huge allocations, overflows and hangs), so a reader turns this off once it knows the
    /// file is of a version that writes fixed-length strings only (projects of schema 2 and later).
    mutable bool variable_strings = true;
};

enum class TypeClass { Integer, Float, String, Other };

/// Chunked + shuffle + deflate for datasets of at least `compress_min_bytes` (when the deflate filter
/// exists).
enum class Compression { None, Auto };
inline constexpr std::size_t compress_min_bytes = 64 * 1024;

class Dataset;

/// The attribute value types the layer reads and writes.
template <class T>
concept AttributeValue = std::same_as<T, double> || std::same_as<T, std::int64_t> ||
    std::same_as<T, std::uint64_t> || std::same_as<T, std::string> || std::same_as<T, std::vector<double>> ||
    std::same_as<T, std::vector<std::int64_t>>;
/// The element types of numeric datasets.
template <class T>
concept DatasetElement = std::same_as<T, float> || std::same_as<T, double> || std::same_as<T, std::int64_t>;

/// Common to groups and datasets: a path inside the file and attributes.
class Object {
  public:
    const std::string& file_path() const { return context_->path; }
    const std::string& path() const { return path_; } ///< inside the file, e.g. "/models/true"
    hid_t id() const { return handle_.get(); }
    bool variable_strings_allowed() const { return context_->variable_strings; }

    bool has_attribute(const std::string& name) const;
    /// Names of all attributes, sorted.
    std::vector<std::string> attribute_names() const;
    /// Scalar attributes: double, std::int64_t, std::uint64_t, std::string (fixed-length UTF-8, null-padded:
    /// reading them back needs no variable-length conversion, which libhdf5 cannot do safely on a damaged
    /// file). Vector attributes: std::vector<double>, std::vector<std::int64_t> (rank 1, may be empty).
    template <AttributeValue T> void set_attribute(const std::string& name, const T& value) const;
    /// Reads with HDF5's numeric conversion (integers may be read as double, not floats as integers); strings
    /// may be fixed-length (up to 1 MiB) or, in files of schema 1, variable-length. Vectors hold at most 2^24
    /// values. FormatError if absent, of the wrong kind, type or shape.
    template <AttributeValue T> T attribute(const std::string& name) const;
    /// The `int` range-checked version of attribute<std::int64_t>.
    int attribute_int(const std::string& name) const;

    /// Throws the file's error type with the innermost messages of the HDF5 error stack. Call it right after
    /// the failing HDF5 call (any other HDF5 call clears the stack).
    [[noreturn]] void fail_call(const std::string& what, const std::string& name = "") const;
    /// Throws the file's error type for content that HDF5 accepted but FWI Studio does not (wrong shape,
    /// type, ...).
    [[noreturn]] void fail(const std::string& what, const std::string& name = "") const;

  protected:
    Object(std::shared_ptr<const FileContext> context, std::string path, Handle handle);
    std::string child_path(const std::string& name) const;

    std::shared_ptr<const FileContext> context_;
    std::string path_;
    Handle handle_;
};

class Group : public Object {
  public:
    Group create_group(const std::string& name) const;
    Group open_group(const std::string& name) const;
    /// Whether a link `name` exists (nested names "a/b" allowed; false when an intermediate group is
    /// missing).
    bool has(const std::string& name) const;
    bool has_group(const std::string& name) const;
    bool has_dataset(const std::string& name) const;
    /// Names of the direct members, sorted by name.
    std::vector<std::string> children() const;
    /// Paths (from this group, without a leading '/') of every dataset below it, in visiting order.
    std::vector<std::string> datasets_recursive() const;

    /// Writes a numeric array (float, double, std::int64_t) of the given shape (product == data.size()).
    template <DatasetElement T>
    Dataset write_dataset(const std::string& name, std::span<const T> data,
                          const std::vector<std::int64_t>& shape,
                          Compression compression = Compression::Auto) const;
    /// A scalar fixed-length UTF-8 string dataset.
    Dataset write_string(const std::string& name, const std::string& value) const;
    Dataset open_dataset(const std::string& name) const;

  private:
    friend class File;
    using Object::Object;
};

/// The most values one dataset may declare before anything is allocated for it (2^31: 8 GiB of floats, far
/// beyond any 2D model or gather FWI Studio writes). A file declaring more is corrupt (FormatError), whatever
/// its size on disk: a chunked dataset can declare 10^12 cells in a few kilobytes.
inline constexpr std::int64_t max_dataset_values = std::int64_t(1) << 31;

class Dataset : public Object {
  public:
    std::vector<std::int64_t> shape() const; ///< empty for a scalar
    std::int64_t elements() const;
    TypeClass type_class() const;
    /// Reads all elements, converted by HDF5 to T (float, double, std::int64_t). Numeric datasets of a
    /// standard IEEE float or two's-complement integer type only; FormatError before any allocation when the
    /// dataset declares more than max_dataset_values values, ResourceError when the memory cannot be had.
    template <DatasetElement T> std::vector<T> read() const;
    /// read() after checking that the shape is exactly `expected` (what the schema and the file's own counts
    /// say it must be): FormatError naming both shapes otherwise, before any allocation.
    template <DatasetElement T> std::vector<T> read(const std::vector<std::int64_t>& expected) const;
    /// FormatError unless the shape is `expected` ("has shape (a, b); expected (c, d)" + why).
    void require_shape(const std::vector<std::int64_t>& expected, const std::string& why = "") const;
    std::string read_string() const;

  private:
    friend class Group;
    using Object::Object;
};

class File {
  public:
    /// Opens an existing file read-only. FormatError (naming the path) when it is missing or not HDF5.
    static File open(const std::string& path);
    /// Creates a new file on disk; fails if it exists when `exclusive`, truncates it otherwise. ResourceError
    /// on failure. Not for files a user keeps: a disk error at the final flush leaves libhdf5 (1.10) holding
    /// a half-closed file that crashes it at exit; those go through write_atomically (atomic_write.hpp).
    static File create(const std::string& path, bool exclusive = true);
    /// Creates a new file held in memory only (HDF5's core driver without a backing store); `label` names it
    /// in error messages. Nothing reaches the disk until image() hands the bytes over, so a full disk never
    /// fails inside libhdf5: after a failed flush to disk libhdf5 keeps a half-closed file that crashes it
    /// at exit (1.10). ResourceError on failure.
    static File create_in_memory(const std::string& label);

    const std::string& path() const { return context_->path; }
    Group root() const;
    /// Refuse (FormatError) every variable-length string from now on: see FileContext::variable_strings.
    void forbid_variable_strings() const { context_->variable_strings = false; }
    /// Flushes and closes, reporting failures (data written to a file that fails to close is not safe to
    /// keep). Every group and dataset of the file must be closed (destroyed) first.
    void close();
    /// The complete bytes of a file from create_in_memory() (flushed first), as they would be on disk.
    /// Every group and dataset of the file should be closed first. ResourceError on failure.
    std::vector<unsigned char> image() const;

  private:
    File(std::shared_ptr<const FileContext> context, Handle handle);
    std::shared_ptr<const FileContext> context_;
    Handle handle_;
};

/// Throws FormatError or ResourceError (per `access`) with `message`.
[[noreturn]] void throw_error(Access access, const std::string& message);

/// The innermost messages of the calling thread's HDF5 error stack ("" when empty), then clears it.
std::string take_error_stack();

} // namespace fwi::h5
