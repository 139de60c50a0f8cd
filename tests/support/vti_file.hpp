#pragma once
// Reads back what fwi::write_vti writes (raw appended Float32 arrays with UInt64 headers), for tests that
// check exported values without VTK. tst_vti_export checks the same files with VTK's own reader.
#include <QByteArray>
#include <QFile>
#include <QRegularExpression>
#include <QString>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace fwi::test {

struct VtiFile {
    QString whole_extent, spacing;
    std::map<std::string, std::vector<float>> arrays; ///< by name, in file order of offsets
};

inline VtiFile read_vti_file(const QString& path) {
    VtiFile v;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return v;
    const QByteArray bytes = f.readAll();
    const qsizetype data_mark = bytes.indexOf("<AppendedData encoding=\"raw\">");
    if (data_mark < 0) return v;
    const QString head = QString::fromUtf8(bytes.left(data_mark));
    v.whole_extent = QRegularExpression("WholeExtent=\"([^\"]*)\"").match(head).captured(1);
    v.spacing = QRegularExpression("Spacing=\"([^\"]*)\"").match(head).captured(1);
    const qsizetype start = bytes.indexOf('_', data_mark) + 1;
    static const QRegularExpression array_re("Name=\"([^\"]+)\".*offset=\"(\\d+)\"");
    for (auto it = array_re.globalMatch(head); it.hasNext();) {
        const auto m = it.next();
        const qsizetype at = start + m.captured(2).toLongLong();
        std::uint64_t n = 0;
        if (at + qsizetype(sizeof n) > bytes.size()) continue;
        std::memcpy(&n, bytes.constData() + at, sizeof n);
        if (at + qsizetype(sizeof n + n) > bytes.size()) continue;
        std::vector<float> values(n / sizeof(float));
        std::memcpy(values.data(), bytes.constData() + at + sizeof n, n);
        v.arrays[m.captured(1).toStdString()] = std::move(values);
    }
    return v;
}

} // namespace fwi::test
