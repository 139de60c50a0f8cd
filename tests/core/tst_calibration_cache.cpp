// The calibration cache: a stored calibration comes back exactly for its own key only, and a corrupt, stale
// or disabled cache is a miss (never an error, never a wrong plan).
#include "engine/calibration_cache.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace fwi;

namespace {

Calibration sample() {
    Calibration c;
    c.steps.forward_step_s = 1.25e-3;
    c.steps.adjoint_step_s = 2.5e-3;
    c.steps.snapshot_write_s = 1e-4;
    c.steps.first_touch_s_per_byte = 3e-11;
    c.steps.state_bytes = 123456;
    c.steps.snapshot_bytes = 4096;
    c.steps.compression_ratio = 1.5;
    c.steps.compress_s = 7e-3;
    c.steps.decompress_s = 5e-3;
    c.steps.state_compress_s = 9e-3;
    c.steps.state_decompress_s = 6e-3;
    c.steps.tiers = {TierCosts{0, 0, 1e-10, 2e-10}, TierCosts{2e-4, 3e-4, 1e-9, 1e-9}};
    c.steps.snapshots_in_place = true;
    c.codec = {"zstd", 4.5, 7e-3, 5e-3, 9e-3, 6e-3};
    return c;
}

CalibrationKey key() {
    return {"cpu", 540, 1040, 8, 20, "zstd", 2, 1, 200, 3003};
}

std::filesystem::path only_file(const QTemporaryDir& dir) {
    std::filesystem::path found;
    for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString()))
        found = e.path();
    return found;
}

} // namespace

class TestCalibrationCache : public QObject {
    Q_OBJECT
  private slots:
    void init() {
        QVERIFY(dir_.isValid());
        for (const auto& e : std::filesystem::directory_iterator(dir_.path().toStdString()))
            std::filesystem::remove_all(e.path());
        qputenv("FWI_CALIBRATION_CACHE", dir_.path().toUtf8());
    }
    void cleanupTestCase() { qputenv("FWI_CALIBRATION_CACHE", "off"); }

    void a_stored_calibration_comes_back_exactly() {
        const Calibration c = sample();
        QVERIFY(!load_cached_calibration(key()));
        store_cached_calibration(key(), c);
        const auto back = load_cached_calibration(key());
        QVERIFY(back.has_value());
        QCOMPARE(back->steps.forward_step_s, c.steps.forward_step_s);
        QCOMPARE(back->steps.adjoint_step_s, c.steps.adjoint_step_s);
        QCOMPARE(back->steps.first_touch_s_per_byte, c.steps.first_touch_s_per_byte);
        QCOMPARE(back->steps.state_bytes, c.steps.state_bytes);
        QCOMPARE(back->steps.snapshot_bytes, c.steps.snapshot_bytes);
        QCOMPARE(back->steps.compression_ratio, c.steps.compression_ratio);
        QVERIFY(back->steps.tiers == c.steps.tiers);
        QCOMPARE(back->steps.snapshots_in_place, true);
        QCOMPARE(back->codec.codec, std::string("zstd"));
        QCOMPARE(back->codec.ratio, 4.5);
        QCOMPARE(back->steps.state_compress_s, 9e-3);
        QCOMPARE(back->steps.state_decompress_s, 6e-3);
        QCOMPARE(back->codec.compress_s, 7e-3);
        QCOMPARE(back->codec.state_compress_s, 9e-3);
        QCOMPARE(back->codec.state_decompress_s, 6e-3);
    }

    void another_grid_codec_thread_count_acquisition_or_top_is_a_miss() {
        store_cached_calibration(key(), sample());
        CalibrationKey k = key();
        k.nx = 1041;
        QVERIFY(!load_cached_calibration(k));
        k = key();
        k.codec = "lz4";
        QVERIFY(!load_cached_calibration(k));
        k = key();
        k.threads = 1;
        QVERIFY(!load_cached_calibration(k));
        k = key();
        k.receivers = 201; // another acquisition or duration: the probe's shot and the shot's set-up differ
        QVERIFY(!load_cached_calibration(k));
        k = key();
        k.inner_steps = 3004;
        QVERIFY(!load_cached_calibration(k));
        k = key();
        k.free_surface = true; // its steps skip the top layer
        QVERIFY(!load_cached_calibration(k));
        QVERIFY(load_cached_calibration(key()));
    }

    void corrupt_stale_or_invalid_files_are_misses() {
        store_cached_calibration(key(), sample());
        const std::filesystem::path file = only_file(dir_);
        QVERIFY(!file.empty());
        std::ifstream in(file);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        in.close();
        const auto rewrite = [&](const std::string& t) { std::ofstream(file, std::ios::trunc) << t; };

        rewrite(text.substr(0, text.size() / 2)); // truncated JSON
        QVERIFY(!load_cached_calibration(key()));
        rewrite("\x01\x02 not json at all");
        QVERIFY(!load_cached_calibration(key()));
        // Two days old.
        auto j = nlohmann::json::parse(text);
        j["measured_at"] = j["measured_at"].get<double>() - 2 * 24 * 3600.0;
        rewrite(j.dump());
        QVERIFY(!load_cached_calibration(key()));
        // A negative step time fails StepCosts::validate: measured again rather than trusted.
        j = nlohmann::json::parse(text);
        j["calibration"]["forward_step_s"] = -1.0;
        rewrite(j.dump());
        QVERIFY(!load_cached_calibration(key()));
        rewrite(text);
        QVERIFY(load_cached_calibration(key()));
    }

    void off_disables_reads_and_writes() {
        qputenv("FWI_CALIBRATION_CACHE", "off");
        QVERIFY(calibration_cache_directory().empty());
        store_cached_calibration(key(), sample());
        QVERIFY(!load_cached_calibration(key()));
        QVERIFY(only_file(dir_).empty());
    }

  private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCalibrationCache)
#include "tst_calibration_cache.moc"
