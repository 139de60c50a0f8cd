#pragma once
// The settings panel's check of a compression spec: the engine's own parser (fwi::make_codec), so the GUI
// accepts exactly the specs a run accepts.
#include <string>

namespace fwi::ui {

/// "" when `spec` is a valid codec spec, else make_codec's ConfigError message (naming the spec).
std::string codec_spec_error(const std::string& spec);

} // namespace fwi::ui
