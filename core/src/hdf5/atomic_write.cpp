#include "hdf5/atomic_write.hpp"

#include "io/atomic_file.hpp"
#include "io/file_access.hpp"

#include <cstddef>
#include <span>

namespace fwi::h5 {

namespace {

/// The image of the file `fill` writes, built in memory: disk errors cannot reach libhdf5.
std::vector<unsigned char> build_image(const std::string& label,
                                       const std::function<void(const Group&)>& fill) {
    File file = File::create_in_memory(label);
    {
        const Group root = file.root();
        fill(root);
    }
    std::vector<unsigned char> bytes = file.image();
    file.close();
    return bytes;
}

} // namespace

void check_replaceable(const std::string& path) {
    fwi::detail::require_replaceable(fwi::detail::replacement_target(path)); // its messages name the file
}

void write_atomically(const std::string& path, const std::function<void(const Group& root)>& fill) {
    check_replaceable(path); // before the image is built: a long fill is not wasted on a read-only file
    std::vector<unsigned char> bytes;
    try {
        bytes = build_image(path, fill);
    } catch (const ResourceError& e) {
        throw ResourceError("cannot write '" + path + "': " + e.what());
    } catch (const ConfigError& e) {
        throw ConfigError("cannot write '" + path + "': " + e.what());
    }
    fwi::detail::replace_file(path, std::as_bytes(std::span(bytes))); // its errors name `path` and the reason
}

} // namespace fwi::h5
