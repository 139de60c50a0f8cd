#pragma once
// One exception root for the whole engine. Messages name the file, field and value at fault.
// Catch-all handlers live only in main() and where the UI starts a job.
#include <stdexcept>
#include <string>

namespace fwi {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};
/// Malformed or truncated files, wrong shapes, unknown formats.
class FormatError : public Error {
  public:
    using Error::Error;
};
/// Impossible settings: bad velocities, points outside the model, CFL-impossible or absurd durations.
class ConfigError : public Error {
  public:
    using Error::Error;
};
/// Out of memory budget, disk full, unwritable paths, no device.
class ResourceError : public Error {
  public:
    using Error::Error;
};
/// A job was cancelled by the user; not a failure.
class Cancelled : public Error {
  public:
    Cancelled() : Error("cancelled") {}
};

} // namespace fwi
