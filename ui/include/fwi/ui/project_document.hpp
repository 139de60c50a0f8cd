#pragma once
// The open project as the GUI holds it: one fwi::Project (experiment + results), its file path, an undo stack
// of edits and the dirty flag (dirty = the undo stack is not at its clean index). Every edit goes through a
// QUndoCommand so Edit > Undo works for acquisition, settings and model results alike; views listen to
// changed(parts) and never edit the value directly.
#include "fwi/optimizer.hpp"
#include "fwi/project.hpp"
#include "fwi/settings.hpp"

#include <QObject>
#include <QString>

#include <memory>

class QUndoStack;

namespace fwi::ui {

class ProjectDocument : public QObject {
    Q_OBJECT
  public:
    enum Part {
        ModelPart = 1, ///< true / initial / current models
        AcquisitionPart = 2,
        PropagationPart = 4,
        GradientPart = 8,
        InversionPart = 16,
        ResultsPart = 32, ///< observed data, gradient, misfit, history
        AllParts = 63
    };

    explicit ProjectDocument(QObject* parent = nullptr);
    ~ProjectDocument() override;

    const Project& project() const;
    const Experiment& experiment() const;
    /// The model the views show and edits refer to: current, else initial, else true.
    const Model& display_model() const;
    QString path() const;
    /// A display name: the file name, or "Untitled".
    QString title() const;
    bool dirty() const;
    QUndoStack* undo_stack() const;

    int active_shot() const;
    void set_active_shot(int shot);

    /// Replaces everything (new / open / demo): clears the undo history and marks the document clean.
    void reset(Project project, const QString& path);
    /// After a successful save to `path`: clean at the current undo index; `version` is the file as saved
    /// (the project's file_version, which the next save over it checks).
    void mark_saved(const QString& path, const FileVersion& version);

    // Undoable edits; `text` names the step in Edit > Undo.
    void edit_acquisition(Acquisition value, const QString& text);
    void edit_propagation(PropagationSettings value, const QString& text = tr("Change propagation settings"));
    void edit_gradient(GradientSettings value, const QString& text = tr("Change gradient settings"));
    void edit_inversion(InversionSettings value, const QString& text = tr("Change inversion settings"));
    /// The inversion's run options (JSON, fwi::run_options_key in the metadata): what the settings panel's
    /// conditioning fields edit, and what a GUI inversion runs with.
    void edit_run_options(std::string json, const QString& text = tr("Change inversion options"));
    /// The saved run options ("" when none).
    std::string run_options() const;
    void edit_current_model(Model value, const QString& text);
    void edit_observed(std::vector<ShotRecord> observed, const QString& text);
    /// The last gradient and misfit (one undo step).
    void edit_gradient_result(std::vector<float> gradient, double misfit, const QString& text);
    void edit_history(std::vector<IterationRecord> history, const QString& text);
    /// An inversion's outcome as one undo step: `history` replaces the project's (or, with `append`, a
    /// resumed run's records follow it), the current model, gradient and misfit come from its records
    /// (fwi::apply_record, as the CLI saves them), `optimizer_state` is what a resume continues from and
    /// `run_options` the options it continues with (fwi::run_options_key). Nothing happens for an empty
    /// history.
    void edit_inversion_result(std::vector<IterationRecord> history, OptimizerState optimizer_state,
                               std::string run_options, bool append, const QString& text);

  signals:
    void changed(int parts);
    void dirty_changed(bool dirty);
    void path_changed(const QString& path);
    void active_shot_changed(int shot);

  private:
    template <class T> friend class PartCommand;
    Project& mutable_project();
    void notify(int parts);
    template <class T, class Access> void push_edit(Access access, T value, int part, const QString& text);
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
