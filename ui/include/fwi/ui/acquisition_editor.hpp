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

class AcquisitionEditor : public QObject {
    Q_OBJECT
  public:
    AcquisitionEditor(ProjectDocument* doc, ModelView* view, AcquisitionPanel* panel,
                      QObject* parent = nullptr);
    /// Opens the receiver-line dialog (modal) and applies it on OK.
    void add_receiver_line();
    /// Which model the view shows (default: the document's display_model()); applied at once.
    void set_model_source(std::function<const Model&()> source);

  signals:
    /// A refused edit, for the status bar.
    void message(const QString& text);

  private:
    void refresh();
    std::function<const Model&()> model_source_;
    ProjectDocument* doc_;
    ModelView* view_;
    AcquisitionPanel* panel_;
};

} // namespace fwi::ui
