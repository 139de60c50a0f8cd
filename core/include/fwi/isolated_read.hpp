#pragma once
// Untrusted HDF5 files read in a child process first. libhdf5 1.10.8 itself crashes or hangs on some forged
// files (use-after-free under H5Aexists, a NULL memcpy under H5Lexists, docs/reliability.md); no check before
// the calls can avoid that. With isolation on, load_project, read_model_hdf5 (so load_model on .h5) and
// read_gathers_hdf5 first run the same read in a fork()ed child, which throws the result away. A child that
// dies by a signal, exits non-zero or runs past the time limit makes the reader throw FormatError naming the
// file; a child that finished (it read the file, or refused it with an exception, which the real read then
// throws again) lets the real read run in the calling process. POSIX only, no Qt. The file's structure is
// read twice, its bulk data decoded once: the child records what each dataset read decoded, and the real
// read copies it from there (ReadHandOver; Linux; elsewhere the file is read twice). A file a child has read
// safely is remembered (IsolatedReadSettings::checked_files) and read directly while it stays unchanged.
// docs/reliability.md gives the cost.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace fwi {

struct IsolatedReadSettings {
    /// Off by default. `fwi` switches it on; under mpirun it checks its input files before MPI_Init instead,
    /// as a fork after MPI_Init is not safe on every network. The GUI checks projects in its own child
    /// process
    /// (`fwi-studio --check-project`) and never forks its threads.
    bool enabled = false;
    /// Longest a child may read before the file counts as hanging the library; 0: 60 s + 1 s per 16 MiB.
    double timeout_s = 0;
    /// The child's SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL take their default action, so a crash ends it
    /// by the signal. false: it keeps the handlers it inherited (the fuzz harness keeps AddressSanitizer's,
    /// whose report says whether the crash was in libhdf5 or in our code).
    bool reset_crash_handlers = true;
    /// Runs in the child before the read (the fuzz harness: sanitizer death callback).
    void (*child_hook)() = nullptr;
    /// Where files a child read without crashing are remembered (runtime/checked_files.hpp): a file read
    /// again unchanged (device, inode, size, modification and change times), by the same reader and the same
    /// build of the program, is read directly. Empty (the default): nothing is remembered. `fwi` keeps the
    /// record in its cache directory (docs/reliability.md).
    std::string checked_files;
    /// Files changed less than this long ago are not remembered (the change time has the kernel clock's
    /// resolution: a write in the same tick as the last one would not show).
    double checked_files_min_age_s = 2;
};

/// Where `fwi` remembers the files read safely: $FWI_CHECKED_FILES ("off" or "0": nowhere, empty), else
/// checked-files in the user's cache directory ($XDG_CACHE_HOME/fwi-studio or ~/.cache/fwi-studio).
std::string default_checked_files();

/// Process-wide; set it once, before any reader runs (main, the fuzz harness).
void set_isolated_reads(const IsolatedReadSettings& settings);
const IsolatedReadSettings& isolated_reads();

/// What a reading child decoded, for the parent's read of the same file (runtime/read_hand_over.hpp): the
/// dataset values the child read, kept in a memory file until this object goes. Empty when the child recorded
/// nothing, when the file changed (device, inode, size or modification time) while the child read it, or
/// off Linux.
class ReadHandOver {
  public:
    struct Records; ///< the index of the memory file (read_hand_over.cpp)
    ReadHandOver();
    ReadHandOver(ReadHandOver&&) noexcept;
    ReadHandOver& operator=(ReadHandOver&&) noexcept;
    ~ReadHandOver();
    /// Bytes of dataset values recorded.
    std::uint64_t bytes() const;
    /// While it lives, the dataset reads on this thread copy the recorded values instead of decoding them
    /// (each record once, in the order the child read them; a read the child did not record, or of another
    /// size, reads the file).
    class Replay {
      public:
        explicit Replay(const ReadHandOver& records);
        ~Replay();
        Replay(const Replay&) = delete;
        Replay& operator=(const Replay&) = delete;

      private:
        Records* previous_;
    };
    /// The records in the memory file `fd`, which the result then owns (read_in_child).
    static ReadHandOver index(int fd);

  private:
    std::unique_ptr<Records> records_;
};

/// True when isolation is on and `path`, unchanged, was read by `reader` in a child of this build before
/// without crashing (IsolatedReadSettings::checked_files).
bool read_safely_before(const std::string& path, const std::string& reader);

/// Runs `read` in a fork()ed child (stderr to /dev/null, crash signals as the settings say) and waits for it.
/// `read` must run no OpenMP parallel region: the parent's OpenMP threads do not exist in the child. Throws
/// FormatError ("'x.fwi' is damaged: the HDF5 library crashed reading it (signal 11)") when the child died by
/// a signal, exited non-zero or timed out (then it is killed); ResourceError when no child can be started.
/// Returns normally otherwise, whatever `read` threw, with what the child's dataset reads decoded; then, when
/// `reader` names the read, the file did not change meanwhile and the read stayed inside it (no external
/// link or virtual dataset), it is remembered as read safely by `reader`. Call it only while no other thread
/// of this process is inside HDF5 (the child inherits the library's lock).
ReadHandOver read_in_child(const std::string& path, const std::function<void()>& read,
                           const std::string& reader = {});

/// `read()` in this process, after read_in_child(path, read, reader) when isolation is on (then replaying
/// what the child decoded), unless the file was read safely by `reader` before. `reader` names what `read`
/// reads of the file (which objects), so that a file checked by one reader is not trusted by another.
template <class Read>
auto read_isolated(const std::string& path, const std::string& reader, Read&& read) -> decltype(read()) {
    if (!isolated_reads().enabled || read_safely_before(path, reader)) return read();
    const ReadHandOver decoded = read_in_child(
        path, [&] { (void)read(); }, reader);
    const ReadHandOver::Replay replay(decoded);
    return read();
}

} // namespace fwi
