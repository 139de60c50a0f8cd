// The checked HDF5 layer: handles, errors, files and attributes (groups and datasets are in h5_group.cpp).
#include "hdf5/h5.hpp"

#include "hdf5/h5_types.hpp"
#include "io/file_access.hpp"

#include <algorithm>
#include <limits>

namespace fwi::h5 {

// ---------------------------------------------------------------------------------------------------------------
// Errors

void silence_errors() {
    // The automatic printer is per thread in thread-safe builds, so each thread turns it off once.
    thread_local bool silenced = false;
    if (!silenced) {
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        silenced = true;
    }
}

std::unique_lock<std::recursive_mutex> lock_library() {
#ifdef H5_HAVE_THREADSAFE
    return {};
#else
    static std::recursive_mutex mutex;
    return std::unique_lock<std::recursive_mutex>(mutex);
#endif
}

std::string reader_name(const std::string& what) {
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
    return what + " (HDF5 " + std::to_string(major) + "." + std::to_string(minor) + "." +
           std::to_string(release) + ")";
}

namespace {

struct StackText {
    std::vector<std::string> messages;
};

/// HDF5's messages are written for its developers; keep what a user can act on. "... errno = 2, error message
/// = 'No such file or directory', flags = ..." becomes the system message; multi-line messages keep their
/// first line.
std::string clean_message(std::string message) {
    const std::string key = "error message = '";
    if (const auto at = message.find(key); at != std::string::npos) {
        const auto start = at + key.size();
        message = message.substr(start, message.find('\'', start) - start);
    }
    message = message.substr(0, message.find('\n'));
    if (message.find("file signature not found") != std::string::npos) message += " (not an HDF5 file)";
    return message;
}

bool is_generic(const std::string& message) {
    return message == "open failed" || message.rfind("unable to open file", 0) == 0;
}

herr_t collect_message(unsigned /*n*/, const H5E_error2_t* error, void* data) {
    auto* text = static_cast<StackText*>(data);
    if (error && error->desc && *error->desc) {
        std::string message = clean_message(error->desc);
        for (const auto& m : text->messages)
            if (m == message) return 0;
        text->messages.push_back(std::move(message));
    }
    return 0;
}

} // namespace

std::string take_error_stack() {
    StackText text;
    // Upward: the innermost (most specific) message first, e.g. "truncated file: eof = ...".
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_message, &text);
    H5Eclear2(H5E_DEFAULT);
    // Innermost first; generic wrappers ("unable to open file") only when nothing more specific was said.
    std::string joined;
    int kept = 0;
    for (const auto& message : text.messages) {
        if (kept == 2 || (kept > 0 && is_generic(message))) continue;
        joined += (joined.empty() ? "" : "; ") + message;
        ++kept;
    }
    return joined;
}

void throw_error(Access access, const std::string& message) {
    if (access == Access::Read) throw FormatError(message);
    throw ResourceError(message);
}

// ---------------------------------------------------------------------------------------------------------------
// Handles

Handle::Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) {
    other.id_ = H5I_INVALID_HID;
}

Handle& Handle::operator=(Handle&& other) noexcept {
    if (this != &other) {
        close();
        id_ = other.id_;
        closer_ = other.closer_;
        other.id_ = H5I_INVALID_HID;
    }
    return *this;
}

Handle::~Handle() {
    if (close() < 0) H5Eclear2(H5E_DEFAULT); // destructors cannot report; File::close() does
}

herr_t Handle::close() {
    herr_t status = 0;
    if (id_ >= 0 && closer_) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
}

// ---------------------------------------------------------------------------------------------------------------
// Objects and attributes

Object::Object(std::shared_ptr<const FileContext> context, std::string path, Handle handle)
    : context_(std::move(context)), path_(std::move(path)), handle_(std::move(handle)) {
    silence_errors();
}

std::string Object::child_path(const std::string& name) const {
    if (!name.empty() && name.front() == '/') return name;
    return path_ == "/" ? "/" + name : path_ + "/" + name;
}

void Object::fail_call(const std::string& what, const std::string& name) const {
    const std::string stack = take_error_stack();
    throw_error(context_->access, "'" + file_path() + "': " + (name.empty() ? path_ : name) + ": " + what +
                                      (stack.empty() ? "" : " (" + stack + ")"));
}

void Object::fail(const std::string& what, const std::string& name) const {
    throw_error(context_->access, "'" + file_path() + "': " + (name.empty() ? path_ : name) + ": " + what);
}

namespace {

std::string attribute_label(const std::string& path, const std::string& name) {
    return path + " attribute '" + name + "'";
}

} // namespace

bool Object::has_attribute(const std::string& name) const {
    const htri_t exists = H5Aexists(id(), name.c_str());
    if (exists < 0) fail_call("cannot look up the attribute", attribute_label(path_, name));
    return exists > 0;
}

namespace {

herr_t collect_attribute_name(hid_t /*location*/, const char* name, const H5A_info_t* /*info*/, void* data) {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
}

} // namespace

