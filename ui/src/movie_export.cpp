#include "fwi/ui/movie_export.hpp"

#include "fwi/ui/image_view.hpp"

#include "fwi/error.hpp"
#include "fwi/vti_export.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QStandardPaths>

namespace fwi::ui {

MovieResult export_movie(ImageView* view, const std::vector<FieldFramePtr>& frames, double dz, double dx,
                         const QString& dir, const std::function<QString(const FieldFrame&)>& title,
                         int fps) {
    MovieResult r;
    if (frames.empty()) {
        r.error =
            QCoreApplication::translate("movie", "No wavefield frames recorded: run a forward model first.");
        return r;
    }
    if (!QDir().mkpath(dir)) {
        r.error = QCoreApplication::translate("movie", "Cannot create the folder %1").arg(dir);
        return r;
    }
    const QDir out(dir);
    std::vector<PvdEntry> series;
    for (const FieldFramePtr& f : frames) {
        view->set_image(f->values, f->rows, f->cols, dz, dx);
        view->set_titles("x (m)", "z (m)", title(*f));
        const QString path =
            out.filePath(QString("frame_%1.png").arg(r.frames_written + 1, 4, 10, QChar('0')));
        if (!view->save_png(path)) {
            r.error = QCoreApplication::translate("movie", "Cannot write %1").arg(path);
            return r;
        }
        // The same frame for ParaView: the field itself, a .vti per frame in one .pvd series (time = inner
        // step).
        const QString vti =
            out.filePath(QString("wavefield_%1.vti").arg(r.frames_written + 1, 4, 10, QChar('0')));
        try {
            write_vti(vti.toStdString(), Grid(f->rows, f->cols, dz, dx),
                      {{"pressure", {f->values.data(), f->rows, f->cols}}});
        } catch (const Error& e) {
            r.error = QString::fromUtf8(e.what());
            return r;
        }
        series.push_back({double(f->step), vti.toStdString()});
        ++r.frames_written;
    }
    try {
        write_pvd(out.filePath("wavefield.pvd").toStdString(), series);
    } catch (const Error& e) {
        r.error = QString::fromUtf8(e.what());
        return r;
    }
    const QString ffmpeg = QStandardPaths::findExecutable("ffmpeg");
    if (ffmpeg.isEmpty()) {
        r.error = QCoreApplication::translate("movie", "ffmpeg is not installed: wrote the PNG frames only "
                                                       "(apt install ffmpeg for an MP4)");
        return r;
    }
    const QString mp4 = out.filePath("wavefield.mp4");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    // Even width and height: yuv420p needs them.
    p.start(ffmpeg, {"-y", "-loglevel", "error", "-framerate", QString::number(fps), "-i",
                     out.filePath("frame_%04d.png"), "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v",
                     "libx264", "-pix_fmt", "yuv420p", mp4});
    if (!p.waitForFinished(300'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        r.error = QCoreApplication::translate("movie", "ffmpeg failed: %1")
                      .arg(QString::fromLocal8Bit(p.readAll()).trimmed().left(400));
        return r;
    }
    r.mp4 = mp4;
    return r;
}

} // namespace fwi::ui
