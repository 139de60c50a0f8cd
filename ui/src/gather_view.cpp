#include "fwi/ui/gather_view.hpp"

#include "fwi/ui/image_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fwi::ui {
namespace {

/// Receivers across, time down: the transpose of the (receivers, samples) traces.
std::vector<float> time_down(const Gather& g) {
    const auto nr = std::int64_t(g.receivers.size());
    std::vector<float> img(std::size_t(nr * g.samples));
    for (std::int64_t r = 0; r < nr; ++r)
        for (std::int64_t t = 0; t < g.samples; ++t)
            img[std::size_t(t * nr + r)] = g.traces[std::size_t(r * g.samples + t)];
    return img;
}

double clip(const std::vector<float>& v) {
    std::vector<float> mags;
    const std::size_t stride = std::max<std::size_t>(1, v.size() / 65536);
    for (std::size_t i = 0; i < v.size(); i += stride)
        mags.push_back(std::abs(v[i]));
    if (mags.empty()) return 1;
    auto k = mags.begin() + std::ptrdiff_t(double(mags.size() - 1) * 0.98);
    std::nth_element(mags.begin(), k, mags.end());
    return *k > 0 ? double(*k) : 1.0;
}

void show_gather(ImageView* view, const std::vector<float>& img, const Gather& g, double c, bool colorbar) {
    const auto nr = std::int64_t(g.receivers.size());
    // Fill the panel: a sample is drawn dz display units tall so that the image takes the panel's shape; the
    // labels read seconds through the label scale. (The panels' margins as in ImageView's compact mode.)
    const double avail_w = std::max(view->width() - 48 - (colorbar ? 90 : 12), 40);
    const double avail_h = std::max(view->height() - 40 - 10, 40);
    const double dz = double(nr) / double(std::max<std::int64_t>(g.samples, 1)) * (avail_h / avail_w);
    view->set_image(img, g.samples, nr, dz, 1.0);
    view->set_label_scale(1.0, g.dt_s / dz);
    view->set_value_range(-c, c);
    view->set_colorbar_visible(colorbar);
}

} // namespace

GatherView::GatherView(QWidget* parent) : QWidget(parent) {
    shot_ = new QSpinBox(this);
    shot_->setRange(0, 0);
    shot_->setObjectName("gather_shot");
    info_ = new QLabel(this);
    info_->setWordWrap(true); // the scale statement is long: it must not widen the dock
    auto make = [this](const QString& title) {
        auto* v = new ImageView(this);
        v->set_colormap(Colormap::Seismic);
        v->set_titles(tr("receiver"), tr("t (s)"), title);
        v->set_compact(true);
        v->setMinimumWidth(200);
        connect(v, &ImageView::cursor_moved, this,
                [this, title](double r, double t, double value, bool inside) {
                    emit cursor_info(inside ? tr("%1: receiver %2, t = %3 s, amplitude %4")
                                                  .arg(title)
                                                  .arg(std::lround(r))
                                                  .arg(t, 0, 'f', 3)
                                                  .arg(value, 0, 'g', 4)
                                            : QString());
                });
        return v;
    };
    observed_view_ = make(tr("observed"));
    modelled_view_ = make(tr("modelled"));
    residual_view_ = make(tr("difference"));
    residual_view_->set_titles(tr("receiver"), tr("t (s)"), tr("amp. (a.u.)")); // the one colour bar
    // Each panel under its name (the colour bar, which would otherwise name it, is drawn only once).
    auto titled = [this](ImageView* view, const QString& title) {
        auto* panel = new QWidget(this);
        auto* label = new QLabel("<b>" + title + "</b>", panel);
        label->setAlignment(Qt::AlignCenter);
        auto* column = new QVBoxLayout(panel);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        column->addWidget(label);
        column->addWidget(view, 1);
        return panel;
    };
    // One colour range for all three: one colour bar, on the last panel.
    observed_view_->set_colorbar_visible(false);
    modelled_view_->set_colorbar_visible(false);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Shot"), this));
    top->addWidget(shot_);
    top->addWidget(info_, 1);
    auto* views = new QHBoxLayout;
    views->addWidget(titled(observed_view_, tr("Observed")));
    views->addWidget(titled(modelled_view_, tr("Modelled")));
    views->addWidget(titled(residual_view_, tr("Modelled − observed")));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(views, 1);
    connect(shot_, &QSpinBox::valueChanged, this, [this] { refresh(); });
}

void GatherView::set_gathers(std::vector<Gather> observed, std::vector<Gather> modelled) {
    observed_ = std::move(observed);
    modelled_ = std::move(modelled);
    const int shots = int(std::max(observed_.size(), modelled_.size()));
    shot_->setRange(0, std::max(shots - 1, 0));
    refresh();
}

void GatherView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    refresh();
}

void GatherView::set_shot(int shot) {
    shot_->setValue(shot);
}
int GatherView::shot() const {
    return shot_->value();
}
ImageView* GatherView::observed_view() const {
    return observed_view_;
}
ImageView* GatherView::modelled_view() const {
    return modelled_view_;
}
ImageView* GatherView::residual_view() const {
    return residual_view_;
}

void GatherView::refresh() {
    const auto s = std::size_t(shot_->value());
    const Gather* obs = s < observed_.size() ? &observed_[s] : nullptr;
    const Gather* mod = s < modelled_.size() ? &modelled_[s] : nullptr;
    std::vector<float> obs_img, mod_img;
    if (obs) obs_img = time_down(*obs);
    if (mod) mod_img = time_down(*mod);
    // One range for all panels, set by the observed data when there are some.
    const double c = obs ? clip(obs_img) : mod ? clip(mod_img) : 1.0;
    const bool comparable = obs && mod && obs_img.size() == mod_img.size();
    observed_view_->parentWidget()->setVisible(obs != nullptr); // the titled panel
    modelled_view_->parentWidget()->setVisible(mod != nullptr);
    residual_view_->parentWidget()->setVisible(comparable);
    layout()->activate(); // the panels' sizes decide the drawing's shape
    // The colour bar goes on whichever panel is last.
    if (obs) show_gather(observed_view_, obs_img, *obs, c, !mod);
    if (mod) show_gather(modelled_view_, mod_img, *mod, c, !comparable);
    if (comparable) {
        std::vector<float> diff(obs_img.size());
        for (std::size_t i = 0; i < diff.size(); ++i)
            diff[i] = mod_img[i] - obs_img[i];
        show_gather(residual_view_, diff, *obs, c, true);
    }
    // The scale is stated, so that a saved window says how it was clipped.
    info_->setText(obs || mod
                       ? tr("%1 receivers, %2 samples at %3 ms; one colour scale, symmetric, clipped at "
                            "\u00b1%4 (the 98th percentile of |%5|)")
                             .arg((obs ? obs : mod)->receivers.size())
                             .arg((obs ? obs : mod)->samples)
                             .arg((obs ? obs : mod)->dt_s * 1000, 0, 'g', 4)
                             .arg(c, 0, 'g', 3)
                             .arg(obs ? tr("observed") : tr("modelled"))
                       : tr("No gathers yet: run a forward model (Run > Model observed data)."));
}

} // namespace fwi::ui