std::vector<std::string> Object::attribute_names() const {
    std::vector<std::string> names;
    hsize_t index = 0;
    if (H5Aiterate2(id(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute_name, &names) < 0)
        fail_call("cannot list the attributes");
    std::sort(names.begin(), names.end());
    return names;
}

template <AttributeValue T> void Object::set_attribute(const std::string& name, const T& value) const {
    const std::string label = attribute_label(path_, name);
    if (has_attribute(name) && H5Adelete(id(), name.c_str()) < 0)
        fail_call("cannot replace the attribute", label);

    Handle space;
    Handle owned_type;
    hid_t file_type = H5I_INVALID_HID;
    hid_t memory_type = H5I_INVALID_HID;
    const void* data = nullptr;
    const char* text = nullptr;
    std::string padded; // the empty text is stored as one '\0' (HDF5 has no zero-size strings)
    if constexpr (std::is_same_v<T, std::string>) {
        owned_type = detail::fixed_string_type(value.size());
        if (!owned_type.valid()) fail_call("cannot make a string type", label);
        file_type = memory_type = owned_type.get();
        space = Handle(H5Screate(H5S_SCALAR), H5Sclose);
        padded = value.empty() ? std::string(1, '\0') : value;
        text = padded.c_str();
        data = text;
    } else if constexpr (detail::IsVector<T>::value) {
        using E = typename detail::IsVector<T>::element;
        const hsize_t dims[1] = {hsize_t(value.size())};
        space = Handle(H5Screate_simple(1, dims, nullptr), H5Sclose);
        file_type = detail::NumberType<E>::file();
        memory_type = detail::NumberType<E>::memory();
        data = value.data();
    } else {
        space = Handle(H5Screate(H5S_SCALAR), H5Sclose);
        file_type = detail::NumberType<T>::file();
        memory_type = detail::NumberType<T>::memory();
        data = &value;
    }
    if (!space.valid()) fail_call("cannot make a dataspace", label);
    Handle attribute(H5Acreate2(id(), name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                     H5Aclose);
    if (!attribute.valid()) fail_call("cannot create the attribute", label);
    // An empty vector has nothing to write (and data() may be null).
    if (space.valid() && H5Sget_simple_extent_npoints(space.get()) > 0 &&
        H5Awrite(attribute.get(), memory_type, data) < 0)
        fail_call("cannot write the attribute", label);
    if (attribute.close() < 0) fail_call("cannot close the attribute", label);
}

template <AttributeValue T> T Object::attribute(const std::string& name) const {
    const std::string label = attribute_label(path_, name);
    if (!has_attribute(name)) fail("is missing", label);
    Handle attribute(H5Aopen(id(), name.c_str(), H5P_DEFAULT), H5Aclose);
    if (!attribute.valid()) fail_call("cannot open the attribute", label);
    Handle type(H5Aget_type(attribute.get()), H5Tclose);
    Handle space(H5Aget_space(attribute.get()), H5Sclose);
    if (!type.valid() || !space.valid()) fail_call("cannot inspect the attribute", label);

    if constexpr (std::is_same_v<T, std::string>) {
        return detail::read_string_value(
            *this, label, type.get(), space.get(),
            [&](hid_t memory, void* buffer) { return H5Aread(attribute.get(), memory, buffer); });
    } else {
        using E = typename detail::ElementOf<T>::type;
        const H5T_class_t type_class = H5Tget_class(type.get());
        const bool numeric =
            type_class == H5T_INTEGER || (type_class == H5T_FLOAT && !detail::is_integer_v<E>);
        if (!numeric) fail(detail::is_integer_v<E> ? "is not an integer" : "is not a number", label);
        if (!detail::standard_number_type(type.get())) fail("has an unsupported number type", label);
        const H5S_class_t space_class = H5Sget_simple_extent_type(space.get());
        if (space_class != H5S_SCALAR && space_class != H5S_SIMPLE && space_class != H5S_NULL)
            fail_call("cannot inspect the attribute", label);
        const hssize_t points = space_class == H5S_NULL ? 0 : H5Sget_simple_extent_npoints(space.get());
        if (points < 0) fail_call("cannot inspect the attribute", label);
        if (H5Sget_simple_extent_ndims(space.get()) > 1) fail("has more than one dimension", label);
        constexpr hssize_t max_attribute_values = hssize_t(1) << 24;
        if (points > max_attribute_values)
            fail("declares " + std::to_string(points) + " values, more than any FWI Studio attribute", label);
        std::vector<E> values(std::size_t(points), E{});
        if (points > 0 && H5Aread(attribute.get(), detail::NumberType<E>::memory(), values.data()) < 0)
            fail_call("cannot read the attribute", label);
        if constexpr (detail::IsVector<T>::value) {
            return values;
        } else {
            if (points != 1) fail("holds " + std::to_string(points) + " values, expected one", label);
            return values.front();
        }
    }
}

int Object::attribute_int(const std::string& name) const {
    const std::int64_t value = attribute<std::int64_t>(name);
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
        fail("value " + std::to_string(value) + " is out of range", attribute_label(path_, name));
    return int(value);
}

// The attribute types the layer supports (declared in h5.hpp).
template void Object::set_attribute<double>(const std::string&, const double&) const;
template void Object::set_attribute<std::int64_t>(const std::string&, const std::int64_t&) const;
template void Object::set_attribute<std::uint64_t>(const std::string&, const std::uint64_t&) const;
template void Object::set_attribute<std::string>(const std::string&, const std::string&) const;
template void Object::set_attribute<std::vector<double>>(const std::string&,
                                                         const std::vector<double>&) const;
template void Object::set_attribute<std::vector<std::int64_t>>(const std::string&,
                                                               const std::vector<std::int64_t>&) const;
template double Object::attribute<double>(const std::string&) const;
template std::int64_t Object::attribute<std::int64_t>(const std::string&) const;
template std::uint64_t Object::attribute<std::uint64_t>(const std::string&) const;
template std::string Object::attribute<std::string>(const std::string&) const;
template std::vector<double> Object::attribute<std::vector<double>>(const std::string&) const;
template std::vector<std::int64_t> Object::attribute<std::vector<std::int64_t>>(const std::string&) const;

// ---------------------------------------------------------------------------------------------------------------
// Files

namespace {

Handle file_access_properties(Access access, const std::string& path) {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    bool ok = fapl.valid();
#if H5_VERSION_GE(1, 12, 1) || (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7)
    // Lock when the file system supports it, but do not fail where it does not (NFS and the like).
    ok = ok && H5Pset_file_locking(fapl.get(), true, true) >= 0;
#endif
    if (!ok) {
        const std::string stack = take_error_stack();
        throw_error(access, "'" + path + "': cannot set up HDF5 file access (" + stack + ")");
    }
    return fapl;
}

} // namespace

File::File(std::shared_ptr<const FileContext> context, Handle handle)
    : context_(std::move(context)), handle_(std::move(handle)) {}

File File::open(const std::string& path) {
    silence_errors();
    fwi::detail::require_readable(path); // missing or unreadable: a resource problem (exit 3), not a bad file
    Handle fapl = file_access_properties(Access::Read, path);
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
    if (!file.valid()) {
        const std::string stack = take_error_stack();
        throw FormatError("cannot open HDF5 file '" + path + "'" + (stack.empty() ? "" : ": " + stack));
    }
    return File(std::make_shared<FileContext>(FileContext{path, Access::Read}), std::move(file));
}

File File::create(const std::string& path, bool exclusive) {
    silence_errors();
    Handle fapl = file_access_properties(Access::Write, path);
    Handle file(H5Fcreate(path.c_str(), exclusive ? H5F_ACC_EXCL : H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
                H5Fclose);
    if (!file.valid()) {
        const std::string stack = take_error_stack();
        throw ResourceError("cannot create HDF5 file '" + path + "'" + (stack.empty() ? "" : ": " + stack));
    }
    return File(std::make_shared<FileContext>(FileContext{path, Access::Write}), std::move(file));
}

File File::create_in_memory(const std::string& label) {
    silence_errors();
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    constexpr std::size_t growth_bytes = 4 << 20; // the image grows (realloc) in steps of this size
    Handle file;
    if (fapl.valid() && H5Pset_fapl_core(fapl.get(), growth_bytes, /*backing_store=*/false) >= 0)
        file = Handle(H5Fcreate(label.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!file.valid()) {
        const std::string stack = take_error_stack();
        throw ResourceError("cannot create HDF5 file '" + label + "' in memory" +
                            (stack.empty() ? "" : ": " + stack));
    }
    return File(std::make_shared<FileContext>(FileContext{label, Access::Write}), std::move(file));
}

std::vector<unsigned char> File::image() const {
    if (H5Fflush(handle_.get(), H5F_SCOPE_LOCAL) >= 0) {
        const ssize_t size = H5Fget_file_image(handle_.get(), nullptr, 0);
        if (size >= 0) {
            std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
            if (H5Fget_file_image(handle_.get(), bytes.data(), bytes.size()) == size) return bytes;
        }
    }
    const std::string stack = take_error_stack();
    throw ResourceError("'" + path() + "': cannot take the file image (" + stack + ")");
}

Group File::root() const {
    Handle group(H5Gopen2(handle_.get(), "/", H5P_DEFAULT), H5Gclose);
    if (!group.valid()) {
        const std::string stack = take_error_stack();
        throw_error(context_->access, "'" + path() + "': cannot open the root group (" + stack + ")");
    }
    return Group(context_, "/", std::move(group));
}

void File::close() {
    if (!handle_.valid()) return;
    const ssize_t open_objects =
        H5Fget_obj_count(handle_.get(), H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE | H5F_OBJ_ATTR);
    if (open_objects != 0) {
        // With objects still open, H5Fclose would only defer the real close; nothing would be flushed yet.
        throw_error(context_->access, "'" + path() +
                                          "': cannot close the file: " + std::to_string(open_objects) +
                                          " HDF5 objects are still open (internal error)");
    }
    if (H5Fflush(handle_.get(), H5F_SCOPE_LOCAL) < 0 || handle_.close() < 0) {
        const std::string stack = take_error_stack();
        throw_error(context_->access, "'" + path() + "': cannot flush and close the file (" + stack + ")");
    }
}

} // namespace fwi::h5
