#include "fwi/ui/project_document.hpp"

#include "fwi/inversion_project.hpp"

#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>
#include <functional>

namespace fwi::ui {

/// Swaps one part of the project between its value before and after the edit.
template <class T> class PartCommand : public QUndoCommand {
  public:
    using Access = std::function<T&(Project&)>;
    PartCommand(ProjectDocument* doc, Access access, T after, int part, const QString& text)
        : QUndoCommand(text), doc_(doc), access_(std::move(access)), before_(access_(doc->mutable_project())),
          after_(std::move(after)), part_(part) {}
    void redo() override { assign(after_); }
    void undo() override { assign(before_); }

  private:
    void assign(const T& value) {
        access_(doc_->mutable_project()) = value;
        doc_->notify(part_);
    }
    ProjectDocument* doc_;
    Access access_;
    T before_, after_;
    int part_;
};

struct ProjectDocument::Impl {
    Project project;
    QString path;
    QUndoStack undo;
    int active_shot = 0;
};

template <class T, class Access>
void ProjectDocument::push_edit(Access access, T value, int part, const QString& text) {
    d_->undo.push(new PartCommand<T>(this, std::move(access), std::move(value), part, text));
}

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent), d_(std::make_unique<Impl>()) {
    connect(&d_->undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit dirty_changed(!clean); });
}

ProjectDocument::~ProjectDocument() {
    // QUndoStack's destructor emits cleanChanged; nobody may hear it from a half-destroyed document.
    d_->undo.disconnect();
    blockSignals(true);
}

const Project& ProjectDocument::project() const {
    return d_->project;
}
const Experiment& ProjectDocument::experiment() const {
    return d_->project.experiment;
}

const Model& ProjectDocument::display_model() const {
    const Experiment& e = d_->project.experiment;
    if (e.current_model.grid.cells() > 0 && !e.current_model.vp_mps.empty()) return e.current_model;
    if (e.initial_model.grid.cells() > 0 && !e.initial_model.vp_mps.empty()) return e.initial_model;
    return e.true_model;
}

QString ProjectDocument::path() const {
    return d_->path;
}

QString ProjectDocument::title() const {
    return d_->path.isEmpty() ? tr("Untitled") : QFileInfo(d_->path).fileName();
}

bool ProjectDocument::dirty() const {
    return !d_->undo.isClean();
}
QUndoStack* ProjectDocument::undo_stack() const {
    return &d_->undo;
}
Project& ProjectDocument::mutable_project() {
    return d_->project;
}

int ProjectDocument::active_shot() const {
    return d_->active_shot;
}

void ProjectDocument::set_active_shot(int shot) {
    shot = std::clamp(shot, 0, std::max(int(d_->project.experiment.acquisition.shots.size()) - 1, 0));
    if (shot == d_->active_shot) return;
    d_->active_shot = shot;
    emit active_shot_changed(shot);
}

void ProjectDocument::notify(int parts) {
    if (parts & AcquisitionPart) set_active_shot(d_->active_shot); // re-clamp after shots were removed
    emit changed(parts);
}

void ProjectDocument::reset(Project project, const QString& path) {
    const bool was_dirty = dirty();
    d_->undo.clear();
    d_->project = std::move(project);
    d_->active_shot = 0;
    d_->path = path;
    emit path_changed(path);
    emit active_shot_changed(0);
    emit changed(AllParts);
    if (was_dirty) emit dirty_changed(false);
}

void ProjectDocument::mark_saved(const QString& path, const FileVersion& version) {
    d_->project.file_version = version;
    d_->undo.setClean();
    if (path != d_->path) {
        d_->path = path;
        emit path_changed(path);
    }
}

void ProjectDocument::edit_acquisition(Acquisition value, const QString& text) {
    if (value == experiment().acquisition) return;
    push_edit([](Project& p) -> Acquisition& { return p.experiment.acquisition; }, std::move(value),
              AcquisitionPart, text);
}

void ProjectDocument::edit_propagation(PropagationSettings value, const QString& text) {
    if (value == experiment().propagation) return;
    push_edit([](Project& p) -> PropagationSettings& { return p.experiment.propagation; }, std::move(value),
              PropagationPart, text);
}

void ProjectDocument::edit_gradient(GradientSettings value, const QString& text) {
    if (value == experiment().gradient) return;
    push_edit([](Project& p) -> GradientSettings& { return p.experiment.gradient; }, std::move(value),
              GradientPart, text);
}

