#include "fwi/ui/wavefield_panel.hpp"

#include "fwi/ui/image_view.hpp"
#include "fwi/ui/messages.hpp"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

namespace fwi::ui {

WavefieldPanel::WavefieldPanel(QWidget* parent) : QWidget(parent) {
    view_ = new ImageView(this);
    view_->setObjectName("wavefield_view");
    view_->set_colormap(Colormap::Seismic);
    view_->set_range_mode(RangeMode::Symmetric);
    view_->set_titles("x (m)", "z (m)", tr("wavefield (a.u.)"));
    underlay_ = new QCheckBox(tr("Model underneath"), this);
    underlay_->setObjectName("wavefield_underlay");
    underlay_->setChecked(true);
    underlay_->setToolTip(tr("Draw the wavefield over the model it propagates in (grey: dark = slow)"));
    opacity_ = new QSlider(Qt::Horizontal, this);
    opacity_->setObjectName("wavefield_opacity");
    opacity_->setRange(0, 100);
    opacity_->setValue(int(view_->image_opacity() * 100 + 0.5));
    opacity_->setToolTip(tr("Opacity of the wavefield over the model"));
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(6, 2, 6, 2);
    controls->addWidget(underlay_);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Opacity"), this));
    controls->addWidget(opacity_, 1);
    auto* movie = new QPushButton(tr("Save movie…"), this);
    movie->setObjectName("wavefield_movie");
    movie->setToolTip(tr("The last run's wavefield as PNG frames, and an MP4 where ffmpeg is installed"));
    controls->addWidget(movie);
    connect(movie, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the movie's frames"));
        if (dir.isEmpty()) return;
        const MovieResult r = save_movie(dir);
        const QString done = tr("%n frame(s) written to %1", "", r.frames_written).arg(dir);
        if (!r.mp4.isEmpty())
            show_info(this, tr("Save movie"), done + "\n" + tr("Movie: %1").arg(r.mp4));
        else
            show_error(this, tr("Save movie"), (r.frames_written > 0 ? done + "\n" : QString()) + r.error);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);
    connect(opacity_, &QSlider::valueChanged, this, [this](int v) { view_->set_image_opacity(v / 100.0); });
    connect(underlay_, &QCheckBox::toggled, this, [this] {
        apply_underlay();
        opacity_->setEnabled(underlay_->isChecked());
    });
}

ImageView* WavefieldPanel::view() const {
    return view_;
}
QSlider* WavefieldPanel::opacity_slider() const {
    return opacity_;
}
QCheckBox* WavefieldPanel::underlay_box() const {
    return underlay_;
}

void WavefieldPanel::set_model(const Model& model) {
    model_ = model;
    apply_underlay();
}

void WavefieldPanel::clear_frames() {
    frames_.clear();
    keep_every_ = 1;
    seen_ = 0;
}

void WavefieldPanel::record_frame(FieldFramePtr frame) {
    if (!frame || frame->kind != FieldKind::ForwardWavefield) return;
    if (seen_++ % keep_every_ != 0) return;
    frames_.push_back(std::move(frame));
    if (frames_.size() < max_frames) return;
    std::vector<FieldFramePtr> half;
    for (std::size_t i = 0; i < frames_.size(); i += 2)
        half.push_back(frames_[i]);
    frames_ = std::move(half);
    keep_every_ *= 2;
}

std::size_t WavefieldPanel::frame_count() const {
    return frames_.size();
}

MovieResult WavefieldPanel::save_movie(const QString& dir) {
    const Grid& g = model_.grid;
    const bool model_shaped = !frames_.empty() && frames_[0]->rows == g.nz() && frames_[0]->cols == g.nx();
    return export_movie(view_, frames_, model_shaped ? g.dz() : 1.0, model_shaped ? g.dx() : 1.0, dir,
                        [](const FieldFrame& f) { return tr("step %1 (a.u.)").arg(f.step); });
}

void WavefieldPanel::apply_underlay() {
    const Grid& g = model_.grid;
    if (underlay_->isChecked() && g.cells() > 0 && std::int64_t(model_.vp_mps.size()) == g.cells())
        view_->set_underlay(model_.vp_mps, g.nz(), g.nx(), g.dz(), g.dx());
    else
        view_->set_underlay({}, 0, 0, 1, 1);
}

} // namespace fwi::ui
