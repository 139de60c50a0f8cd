#pragma once
// The wavefield movie: each recorded frame drawn in an ImageView (with its axes, colour bar and the model
// underneath, as on screen) and written as DIR/frame_0001.png, ...; the fields themselves for ParaView as
// DIR/wavefield_0001.vti, ... listed in DIR/wavefield.pvd (time = inner step); then, where `ffmpeg` is on
// PATH, DIR/wavefield.mp4 (H.264, yuv420p so that every player opens it). Without ffmpeg the PNG frames are
// the result and the report says so.
#include "fwi/ui/job_runner.hpp"

#include <QString>

#include <functional>
#include <vector>

namespace fwi::ui {

class ImageView;

struct MovieResult {
    int frames_written = 0;
    QString mp4;   ///< the movie's path, empty when none was made
    QString error; ///< why something failed or was skipped (empty: all done)
};

/// Draws every frame in `view` (spacing dz, dx), titled by `title(frame)`, and writes the PNGs then the MP4
/// at `fps` frames per second. Leaves the view showing the last frame.
MovieResult export_movie(ImageView* view, const std::vector<FieldFramePtr>& frames, double dz, double dx,
                         const QString& dir, const std::function<QString(const FieldFrame&)>& title,
                         int fps = 12);

} // namespace fwi::ui
