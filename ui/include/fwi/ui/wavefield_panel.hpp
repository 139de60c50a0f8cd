#pragma once
// The Wavefield dock: the live wavefield drawn over the model the run propagates in (greyed), a check box for
// the model underneath, a slider for the wavefield's opacity, and the movie export of the last run's frames.
#include "fwi/model.hpp"
#include "fwi/ui/job_runner.hpp"
#include "fwi/ui/movie_export.hpp"

#include <QWidget>

class QCheckBox;
class QSlider;

namespace fwi::ui {

class ImageView;

class WavefieldPanel : public QWidget {
    Q_OBJECT
  public:
    explicit WavefieldPanel(QWidget* parent = nullptr);
    ImageView* view() const;
    QSlider* opacity_slider() const;
    QCheckBox* underlay_box() const;
    /// The model drawn underneath (when the check box is on).
    void set_model(const Model& model);

    /// The current run's forward wavefield frames, for the movie (a new run calls clear_frames). At most
    /// max_frames are kept: beyond that every other one is dropped, so a long run keeps its whole duration.
    void clear_frames();
    void record_frame(FieldFramePtr frame);
    std::size_t frame_count() const;
    static constexpr std::size_t max_frames = 400;
    /// Writes the recorded frames (PNG, and MP4 where ffmpeg is installed) into `dir`.
    MovieResult save_movie(const QString& dir);

  private:
    void apply_underlay();
    ImageView* view_ = nullptr;
    QCheckBox* underlay_ = nullptr;
    QSlider* opacity_ = nullptr;
    Model model_;
    std::vector<FieldFramePtr> frames_;
    std::int64_t keep_every_ = 1, seen_ = 0;
};

} // namespace fwi::ui
