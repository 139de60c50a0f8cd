#pragma once
// Private to the h5 layer: the HDF5 types of the C++ element types it supports. Files always store
// little-endian IEEE floats and 64-bit integers, whatever the machine, so they read the same everywhere.
#include "hdf5/h5.hpp"
#include "runtime/read_hand_over.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace fwi::h5::detail {

template <class T> struct NumberType;
template <> struct NumberType<float> {
    static hid_t memory() { return H5T_NATIVE_FLOAT; }
    static hid_t file() { return H5T_IEEE_F32LE; }
};
template <> struct NumberType<double> {
    static hid_t memory() { return H5T_NATIVE_DOUBLE; }
    static hid_t file() { return H5T_IEEE_F64LE; }
};
template <> struct NumberType<std::int64_t> {
    static hid_t memory() { return H5T_NATIVE_INT64; }
    static hid_t file() { return H5T_STD_I64LE; }
};
template <> struct NumberType<std::uint64_t> {
    static hid_t memory() { return H5T_NATIVE_UINT64; }
    static hid_t file() { return H5T_STD_U64LE; }
};

template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type { using element = T; };

template <class T> struct ElementOf { using type = T; };
template <class T> struct ElementOf<std::vector<T>> { using type = T; };

template <class T> constexpr bool is_integer_v = std::is_integral_v<T>;

/// A variable-length UTF-8 (or `cset`) string type; invalid handle on failure. Only for reading files of
/// schema 1, which stored strings so.
inline Handle string_type(H5T_cset_t cset = H5T_CSET_UTF8) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    if (!type.valid() || H5Tset_size(type.get(), H5T_VARIABLE) < 0 || H5Tset_cset(type.get(), cset) < 0)
        return Handle{};
    return type;
}

/// The fixed-length, null-padded UTF-8 string type FWI Studio writes for a text of `length` bytes (at least
/// one byte: HDF5 has no zero-size strings; the empty text is one '\0'). Invalid handle on failure.
inline Handle fixed_string_type(std::size_t length) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    if (!type.valid() || H5Tset_size(type.get(), std::max<std::size_t>(length, 1)) < 0 ||
        H5Tset_strpad(type.get(), H5T_STR_NULLPAD) < 0 || H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0)
        return Handle{};
    return type;
}

/// The longest fixed-length string read (a settings text or a path; anything longer is a damaged file).
inline constexpr std::size_t max_string_bytes = std::size_t(1) << 20;

/// Whether `type` is one of the standard number types HDF5 converts from without surprises: IEEE binary32 or
/// binary64, or a two's-complement / unsigned integer of 1, 2, 4 or 8 bytes, in either byte order. A damaged
/// file can describe odd types (bit offsets, precisions, sizes) whose conversion paths libhdf5 does not
/// check.
inline bool standard_number_type(hid_t type) {
    static const hid_t standard[] = {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE,
                                     H5T_STD_I8LE,   H5T_STD_I8BE,   H5T_STD_I16LE,  H5T_STD_I16BE,
                                     H5T_STD_I32LE,  H5T_STD_I32BE,  H5T_STD_I64LE,  H5T_STD_I64BE,
                                     H5T_STD_U8LE,   H5T_STD_U8BE,   H5T_STD_U16LE,  H5T_STD_U16BE,
                                     H5T_STD_U32LE,  H5T_STD_U32BE,  H5T_STD_U64LE,  H5T_STD_U64BE};
    for (hid_t t : standard)
        if (H5Tequal(type, t) > 0) return true;
    H5Eclear2(H5E_DEFAULT);
    return false;
}

/// Reads a scalar string (variable or fixed length) through `read(memory_type, buffer)`.
template <class Read>
std::string read_string_value(const Object& object, const std::string& label, hid_t file_type, hid_t space,
                              Read read) {
    if (H5Tget_class(file_type) != H5T_STRING) object.fail("is not a string", label);
    if (H5Sget_simple_extent_npoints(space) != 1) object.fail("is not a single string", label);
    const htri_t variable = H5Tis_variable_str(file_type);
    if (variable < 0) object.fail_call("cannot inspect the string type", label);
    const H5T_cset_t cset = H5Tget_cset(file_type);
    if (variable > 0) {
        if (!object.variable_strings_allowed())
            object.fail("is a variable-length string, which this file's version never writes (damaged file)",
                        label);
        // libhdf5 reads a variable-length string from the file's global heap, and a forged heap makes it
        // overflow or hang without always crashing the checking child (fwi/isolated_read.hpp): the parent
        // takes the child's string instead of converting it again (it aborted in free() on one such file).
        const std::string key = object.file_path() + '\n' + label + "\nvariable-length string";
        if (std::optional<std::string> handed = fwi::detail::take_over_any(key)) return *handed;
        Handle memory = string_type(cset == H5T_CSET_ERROR ? H5T_CSET_ASCII : cset);
        char* buffer = nullptr;
        if (!memory.valid() || read(memory.get(), &buffer) < 0)
            object.fail_call("cannot read the string", label);
        std::string value = buffer ? buffer : "";
        H5free_memory(buffer);
        fwi::detail::hand_over(key, value.data(), value.size());
        return value;
    }
    const std::size_t size = H5Tget_size(file_type);
    if (size == 0) object.fail_call("cannot inspect the string type", label);
    if (size > max_string_bytes)
        object.fail("is a string of " + std::to_string(size) + " bytes, more than any FWI Studio text",
                    label);
    Handle memory(H5Tcopy(file_type), H5Tclose);
    std::string value(size + 1, '\0');
    if (!memory.valid() || read(memory.get(), value.data()) < 0)
        object.fail_call("cannot read the string", label);
    value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
    // Fixed-length strings may be space-padded (Fortran style).
    while (!value.empty() && value.back() == ' ')
        value.pop_back();
    return value;
}

} // namespace fwi::h5::detail
