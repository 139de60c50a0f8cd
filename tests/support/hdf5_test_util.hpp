#pragma once
// Helpers for the HDF5 file tests (model files, projects): external HDF5 tools, byte-level file surgery,
// bit-exact comparisons and capturing stderr (to prove the HDF5 layer prints nothing).
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace fwi::test {

/// Runs an HDF5 command-line tool; false when the tool is not installed. Output (stdout + stderr) in
/// `output`.
inline bool run_tool(const QString& tool, const QStringList& arguments, int& exit_code, QByteArray& output) {
    const QString exe = QStandardPaths::findExecutable(tool);
    if (exe.isEmpty()) return false;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(exe, arguments);
    process.waitForFinished(30000);
    exit_code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    output = process.readAll();
    return true;
}

/// Floats with random bit patterns in [lo, hi) (not just round numbers), so that round trips prove
/// bit-exactness.
inline std::vector<float> random_floats(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> value(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v)
        x = value(generator);
    return v;
}

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

inline bool same_or_both_nan(double a, double b) {
    return a == b || (a != a && b != b);
}

inline QByteArray read_bytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline bool write_bytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

/// Captures what the process writes to stderr (fd 2) while alive; text() ends the capture and returns it.
class StderrCapture {
  public:
    StderrCapture() {
        std::fflush(stderr);
        file_ = std::tmpfile();
        saved_ = ::dup(2);
        if (file_ && saved_ >= 0) ::dup2(::fileno(file_), 2);
    }
    ~StderrCapture() {
        restore();
        if (file_) std::fclose(file_);
    }
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;
    std::string text() {
        restore();
        std::string out;
        if (!file_) return out;
        std::rewind(file_);
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0)
            out.append(buffer, n);
        return out;
    }

  private:
    void restore() {
        if (saved_ >= 0) {
            std::fflush(stderr);
            ::dup2(saved_, 2);
            ::close(saved_);
            saved_ = -1;
        }
    }
    std::FILE* file_ = nullptr;
    int saved_ = -1;
};

} // namespace fwi::test
