#include "fwi/ui/project_document.hpp"

#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace fwi::ui {

/// Swaps one part of the experiment between its value before and after the edit.
template <class T>
class PartCommand : public QUndoCommand {
public:
    PartCommand(ProjectDocument* doc, T Experiment::*member, T after, int part, const QString& text)
        : QUndoCommand(text), doc_(doc), member_(member), before_(doc->experiment().*member),
          after_(std::move(after)), part_(part) {}
    void redo() override { assign(after_); }
    void undo() override { assign(before_); }

private:
    void assign(const T& value) {
        doc_->mutable_experiment().*member_ = value;
        doc_->notify(part_);
    }
    ProjectDocument* doc_;
    T Experiment::*member_;
    T before_, after_;
    int part_;
};

struct ProjectDocument::Impl {
    Experiment experiment;
    QString path;
    QUndoStack undo;
    int active_shot = 0;
};

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent), d_(std::make_unique<Impl>()) {
    connect(&d_->undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit dirty_changed(!clean); });
}

ProjectDocument::~ProjectDocument() = default;

const Experiment& ProjectDocument::experiment() const { return d_->experiment; }

const Model& ProjectDocument::display_model() const {
    const Experiment& e = d_->experiment;
    if (e.current_model.grid.cells() > 0 && !e.current_model.vp_mps.empty()) return e.current_model;
    if (e.initial_model.grid.cells() > 0 && !e.initial_model.vp_mps.empty()) return e.initial_model;
    return e.true_model;
}

QString ProjectDocument::path() const { return d_->path; }

QString ProjectDocument::title() const {
    return d_->path.isEmpty() ? tr("Untitled") : QFileInfo(d_->path).fileName();
}

bool ProjectDocument::dirty() const { return !d_->undo.isClean(); }
QUndoStack* ProjectDocument::undo_stack() const { return &d_->undo; }
Experiment& ProjectDocument::mutable_experiment() { return d_->experiment; }

int ProjectDocument::active_shot() const { return d_->active_shot; }

void ProjectDocument::set_active_shot(int shot) {
    shot = std::clamp(shot, 0, std::max(int(d_->experiment.acquisition.shots.size()) - 1, 0));
    if (shot == d_->active_shot) return;
    d_->active_shot = shot;
    emit active_shot_changed(shot);
}

void ProjectDocument::notify(int parts) {
    if (parts & AcquisitionPart) set_active_shot(d_->active_shot);  // re-clamp after shots were removed
    emit changed(parts);
}

void ProjectDocument::reset(Experiment experiment, const QString& path) {
    const bool was_dirty = dirty();
    d_->undo.clear();
    d_->experiment = std::move(experiment);
    d_->active_shot = 0;
    d_->path = path;
    emit path_changed(path);
    emit active_shot_changed(0);
    emit changed(AllParts);
    if (was_dirty) emit dirty_changed(false);
}

void ProjectDocument::mark_saved(const QString& path) {
    d_->undo.setClean();
    if (path != d_->path) {
        d_->path = path;
        emit path_changed(path);
    }
}

void ProjectDocument::edit_acquisition(Acquisition value, const QString& text) {
    if (value == d_->experiment.acquisition) return;
    d_->undo.push(new PartCommand<Acquisition>(this, &Experiment::acquisition, std::move(value), AcquisitionPart, text));
}

void ProjectDocument::edit_propagation(PropagationSettings value, const QString& text) {
    if (value == d_->experiment.propagation) return;
    d_->undo.push(
        new PartCommand<PropagationSettings>(this, &Experiment::propagation, std::move(value), PropagationPart, text));
}

void ProjectDocument::edit_gradient(GradientSettings value, const QString& text) {
    if (value == d_->experiment.gradient) return;
    d_->undo.push(new PartCommand<GradientSettings>(this, &Experiment::gradient, std::move(value), GradientPart, text));
}

void ProjectDocument::edit_inversion(InversionSettings value, const QString& text) {
    if (value == d_->experiment.inversion) return;
    d_->undo.push(
        new PartCommand<InversionSettings>(this, &Experiment::inversion, std::move(value), InversionPart, text));
}

void ProjectDocument::edit_current_model(Model value, const QString& text) {
    d_->undo.push(new PartCommand<Model>(this, &Experiment::current_model, std::move(value), ModelPart, text));
}

} // namespace fwi::ui
