// The wavefield movie: the frames a run recorded become numbered PNGs that show the wavefield moving, and,
// where ffmpeg is on PATH, an MP4 made by calling it on those frames. The real ffmpeg is not a build
// dependency: a stand-in script on PATH checks the call (arguments, the frames present) and writes the file;
// without any ffmpeg the export says so and keeps the PNGs.
#include "fwi/ui/image_view.hpp"
#include "fwi/ui/movie_export.hpp"
#include "fwi/ui/wavefield_panel.hpp"
#include "ui_test_main.hpp"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cmath>

using namespace fwi;
using namespace fwi::ui;

namespace {
constexpr int nz = 40, nx = 80;

/// A ring of radius r cells around the centre: a wave front.
FieldFramePtr ring(double r, std::int64_t step) {
    auto f = std::make_shared<FieldFrame>();
    f->kind = FieldKind::ForwardWavefield;
    f->step = step;
    f->rows = nz;
    f->cols = nx;
    f->values.resize(std::size_t(nz * nx));
    for (int iz = 0; iz < nz; ++iz)
        for (int ix = 0; ix < nx; ++ix) {
            const double d = std::hypot(iz - nz / 2.0, ix - nx / 2.0) - r;
            f->values[std::size_t(iz * nx + ix)] = float(std::exp(-d * d / 4) * (d < 0 ? -1 : 1));
        }
    return f;
}

Model flat() {
    Model m;
    m.grid = Grid(nz, nx, 10, 10);
    m.vp_mps.assign(std::size_t(nz * nx), 2000.f);
    return m;
}
} // namespace

class TestMovieExport : public QObject {
    Q_OBJECT
  private slots:
    void frames_then_mp4_through_ffmpeg();
    void without_ffmpeg_keeps_the_frames();
    void long_runs_keep_a_bounded_number_of_frames();

  private:
    static WavefieldPanel* make_panel();
};

WavefieldPanel* TestMovieExport::make_panel() {
    auto* panel = new WavefieldPanel;
    panel->resize(600, 400);
    panel->show();
    panel->set_model(flat());
    for (int i = 0; i < 3; ++i)
        panel->record_frame(ring(4 + 6 * i, 100 * (i + 1)));
    panel->record_frame(
        std::make_shared<FieldFrame>(FieldFrame{FieldKind::Gradient, 0, 1, 1, {0.f}})); // not a frame
    return panel;
}

void TestMovieExport::frames_then_mp4_through_ffmpeg() {
    QTemporaryDir dir;
    std::unique_ptr<WavefieldPanel> panel(make_panel());
    QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
    QCOMPARE(panel->frame_count(), std::size_t(3));
    // A stand-in ffmpeg: writes the last argument when it is given the frame pattern and the frames exist.
    const QString bin = dir.filePath("bin");
    QDir().mkpath(bin);
    QFile fake(bin + "/ffmpeg");
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write("#!/bin/sh\n"
               "for a; do last=$a; done\n"
               "case \"$*\" in *-framerate\\ 12*-i\\ */frame_%04d.png*yuv420p*) ;; *) echo \"bad args: $*\"; "
               "exit 3;; esac\n"
               "[ -f \"$(dirname \"$last\")/frame_0003.png\" ] || { echo missing frames; exit 4; }\n"
               "echo movie > \"$last\"\n");
    fake.close();
    fake.setPermissions(fake.permissions() | QFileDevice::ExeOwner);
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", bin.toLocal8Bit() + ":" + path);
    const MovieResult r = panel->save_movie(dir.filePath("movie"));
    qputenv("PATH", path);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.frames_written, 3);
    QCOMPARE(r.mp4, dir.filePath("movie/wavefield.mp4"));
    QVERIFY(QFile::exists(r.mp4));
    // The frames show the front moving: each differs from the last in many pixels.
    QImage previous;
    for (int i = 1; i <= 3; ++i) {
        const QImage img(dir.filePath(QString("movie/frame_%1.png").arg(i, 4, 10, QChar('0'))));
        QVERIFY(!img.isNull());
        if (!previous.isNull()) QVERIFY(test::differing_pixels(previous, img) > 500);
        previous = img;
    }
}

void TestMovieExport::without_ffmpeg_keeps_the_frames() {
    QTemporaryDir dir;
    std::unique_ptr<WavefieldPanel> panel(make_panel());
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", dir.path().toLocal8Bit()); // no ffmpeg here
    const MovieResult r = panel->save_movie(dir.filePath("movie"));
    qputenv("PATH", path);
    QCOMPARE(r.frames_written, 3);
    QVERIFY(r.mp4.isEmpty());
    QVERIFY2(r.error.contains("ffmpeg is not installed"), qPrintable(r.error));
    QVERIFY(QFile::exists(dir.filePath("movie/frame_0003.png")));
    QVERIFY(!QFile::exists(dir.filePath("movie/frame_0004.png")));
    // The fields themselves for ParaView: one .vti per frame, listed in order in the .pvd series.
    QFile pvd(dir.filePath("movie/wavefield.pvd"));
    QVERIFY(pvd.open(QIODevice::ReadOnly));
    const QByteArray series = pvd.readAll();
    for (int n = 1; n <= 3; ++n) {
        const QString vti = QString("wavefield_%1.vti").arg(n, 4, 10, QChar('0'));
        QVERIFY2(series.contains(("file=\"" + vti + "\"").toUtf8()), qPrintable(vti));
        QVERIFY(QFileInfo(dir.filePath("movie/" + vti)).size() > 1000);
    }
    QVERIFY(!series.contains("wavefield_0004.vti"));
}

void TestMovieExport::long_runs_keep_a_bounded_number_of_frames() {
    WavefieldPanel panel;
    const FieldFramePtr f = ring(5, 0);
    for (std::size_t i = 0; i < 5 * WavefieldPanel::max_frames; ++i)
        panel.record_frame(f);
    QVERIFY(panel.frame_count() < WavefieldPanel::max_frames);
    QVERIFY(panel.frame_count() >= WavefieldPanel::max_frames / 2);
}

FWI_UI_TEST_MAIN(TestMovieExport)
#include "tst_movie_export.moc"
