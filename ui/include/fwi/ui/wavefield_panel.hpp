#pragma once
// The Wavefield dock: the live wavefield drawn over the model the run propagates in (greyed), a check box for
// the model underneath, a slider for the wavefield's opacity, and the movie export of the last run's frames.
#include "fwi/model.hpp"

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

  private:
    void apply_underlay();
    ImageView* view_ = nullptr;
    QCheckBox* underlay_ = nullptr;
    QSlider* opacity_ = nullptr;
    Model model_;
};

} // namespace fwi::ui
