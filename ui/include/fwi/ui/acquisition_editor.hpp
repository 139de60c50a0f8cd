#pragma once
// Wires the acquisition editors (ModelView gestures, the table, the line dialog) to the ProjectDocument:
// requests become undoable edits through the pure functions of acquisition_edit.hpp; refusals become messages
// (status bar). Selection is kept in sync between the view and the table.
#include "fwi/model.hpp"

#include <QObject>

#include <functional>

namespace fwi::ui {

class AcquisitionPanel;
class ModelView;
class ProjectDocument;
class VolumeSlicesView;

class AcquisitionEditor : public QObject {
    Q_OBJECT
  public:
    AcquisitionEditor(ProjectDocument* doc, ModelView* view, AcquisitionPanel* panel,
                      QObject* parent = nullptr);
    /// Opens the receiver-line dialog (modal) and applies it on OK.
    void add_receiver_line();
    /// Which model the view shows (default: the document's display_model()); applied at once.
    void set_model_source(std::function<const Model&()> source);
    /// The 3D project's slices (volume_slices_view.hpp): they follow the model and the points like the
    /// view, and their areal drags become undoable edits (areal_acquisition.hpp).
    void set_volume_view(VolumeSlicesView* volume);

  signals:
    /// A refused edit, for the status bar.
    void message(const QString& text);

  private:
    void refresh();
    std::function<const Model&()> model_source_;
    ProjectDocument* doc_;
    ModelView* view_;
    VolumeSlicesView* volume_ = nullptr;
    AcquisitionPanel* panel_;
};

} // namespace fwi::ui
