#include "codec_spec.hpp"

#include <cmath>
#include <cstdlib>

namespace fwi::ui {

std::string codec_spec_error(const std::string& spec) {
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    const bool has_param = colon != std::string::npos;
    const std::string param = has_param ? spec.substr(colon + 1) : "";
    char* end = nullptr;
    const double value = has_param ? std::strtod(param.c_str(), &end) : 0.0;
    const bool numeric = has_param && !param.empty() && end && *end == '\0' && std::isfinite(value);
    const std::string where = "compression '" + spec + "': ";
    if (kind == "none" || kind == "lz4" || kind == "zfp-reversible")
        return has_param ? where + kind + " takes no parameter" : "";
    if (kind == "zstd" || kind == "blosc") {
        if (!has_param) return "";
        return numeric && value == std::floor(value) && value >= 1 && value <= (kind == "zstd" ? 22 : 9)
                   ? ""
                   : where + "the level must be an integer from 1 to " + (kind == "zstd" ? "22" : "9");
    }
    if (kind == "zfp-accuracy")
        return numeric && value > 0 ? "" : where + "the tolerance must be a positive number (e.g. 1e-5)";
    if (kind == "zfp-precision" || kind == "zfp-rate")
        return numeric && value == std::floor(value) && value >= 1 && value <= 32
                   ? ""
                   : where + "the bits must be an integer from 1 to 32";
    return where + "unknown codec (none | zstd[:LEVEL] | lz4 | blosc[:LEVEL] | zfp-accuracy:TOL | "
                   "zfp-precision:BITS | zfp-rate:BITS | zfp-reversible)";
}

} // namespace fwi::ui
