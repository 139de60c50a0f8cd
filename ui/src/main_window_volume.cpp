// MainWindow: the live slices of a 3D run (the fields go to the central VolumeSlicesView) and what they cost.
#include "fwi/ui/main_window.hpp"

#include "fwi/ui/volume_slices_view.hpp"
#include "main_window_impl.hpp"

#include <algorithm>

namespace fwi::ui {

namespace {
constexpr double live_budget = 0.03; // of a 3D run's time for its live slices (the limit is 5%)
// Before any field has been measured, one is predicted at this many times the views' last paints: drawing
// a field over the greyed model cost 3x a paint of the model alone under Xvfb (0.12 s against 0.04 s for
// the four views of tst_volume_slices), and up to 5x with another process drawing beside it (a CI run:
// 0.196 s for the first field of a 2.97 s forward run, 6.6% of it, where 3x had let it in at 3%).
constexpr double unmeasured_field_factor = 6;
} // namespace

void MainWindow::show_live_volume(const FieldFramePtr& frame) {
    const Grid& g = d_->doc->display_model().grid;
    if (frame->rows != g.rows() || frame->cols != g.nx()) return;
    // Throttle: live slices may cost at most 3% of the run so far (5% is the limit). A field is shown only
    // when the cost so far plus one more stays in that budget; one more costs what the last one did
    // (worker copies, slicing and drawing since it was shown), or for a run's first what the last run's
    // fields did, or, before any was measured, six times what the views' last paints took. Drawing is
    // counted when it happens, after the field is shown.
    // A field is not replaced before it has been drawn: its drawing would not be counted yet, and nobody
    // would have seen it.
    const double drawn_s = d_->volume->render_seconds();
    const int shown = d_->volume->fields_shown();
    if (shown > 0 && drawn_s <= d_->live_drawn_at_last_field_s) return;
    const double cost_s = d_->runner->field_copy_seconds() + d_->volume->field_seconds() + drawn_s;
    if (shown > 0)
        d_->live_cost_per_field_s = cost_s - d_->live_cost_at_last_field_s;
    else if (d_->live_cost_per_field_s <= 0)
        d_->live_cost_per_field_s = unmeasured_field_factor * d_->volume->draw_estimate_seconds();
    if (cost_s + d_->live_cost_per_field_s > live_budget * double(d_->live_clock.elapsed()) * 1e-3) return;
    d_->live_drawn_at_last_field_s = drawn_s;
    d_->live_cost_at_last_field_s = cost_s;
    // The frame's own buffer, shared: no copy on the GUI thread beyond the three slices.
    VolumeSlicesView::Volume values(frame, &frame->values);
    if (d_->live_switch && frame->kind != FieldKind::Gradient) {
        d_->live_switch = false;
        d_->volume->show_layer(VolumeSlicesView::Layer::Wavefield);
    }
    switch (frame->kind) {
    case FieldKind::Gradient:
        d_->volume->set_field(VolumeSlicesView::Layer::Gradient, values, tr("gradient so far"));
        break;
    case FieldKind::AdjointWavefield:
        d_->volume->set_field(VolumeSlicesView::Layer::Wavefield, values,
                              tr("adjoint wavefield, step %1").arg(frame->step));
        break;
    default:
        d_->volume->set_field(VolumeSlicesView::Layer::Wavefield, values,
                              tr("wavefield, step %1").arg(frame->step));
        break;
    }
}

void MainWindow::log_live_volume_cost(double run_seconds) {
    const double copy_s = d_->runner->field_copy_seconds();
    const double show_s = d_->volume->field_seconds();
    const double render_s = d_->volume->render_seconds();
    const double share = run_seconds > 0 ? 100.0 * (copy_s + show_s + render_s) / run_seconds : 0.0;
    // What the run's fields cost on average is the next run's first prediction (a run that showed one
    // field never measured it at a second).
    if (const int shown = d_->volume->fields_shown(); shown > 0)
        d_->live_cost_per_field_s = (copy_s + show_s + render_s) / shown;
    log(tr("Live 3D slices: %1 field(s) copied in %2 s on the worker, %3 shown in %4 s and drawn in %5 s on "
           "the GUI thread: %6% of the run's %7 s")
            .arg(d_->runner->fields_copied())
            .arg(copy_s, 0, 'f', 4)
            .arg(d_->volume->fields_shown())
            .arg(show_s, 0, 'f', 4)
            .arg(render_s, 0, 'f', 4)
            .arg(share, 0, 'f', 2)
            .arg(run_seconds, 0, 'f', 2));
}

} // namespace fwi::ui
