#include "fwi/ui/wavefield_panel.hpp"

#include "fwi/ui/image_view.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

namespace fwi::ui {

WavefieldPanel::WavefieldPanel(QWidget* parent) : QWidget(parent) {
    view_ = new ImageView(this);
    view_->setObjectName("wavefield_view");
    view_->set_colormap(Colormap::Seismic);
    view_->set_range_mode(RangeMode::Symmetric);
    view_->set_titles("x (m)", "z (m)", tr("wavefield"));
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

void WavefieldPanel::apply_underlay() {
    const Grid2D& g = model_.grid;
    if (underlay_->isChecked() && g.cells() > 0 && std::int64_t(model_.vp_mps.size()) == g.cells())
        view_->set_underlay(model_.vp_mps, g.nz(), g.nx(), g.dz(), g.dx());
    else
        view_->set_underlay({}, 0, 0, 1, 1);
}

} // namespace fwi::ui
