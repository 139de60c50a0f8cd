#pragma once
// Byte counts in messages. A message that compares a need with a limit must never show two equal figures for
// different counts ("needs 2.327 MiB ... the budget is 2.327 MiB"): compared_bytes adds the exact byte counts
// whenever the rounded figures would not show the difference.
#include <cstdint>
#include <string>
#include <utility>

namespace fwi {

/// "2.327 MiB" (4 significant digits; B, KiB, MiB, GiB, TiB).
std::string bytes_text(std::uint64_t bytes);
/// "2439680" -> "2,439,680 B".
std::string exact_bytes_text(std::uint64_t bytes);
/// Texts for a need and a limit: rounded, or "2.327 MiB (2,439,680 B)" for both when the rounded texts are
/// equal but the counts are not.
std::pair<std::string, std::string> compared_bytes(std::uint64_t need, std::uint64_t limit);
/// Parses "123", "4.5G", "512MiB", "2GB" into bytes (binary multiples). ConfigError naming the text
/// otherwise (and for counts that would not fit 63 bits).
std::uint64_t parse_bytes(const std::string& text);

} // namespace fwi
