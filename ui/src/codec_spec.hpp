#pragma once
// Checks a compression spec as documented in fwi/codec.hpp, for the settings panel and the predictor.
// INTERIM: fwi::make_codec (branch store) is not merged yet; when it is, this becomes make_codec(spec) in a try.
#include <string>

namespace fwi::ui {

/// "" when `spec` is a valid codec spec, else the reason (naming the spec).
std::string codec_spec_error(const std::string& spec);

} // namespace fwi::ui
