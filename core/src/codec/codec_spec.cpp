// make_codec(): parses "name[:parameter]" specs, validates the parameter and builds the codec.
#include "codec/codec_factories.hpp"
#include "fwi/codec.hpp"
#include "fwi/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <zstd.h>

namespace fwi {
namespace detail {

std::string format_number(double value) {
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

} // namespace detail

namespace {

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
    throw ConfigError("compression spec '" + spec + "': " + why);
}

template <typename T> std::optional<T> parse_whole(const std::string& text) {
    T value{};
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    if (text.empty() || result.ec != std::errc() || result.ptr != end) return std::nullopt;
    return value;
}

int parse_level(const std::string& spec, const std::optional<std::string>& param, int fallback, int low,
                int high) {
    if (!param) return fallback;
    const auto level = parse_whole<int>(*param);
    if (!level) bad_spec(spec, "level '" + *param + "' is not an integer");
    if (*level < low || *level > high)
        bad_spec(spec,
                 "level " + *param + " is outside " + std::to_string(low) + ".." + std::to_string(high));
    return *level;
}

double parse_positive(const std::string& spec, const std::optional<std::string>& param, const char* what,
                      double high) {
    if (!param) bad_spec(spec, std::string("needs a ") + what + " (e.g. '" + spec + ":" + "1e-4')");
    const auto value = parse_whole<double>(*param);
    if (!value) bad_spec(spec, std::string(what) + " '" + *param + "' is not a number");
    if (!std::isfinite(*value) || *value <= 0 || *value > high)
        bad_spec(spec, std::string(what) + " " + *param + " must be finite and > 0" +
                           (std::isfinite(high) ? " and <= " + detail::format_number(high) : std::string()));
    return *value;
}

void no_param(const std::string& spec, const std::optional<std::string>& param) {
    if (param) bad_spec(spec, "takes no parameter");
}

} // namespace

std::unique_ptr<Codec> make_codec(const std::string& spec) {
    using namespace detail;
    const auto colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    std::optional<std::string> param;
    if (colon != std::string::npos) param = spec.substr(colon + 1);

    if (name == "none") {
        no_param(spec, param);
        return make_none_codec();
    }
    if (name == "lz4") {
        no_param(spec, param);
        return make_lz4_codec();
    }
    if (name == "zfp-reversible") {
        no_param(spec, param);
        return make_zfp_codec(ZfpMode::Reversible, 0);
    }
    if (name == "zstd")
        return make_zstd_codec(parse_level(spec, param, 3, ZSTD_minCLevel(), ZSTD_maxCLevel()));
    if (name == "blosc") return make_blosc_codec(parse_level(spec, param, 5, 0, 9));
    if (name == "zfp-accuracy")
        return make_zfp_codec(ZfpMode::Accuracy, parse_positive(spec, param, "tolerance", HUGE_VAL));
    if (name == "zfp-rate")
        return make_zfp_codec(ZfpMode::Rate, parse_positive(spec, param, "rate in bits", 64));
    if (name == "zfp-precision") {
        if (!param) bad_spec(spec, "needs a precision in bits (e.g. 'zfp-precision:16')");
        return make_zfp_codec(ZfpMode::Precision, parse_level(spec, param, 0, 1, 64));
    }
    bad_spec(spec, "unknown codec (expected none, zstd[:LEVEL], lz4, blosc[:LEVEL], zfp-accuracy:TOL, "
                   "zfp-precision:BITS, zfp-rate:BITS or zfp-reversible)");
}

double guaranteed_compression_ratio(const std::string& spec) {
    const std::string prefix = "zfp-rate:";
    if (spec.rfind(prefix, 0) != 0) return 1.0;
    const double bits = std::stod(spec.substr(prefix.size()));
    return bits > 0 ? std::max(1.0, 32.0 / bits) : 1.0;
}

} // namespace fwi
