#pragma once
// Private to the h5 layer: the HDF5 types of the C++ element types it supports. Files always store
// little-endian IEEE floats and 64-bit integers, whatever the machine, so they read the same everywhere.
#include "hdf5/h5.hpp"

#include <hdf5.h>

#include <cstdint>
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

/// A variable-length UTF-8 (or `cset`) string type; invalid handle on failure.
inline Handle string_type(H5T_cset_t cset = H5T_CSET_UTF8) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    if (!type.valid() || H5Tset_size(type.get(), H5T_VARIABLE) < 0 || H5Tset_cset(type.get(), cset) < 0)
        return Handle{};
    return type;
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
        Handle memory = string_type(cset == H5T_CSET_ERROR ? H5T_CSET_ASCII : cset);
        char* buffer = nullptr;
        if (!memory.valid() || read(memory.get(), &buffer) < 0)
            object.fail_call("cannot read the string", label);
        std::string value = buffer ? buffer : "";
        H5free_memory(buffer);
        return value;
    }
    const std::size_t size = H5Tget_size(file_type);
    if (size == 0) object.fail_call("cannot inspect the string type", label);
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
