#pragma once
// Shared by every fuzz target: the readers under test take a path, so each input is written to one scratch
// file per process (in /dev/shm when there is one: no disk traffic at tens of thousands of runs a second) and
// read back. A reader may refuse an input only with an fwi::Error (FormatError, ConfigError, ResourceError);
// anything else escaping (std::bad_alloc, std::length_error, ...) and every sanitizer report is a finding.
#include "fwi/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fwi::fuzz {

/// This process's scratch files: /dev/shm/fwi-fuzz-<pid><suffix>.
inline std::string scratch_path(pid_t pid, const std::string& suffix) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    return (dir / ("fwi-fuzz-" + std::to_string(pid) + suffix)).string();
}

/// Writes the input to this process's scratch file with the given extension (readers choose formats by it).
inline std::string write_input(const std::uint8_t* data, std::size_t size, const std::string& extension) {
    const std::string path = scratch_path(::getpid(), extension);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    return path;
}

/// Runs `read` on the input as a file; the reader's own errors are the expected way to refuse bad bytes.
template <class Read>
int run_reader(const std::uint8_t* data, std::size_t size, const std::string& extension, Read&& read) {
    const std::string path = write_input(data, size, extension);
    try {
        read(path);
    } catch (const fwi::Error&) {
    }
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return 0;
}

} // namespace fwi::fuzz
