#include "fwi/ui/acquisition_editor.hpp"

#include "fwi/error.hpp"
#include "fwi/ui/acquisition_edit.hpp"
#include "fwi/ui/acquisition_panel.hpp"
#include "fwi/ui/areal_acquisition.hpp"
#include "fwi/ui/model_view.hpp"
#include "fwi/ui/project_document.hpp"
#include "fwi/ui/volume_slices_view.hpp"

namespace fwi::ui {

AcquisitionEditor::AcquisitionEditor(ProjectDocument* doc, ModelView* view, AcquisitionPanel* panel,
                                     QObject* parent)
    : QObject(parent), doc_(doc), view_(view), panel_(panel) {
    model_source_ = [this]() -> const Model& { return doc_->display_model(); };
    // Every edit funnels through here: run the pure edit, push it as one undo step, or report why not.
    auto apply = [this](const QString& text, auto&& edit) {
        try {
            doc_->edit_acquisition(edit(doc_->experiment().acquisition), text);
        } catch (const Error& e) {
            emit message(QString::fromStdString(e.what()));
        }
    };
    connect(view_, &ModelView::add_requested, this, [this, apply](PointKind kind, Point p) {
        apply(kind == PointKind::Source ? tr("Add source") : tr("Add receiver"), [&](const Acquisition& a) {
            return with_point_added(a, view_->grid(), kind, p, doc_->active_shot());
        });
    });
    connect(view_, &ModelView::move_requested, this, [this, apply](PointRef ref, Point p) {
        apply(ref.kind == PointKind::Source ? tr("Move source") : tr("Move receiver"),
              [&](const Acquisition& a) {
                  return with_point_moved(a, view_->grid(), ref, p, doc_->active_shot());
              });
    });
    connect(panel_->table_model(), &AcquisitionTableModel::move_requested, view_, &ModelView::move_requested);
    auto remove = [this, apply](std::vector<PointRef> refs) {
        view_->set_selection({});
        apply(tr("Delete %n point(s)", nullptr, int(refs.size())),
              [&](const Acquisition& a) { return with_points_deleted(a, refs, doc_->active_shot()); });
    };
    connect(view_, &ModelView::delete_requested, this, remove);
    connect(panel_, &AcquisitionPanel::delete_requested, this, remove);
    connect(view_, &ModelView::line_requested, this, [this, apply](Point a, Point b, int n) {
        apply(tr("Add %n receiver(s)", nullptr, n), [&](const Acquisition& acq) {
            return with_receiver_line(acq, model_source_().grid, a, b, n, doc_->active_shot());
        });
    });
    connect(view_, &ModelView::refused, this, &AcquisitionEditor::message);
    connect(panel_->table_model(), &AcquisitionTableModel::refused, this, &AcquisitionEditor::message);
    connect(panel_, &AcquisitionPanel::active_shot_requested, doc_, &ProjectDocument::set_active_shot);
    connect(panel_, &AcquisitionPanel::add_line_clicked, this, &AcquisitionEditor::add_receiver_line);

    connect(view_, &ModelView::selection_changed, this,
            [this] { panel_->set_selection(view_->selection()); });
    connect(panel_, &AcquisitionPanel::selection_changed, this,
            [this] { view_->set_selection(panel_->selection()); });
    connect(doc_, &ProjectDocument::changed, this, [this](int parts) {
        if (parts & ProjectDocument::ModelPart) {
            view_->set_model(model_source_());
            if (volume_) volume_->set_model(model_source_());
        }
        if (parts & (ProjectDocument::AcquisitionPart | ProjectDocument::ModelPart)) refresh();
    });
    connect(doc_, &ProjectDocument::active_shot_changed, this, [this] { refresh(); });
    view_->set_model(model_source_());
    refresh();
}

void AcquisitionEditor::set_model_source(std::function<const Model&()> source) {
    model_source_ = std::move(source);
    view_->set_model(model_source_());
    if (volume_) volume_->set_model(model_source_());
}

void AcquisitionEditor::set_volume_view(VolumeSlicesView* volume) {
    volume_ = volume;
    connect(volume_, &VolumeSlicesView::areal_requested, this,
            [this](PointKind kind, Point a, Point b, int count_x, int count_y) {
                const QString text = kind == PointKind::Source
                                         ? tr("Add %n source(s)", nullptr, count_x * count_y)
                                         : tr("Add %n receiver(s)", nullptr, count_x * count_y);
                try {
                    doc_->edit_acquisition(with_areal_grid(doc_->experiment().acquisition, volume_->grid(),
                                                           kind, a, b, count_x, count_y, doc_->active_shot()),
                                           text);
                } catch (const Error& e) {
                    emit message(QString::fromStdString(e.what()));
                }
            });
    connect(volume_, &VolumeSlicesView::refused, this, &AcquisitionEditor::message);
    volume_->set_model(model_source_());
    refresh();
}

void AcquisitionEditor::refresh() {
    const Acquisition& acq = doc_->experiment().acquisition;
    view_->set_points(sources_of(acq), receivers_of(acq, doc_->active_shot()));
    if (volume_) volume_->set_points(sources_of(acq), receivers_of(acq, doc_->active_shot()));
    panel_->set_three_d(model_source_().grid.rank == 3);
    panel_->set_acquisition(acq, doc_->active_shot());
    panel_->set_selection(view_->selection());
}

void AcquisitionEditor::add_receiver_line() {
    // The project's grid, which is 3D for a 3D project (the 2D view is not shown then).
    const Grid g = model_source_().grid;
    ReceiverLineDialog dialog(view_);
    dialog.set_grid(g);
    const double mid_y = 0.5 * g.breadth_m(); // 0 in 2D
    dialog.set_values(view_->line_count(), {0, 2 * g.dz(), mid_y}, {g.width_m(), 2 * g.dz(), mid_y});
    if (dialog.exec() != QDialog::Accepted) return;
    view_->set_line_count(dialog.count());
    emit view_->line_requested(dialog.from(), dialog.to(), dialog.count());
}

} // namespace fwi::ui
