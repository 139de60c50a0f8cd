// Inversion pictures: model panels and history charts are written as PNGs of the stated size; bad input is
// refused.
#include "fwi/error.hpp"
#include "fwi/inversion_report.hpp"
#include "test_setups.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <fstream>

using namespace fwi;

namespace {

/// Width and height from a PNG's IHDR chunk (after checking the signature).
std::pair<int, int> png_size(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::vector<unsigned char> b(24);
    f.read(reinterpret_cast<char*>(b.data()), 24);
    const unsigned char signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (!f || std::memcmp(b.data(), signature, 8) != 0 || std::memcmp(b.data() + 12, "IHDR", 4) != 0)
        return {-1, -1};
    auto u32 = [&](int o) {
        return int(b[std::size_t(o)]) << 24 | int(b[std::size_t(o + 1)]) << 16 |
               int(b[std::size_t(o + 2)]) << 8 | int(b[std::size_t(o + 3)]);
    };
    return {u32(16), u32(20)};
}

std::vector<IterationRecord> history(bool with_error) {
    std::vector<IterationRecord> h;
    for (int i = 0; i <= 9; ++i) {
        IterationRecord r;
        r.iteration = i;
        r.stage = i < 5 ? 0 : 1;
        r.freq_hz = i < 5 ? 4.0 : 0.0;
        r.misfit = 100.0 * std::pow(0.6, i) * (i < 5 ? 1 : 30);
        r.model_error = with_error ? 0.1 - 0.005 * i : std::nan("");
        h.push_back(r);
    }
    return h;
}

} // namespace

class TestInversionReport : public QObject {
    Q_OBJECT
  private slots:
    void model_panels() {
        QTemporaryDir dir;
        const Model a = test::constant_model(30, 50, 10, 2000), b = test::blob_model(30, 50, 10);
        const std::string path = dir.filePath("models.png").toStdString();
        write_model_panels_png(path, {{"START", a}, {"RESULT", b}, {"TRUE", b}}, 1500, 3000, 2);
        // 3 panels of 100 x 60 pixels, 16 px gaps, a 24 px title row and a 60 px colour bar row.
        QCOMPARE(png_size(path), std::make_pair(3 * 100 + 4 * 16, 24 + 60 + 60 + 2 * 16));
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_model_panels_png(path, {}, 1500, 3000));
        QVERIFY_THROWS_EXCEPTION(
            ConfigError, write_model_panels_png(
                             path, {{"A", a}, {"B", test::constant_model(30, 51, 10, 2000)}}, 1500, 3000));
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_model_panels_png(path, {{"A", a}}, 3000, 1500));
        QVERIFY_THROWS_EXCEPTION(ResourceError,
                                 write_model_panels_png("/nonexistent/dir/m.png", {{"A", a}}, 1500, 3000));
    }

    void history_charts() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("history.png").toStdString();
        write_history_png(path, history(true));
        QCOMPARE(png_size(path), std::make_pair(960, 660)); // misfit and model-error charts
        write_history_png(path, history(false));
        QCOMPARE(png_size(path), std::make_pair(960, 320)); // no true model: the misfit chart only
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_history_png(path, {}));
        QVERIFY_THROWS_EXCEPTION(ResourceError, write_history_png("/nonexistent/dir/h.png", history(true)));
    }
};

QTEST_APPLESS_MAIN(TestInversionReport)
#include "tst_inversion_report.moc"
