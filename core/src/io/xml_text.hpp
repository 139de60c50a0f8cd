#pragma once
// Text inside XML attributes and elements (.vti/.pvd exports, SVG pictures): the five characters XML
// reserves.
#include <string>

namespace fwi::detail {

inline std::string xml_escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace fwi::detail
