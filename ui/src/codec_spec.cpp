#include "codec_spec.hpp"

#include "fwi/codec.hpp"
#include "fwi/error.hpp"

namespace fwi::ui {

std::string codec_spec_error(const std::string& spec) {
    try {
        make_codec(spec); // cheap: builds the codec object, compresses nothing
    } catch (const ConfigError& e) {
        return e.what();
    }
    return {};
}

} // namespace fwi::ui
