// The checked HDF5 layer: groups and datasets. Only version-stable calls are used (no H5Ovisit / H5Literate,
// whose callback types differ between HDF5 1.10 and 1.12+), so the layer builds against either.
#include "hdf5/h5.hpp"

#include "hdf5/chunk_decode.hpp"
#include "hdf5/h5_types.hpp"
#include "runtime/checked_files.hpp"
#include "runtime/machine_memory.hpp"
#include "runtime/read_hand_over.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <unistd.h>

namespace fwi::h5 {

namespace {

std::vector<std::string> split_path(const std::string& name) {
    std::vector<std::string> parts;
    std::string part;
    for (char c : name) {
        if (c == '/') {
            if (!part.empty()) parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    if (!part.empty()) parts.push_back(part);
    return parts;
}

/// The name of the file holding `object` ("" when the library cannot tell).
std::string file_name_of(hid_t object) {
    const ssize_t length = H5Fget_name(object, nullptr, 0);
    if (length < 0) {
        H5Eclear2(H5E_DEFAULT);
        return {};
    }
    std::string name(std::size_t(length) + 1, '\0');
    if (H5Fget_name(object, name.data(), name.size()) < 0) H5Eclear2(H5E_DEFAULT);
    name.resize(std::size_t(length));
    return name;
}

/// H5I_GROUP, H5I_DATASET, ... of the object at `name`, or H5I_BADID if it cannot be opened. Every object
/// the layer opens is looked up here first: one reached through an external link lies in another file, which
/// a reading child reports (runtime/checked_files.hpp: such a file is never remembered as read safely). Only
/// the child's report is ever used, so only a child looks.
H5I_type_t object_type(hid_t location, const std::string& name) {
    Handle object(H5Oopen(location, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid()) {
        H5Eclear2(H5E_DEFAULT);
        return H5I_BADID;
    }
    if (fwi::detail::in_reading_child() && file_name_of(object.get()) != file_name_of(location))
        fwi::detail::note_other_file_read();
    return H5Iget_type(object.get());
}

/// Chunks of at most ~1 MiB, cut along the slow axes first so that rows (x, fast) stay contiguous.
std::vector<hsize_t> chunk_shape(const std::vector<hsize_t>& dims, std::size_t element_bytes) {
    constexpr std::size_t target_bytes = 1 << 20;
    std::vector<hsize_t> chunk = dims;
    auto bytes = [&] {
        std::size_t n = element_bytes;
        for (auto c : chunk)
            n *= std::size_t(c);
        return n;
    };
    while (bytes() > target_bytes) {
        auto axis = std::find_if(chunk.begin(), chunk.end(), [](hsize_t c) { return c > 1; });
        if (axis == chunk.end()) break;
        *axis = (*axis + 1) / 2;
    }
    return chunk;
}

bool deflate_available() {
    static const bool available = H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0;
    return available;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// Groups

Group Group::create_group(const std::string& name) const {
    Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    if (!lcpl.valid() || H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
        fail_call("cannot set up group creation", child_path(name));
    Handle group(H5Gcreate2(id(), name.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) fail_call("cannot create the group", child_path(name));
    return Group(context_, child_path(name), std::move(group));
}

Group Group::open_group(const std::string& name) const {
    if (!has_group(name)) fail("is missing or not a group", child_path(name));
    Handle group(H5Gopen2(id(), name.c_str(), H5P_DEFAULT), H5Gclose);
    if (!group.valid()) fail_call("cannot open the group", child_path(name));
    return Group(context_, child_path(name), std::move(group));
}

bool Group::has(const std::string& name) const {
    std::string prefix;
    const auto parts = split_path(name);
    if (parts.empty()) return false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        prefix += (i ? "/" : "") + parts[i];
        const htri_t exists = H5Lexists(id(), prefix.c_str(), H5P_DEFAULT);
        if (exists < 0) fail_call("cannot look up the link", child_path(prefix));
        if (exists == 0) return false;
        if (i + 1 < parts.size() && object_type(id(), prefix) != H5I_GROUP) return false;
    }
    return true;
}

bool Group::has_group(const std::string& name) const {
    return has(name) && object_type(id(), name) == H5I_GROUP;
}

bool Group::has_dataset(const std::string& name) const {
    return has(name) && object_type(id(), name) == H5I_DATASET;
}

std::vector<std::string> Group::children() const {
    H5G_info_t info;
    if (H5Gget_info(id(), &info) < 0) fail_call("cannot list the group");
    std::vector<std::string> names;
    for (hsize_t i = 0; i < info.nlinks; ++i) {
        const ssize_t length =
            H5Lget_name_by_idx(id(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
        if (length < 0) fail_call("cannot list the group");
        std::string name(std::size_t(length) + 1, '\0');
        if (H5Lget_name_by_idx(id(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                               H5P_DEFAULT) < 0)
            fail_call("cannot list the group");
        name.resize(std::size_t(length));
        names.push_back(std::move(name));
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> Group::datasets_recursive() const {
    std::vector<std::string> found;
    // Hard links can form cycles; no FWI Studio file nests deeper than this.
    constexpr int max_depth = 16;
    auto visit = [&](auto&& self, const Group& group, const std::string& prefix, int depth) -> void {
        for (const auto& name : group.children()) {
            H5L_info_t link;
            if (H5Lget_info(group.id(), name.c_str(), &link, H5P_DEFAULT) < 0)
                group.fail_call("cannot inspect", name);
            if (link.type != H5L_TYPE_HARD) continue; // soft and external links may dangle or loop
            const H5I_type_t type = object_type(group.id(), name);
            if (type == H5I_DATASET) found.push_back(prefix + name);
            if (type == H5I_GROUP && depth < max_depth)
                self(self, group.open_group(name), prefix + name + "/", depth + 1);
        }
    };
    visit(visit, *this, "", 0);
    return found;
}

template <DatasetElement T>
Dataset Group::write_dataset(const std::string& name, std::span<const T> data,
                             const std::vector<std::int64_t>& shape, Compression compression) const {
    const std::string label = child_path(name);
    std::vector<hsize_t> dims;
    std::size_t elements = 1;
    for (auto n : shape) {
        if (n < 0) fail("negative dimension " + std::to_string(n), label);
        dims.push_back(hsize_t(n));
        elements *= std::size_t(n);
    }
    if (elements != data.size())
        fail("shape holds " + std::to_string(elements) + " values but " + std::to_string(data.size()) +
                 " were given",
             label);

    Handle space(dims.empty() ? H5Screate(H5S_SCALAR)
                              : H5Screate_simple(int(dims.size()), dims.data(), nullptr),
                 H5Sclose);
    Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    if (!space.valid() || !lcpl.valid() || !dcpl.valid() ||
        H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
        fail_call("cannot set up the dataset", label);
    const bool compress = compression == Compression::Auto && !dims.empty() && elements > 0 &&
                          elements * sizeof(T) >= compress_min_bytes && deflate_available();
    if (compress) {
        // Shuffle groups the bytes of equal significance, which makes floats compress far better under
        // deflate.
        const auto chunk = chunk_shape(dims, sizeof(T));
        if (H5Pset_chunk(dcpl.get(), int(chunk.size()), chunk.data()) < 0 || H5Pset_shuffle(dcpl.get()) < 0 ||
            H5Pset_deflate(dcpl.get(), 4) < 0)
            fail_call("cannot set up compression", label);
    }
    Handle dataset(H5Dcreate2(id(), name.c_str(), detail::NumberType<T>::file(), space.get(), lcpl.get(),
                              dcpl.get(), H5P_DEFAULT),
                   H5Dclose);
    if (!dataset.valid()) fail_call("cannot create the dataset", label);
    if (elements > 0 && H5Dwrite(dataset.get(), detail::NumberType<T>::memory(), H5S_ALL, H5S_ALL,
                                 H5P_DEFAULT, data.data()) < 0)
        fail_call("cannot write the dataset", label);
    return Dataset(context_, label, std::move(dataset));
}

template Dataset Group::write_dataset<float>(const std::string&, std::span<const float>,
                                             const std::vector<std::int64_t>&, Compression) const;
template Dataset Group::write_dataset<double>(const std::string&, std::span<const double>,
                                              const std::vector<std::int64_t>&, Compression) const;
template Dataset Group::write_dataset<std::int64_t>(const std::string&, std::span<const std::int64_t>,
                                                    const std::vector<std::int64_t>&, Compression) const;

Dataset Group::write_string(const std::string& name, const std::string& value) const {
    const std::string label = child_path(name);
    Handle type = detail::fixed_string_type(value.size());
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    if (!type.valid() || !space.valid() || !lcpl.valid() ||
        H5Pset_create_intermediate_group(lcpl.get(), 1) < 0)
        fail_call("cannot set up the string dataset", label);
    Handle dataset(
        H5Dcreate2(id(), name.c_str(), type.get(), space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!dataset.valid()) fail_call("cannot create the dataset", label);
    const std::string padded = value.empty() ? std::string(1, '\0') : value;
    if (H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, padded.c_str()) < 0)
        fail_call("cannot write the dataset", label);
    return Dataset(context_, label, std::move(dataset));
}

Dataset Group::open_dataset(const std::string& name) const {
    if (!has_dataset(name)) fail("is missing or not a dataset", child_path(name));
    Handle dataset(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset.valid()) fail_call("cannot open the dataset", child_path(name));
    if (fwi::detail::in_reading_child()) { // a virtual dataset reads its values from other files
                                           // (object_type)
        Handle create_list(H5Dget_create_plist(dataset.get()), H5Pclose);
        if (!create_list.valid() || H5Pget_layout(create_list.get()) == H5D_VIRTUAL)
            fwi::detail::note_other_file_read();
    }
    return Dataset(context_, child_path(name), std::move(dataset));
}

// ---------------------------------------------------------------------------------------------------------------
// Datasets

std::vector<std::int64_t> Dataset::shape() const {
    Handle space(H5Dget_space(id()), H5Sclose);
    if (!space.valid()) fail_call("cannot inspect the dataset");
    if (H5Sget_simple_extent_type(space.get()) == H5S_NULL) return {0};
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) fail_call("cannot inspect the dataset");
    std::vector<hsize_t> dims(std::size_t(rank), 0);
    if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0)
        fail_call("cannot inspect the dataset");
    std::vector<std::int64_t> shape;
    for (auto d : dims) {
        if (d > hsize_t(std::numeric_limits<std::int64_t>::max())) fail("has an impossible dimension");
        shape.push_back(std::int64_t(d));
    }
    return shape;
}

std::int64_t Dataset::elements() const {
    std::int64_t n = 1;
    for (auto d : shape()) {
        if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d) fail("has an impossible size");
        n *= d;
    }
    return n;
}

TypeClass Dataset::type_class() const {
    Handle type(H5Dget_type(id()), H5Tclose);
    if (!type.valid()) fail_call("cannot inspect the dataset type");
    switch (H5Tget_class(type.get())) {
    case H5T_INTEGER:
        return TypeClass::Integer;
    case H5T_FLOAT:
        return TypeClass::Float;
    case H5T_STRING:
        return TypeClass::String;
    default:
        return TypeClass::Other;
    }
}

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

void Dataset::require_shape(const std::vector<std::int64_t>& expected, const std::string& why) const {
    const auto actual = shape();
    if (actual != expected)
        fail("has shape " + shape_text(actual) + "; expected " + shape_text(expected) +
             (why.empty() ? "" : " (" + why + ")"));
}

template <DatasetElement T> std::vector<T> Dataset::read(const std::vector<std::int64_t>& expected) const {
    require_shape(expected);
    return read<T>();
}

template <DatasetElement T> std::vector<T> Dataset::read() const {
    const TypeClass type = type_class();
    const bool numeric = type == TypeClass::Integer || (type == TypeClass::Float && !std::is_integral_v<T>);
    if (!numeric) fail(std::is_integral_v<T> ? "is not an integer dataset" : "is not a numeric dataset");
    {
        Handle file_type(H5Dget_type(id()), H5Tclose);
        if (!file_type.valid()) fail_call("cannot inspect the dataset type");
        if (!detail::standard_number_type(file_type.get())) fail("has an unsupported number type");
        Handle space(H5Dget_space(id()), H5Sclose);
        if (!space.valid()) fail_call("cannot inspect the dataset");
        const H5S_class_t space_class = H5Sget_simple_extent_type(space.get());
        if (space_class != H5S_SCALAR && space_class != H5S_SIMPLE && space_class != H5S_NULL)
            fail("has an unsupported dataspace");
    }
    const std::int64_t n = elements();
    if (n > max_dataset_values)
        fail("declares " + std::to_string(n) + " values, more than any FWI Studio dataset holds (" +
             std::to_string(max_dataset_values) + ")");
    {
        // What the file really stores bounds what it can hold: deflate cannot compress better than about
        // 1032:1, and FWI Studio writes every chunk. A dataset declaring far more (chunks never written, read
        // back as fill values) is damaged or forged, and is refused before its memory is allocated.
        Handle file_type(H5Dget_type(id()), H5Tclose);
        const double declared = double(n) * double(file_type.valid() ? H5Tget_size(file_type.get()) : 8);
        const double stored = double(H5Dget_storage_size(id()));
        H5Eclear2(H5E_DEFAULT);
        if (declared > 2048.0 * stored + double(1 << 20))
            fail("declares " + std::to_string(n) + " values but stores only " +
                 std::to_string(static_cast<long long>(stored)) + " bytes (damaged or truncated file)");
        const double physical = double(fwi::detail::physical_memory_bytes());
        if (physical > 0 && double(n) * double(sizeof(T)) > 0.5 * physical)
            throw ResourceError("'" + file_path() + "': " + path() + ": " + std::to_string(n) +
                                " values need more than half of this machine's memory");
    }
    std::vector<T> values;
    try {
        values.resize(std::size_t(n));
    } catch (const std::bad_alloc&) {
        throw ResourceError("'" + file_path() + "': " + path() + ": not enough memory to read " +
                            std::to_string(n) + " values");
    } catch (const std::length_error&) {
        fail("claims an impossible size of " + std::to_string(n) + " values");
    }
    // Under an isolated read (fwi/isolated_read.hpp) the checking child hands its decoded values over, and
    // the real read copies them instead of decoding them again (the checks above ran here all the same).
    const std::string key = file_path() + '\n' + path();
    const std::size_t bytes = std::size_t(n) * sizeof(T);
    if (n > 0 && !fwi::detail::take_over(key, values.data(), bytes)) {
        const hid_t memory = detail::NumberType<T>::memory();
        if (!detail::read_chunks_in_parallel(id(), memory, sizeof(T), values.data()) &&
            H5Dread(id(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
            fail_call("cannot read the dataset");
        fwi::detail::hand_over(key, values.data(), bytes);
    }
    return values;
}

template std::vector<float> Dataset::read<float>() const;
template std::vector<double> Dataset::read<double>() const;
template std::vector<std::int64_t> Dataset::read<std::int64_t>() const;
template std::vector<float> Dataset::read<float>(const std::vector<std::int64_t>&) const;
template std::vector<double> Dataset::read<double>(const std::vector<std::int64_t>&) const;
template std::vector<std::int64_t> Dataset::read<std::int64_t>(const std::vector<std::int64_t>&) const;

std::string Dataset::read_string() const {
    Handle type(H5Dget_type(id()), H5Tclose);
    Handle space(H5Dget_space(id()), H5Sclose);
    if (!type.valid() || !space.valid()) fail_call("cannot inspect the dataset");
    return detail::read_string_value(*this, path(), type.get(), space.get(), [&](hid_t memory, void* buffer) {
        return H5Dread(id(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
    });
}

} // namespace fwi::h5
