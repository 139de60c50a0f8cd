#include "fwi/ui/movie_export.hpp"

#include "fwi/ui/image_view.hpp"

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
    for (const FieldFramePtr& f : frames) {
        view->set_image(f->values, f->rows, f->cols, dz, dx);
        view->set_titles("x (m)", "z (m)", title(*f));
        const QString path =
            out.filePath(QString("frame_%1.png").arg(r.frames_written + 1, 4, 10, QChar('0')));
        if (!view->save_png(path)) {
            r.error = QCoreApplication::translate("movie", "Cannot write %1").arg(path);
            return r;
        }
        ++r.frames_written;
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
