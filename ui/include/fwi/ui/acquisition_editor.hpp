#pragma once
// Wires the acquisition editors (ModelView gestures, the table, the line dialog) to the ProjectDocument: requests
// become undoable edits through the pure functions of acquisition_edit.hpp; refusals become messages (status bar).
// Selection is kept in sync between the view and the table.
#include <QObject>

namespace fwi::ui {

class AcquisitionPanel;
class ModelView;
class ProjectDocument;

class AcquisitionEditor : public QObject {
    Q_OBJECT
public:
    AcquisitionEditor(ProjectDocument* doc, ModelView* view, AcquisitionPanel* panel, QObject* parent = nullptr);
    /// Opens the receiver-line dialog (modal) and applies it on OK.
    void add_receiver_line();

signals:
    /// A refused edit, for the status bar.
    void message(const QString& text);

private:
    void refresh();
    ProjectDocument* doc_;
    ModelView* view_;
    AcquisitionPanel* panel_;
};

} // namespace fwi::ui