void ProjectDocument::edit_inversion(InversionSettings value, const QString& text) {
    if (value == experiment().inversion) return;
    push_edit([](Project& p) -> InversionSettings& { return p.experiment.inversion; }, std::move(value),
              InversionPart, text);
}

std::string ProjectDocument::run_options() const {
    const auto found = project().metadata.find(run_options_key);
    return found == project().metadata.end() ? std::string() : found->second;
}

void ProjectDocument::edit_run_options(std::string json, const QString& text) {
    if (json == run_options()) return;
    push_edit([](Project& p) -> std::string& { return p.metadata[run_options_key]; }, std::move(json),
              InversionPart, text);
}

void ProjectDocument::edit_current_model(Model value, const QString& text) {
    push_edit([](Project& p) -> Model& { return p.experiment.current_model; }, std::move(value), ModelPart,
              text);
}

void ProjectDocument::edit_observed(std::vector<ShotRecord> observed, const QString& text) {
    push_edit([](Project& p) -> std::vector<ShotRecord>& { return p.observed; }, std::move(observed),
              ResultsPart, text);
}

void ProjectDocument::edit_gradient_result(std::vector<float> gradient, double misfit, const QString& text) {
    // Gradient and misfit change together: one command swapping both (a pair of references into the project).
    struct Command : QUndoCommand {
        ProjectDocument* doc;
        std::vector<float> gradient[2];
        double misfit[2];
        Command(ProjectDocument* owner, std::vector<float> g, double m, const QString& t)
            : QUndoCommand(t), doc(owner) {
            gradient[0] = owner->project().gradient;
            misfit[0] = owner->project().misfit;
            gradient[1] = std::move(g);
            misfit[1] = m;
        }
        void apply(int i) {
            doc->mutable_project().gradient = gradient[i];
            doc->mutable_project().misfit = misfit[i];
            doc->notify(ResultsPart);
        }
        void redo() override { apply(1); }
        void undo() override { apply(0); }
    };
    d_->undo.push(new Command(this, std::move(gradient), misfit, text));
}

void ProjectDocument::edit_history(std::vector<IterationRecord> history, const QString& text) {
    push_edit([](Project& p) -> std::vector<IterationRecord>& { return p.history; }, std::move(history),
              ResultsPart, text);
}

void ProjectDocument::edit_inversion_result(std::vector<IterationRecord> history,
                                            OptimizerState optimizer_state, std::string run_options,
                                            bool append, const QString& text) {
    if (history.empty()) return;
    // The parts an inversion writes, swapped together so that undo never leaves a model without its history.
    struct Results {
        Model current;
        std::vector<float> gradient;
        double misfit = 0;
        std::vector<IterationRecord> history;
        OptimizerState state;
        std::string run_options; ///< empty: none
    };
    struct Command : QUndoCommand {
        ProjectDocument* doc;
        Results results[2];
        Command(ProjectDocument* owner, const QString& t) : QUndoCommand(t), doc(owner) {}
        void apply(int i) {
            Project& p = doc->mutable_project();
            const Results& r = results[i];
            p.experiment.current_model = r.current;
            p.gradient = r.gradient;
            p.misfit = r.misfit;
            p.history = r.history;
            p.optimizer_state = r.state;
            if (r.run_options.empty())
                p.metadata.erase(run_options_key);
            else
                p.metadata[run_options_key] = r.run_options;
            doc->notify(ModelPart | ResultsPart);
        }
        void redo() override { apply(1); }
        void undo() override { apply(0); }
    };
    const Project& now = project();
    auto* command = new Command(this, text);
    const auto saved = now.metadata.find(run_options_key);
    command->results[0] = {now.experiment.current_model,
                           now.gradient,
                           now.misfit,
                           now.history,
                           now.optimizer_state,
                           saved == now.metadata.end() ? std::string() : saved->second};
    Project after; // apply_record on the same fields gives exactly what `fwi invert` saves
    after.experiment.current_model = now.experiment.current_model;
    after.gradient = now.gradient;
    after.misfit = now.misfit;
    if (append) after.history = now.history;
    for (const IterationRecord& r : history)
        apply_record(after, r);
    command->results[1] = {std::move(after.experiment.current_model),
                           std::move(after.gradient),
                           after.misfit,
                           std::move(after.history),
                           std::move(optimizer_state),
                           std::move(run_options)};
    d_->undo.push(command);
}

} // namespace fwi::ui
