#pragma once
// The acquisition as a table (sources, then the active shot's receivers; x and z editable, and y in a 3D
// project), with the
// active-shot selector and the receiver-line dialog. Like ModelView it only requests edits.
#include "fwi/acquisition.hpp"
#include "fwi/ui/acquisition_edit.hpp"

#include <QAbstractTableModel>
#include <QDialog>
#include <QWidget>

#include <vector>

class QDoubleSpinBox;
class QFormLayout;
class QItemSelection;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace fwi::ui {

class AcquisitionTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { KindColumn, IndexColumn, XColumn, ZColumn, YColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void set_points(std::vector<Point> sources, std::vector<Point> receivers);
    PointRef ref_at(int row) const;
    int row_of(PointRef ref) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// Editing x, z or y requests a move; the table changes only when the document does.
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

  signals:
    void move_requested(fwi::ui::PointRef ref, fwi::Point position);
    void refused(const QString& message);

  private:
    std::vector<Point> sources_, receivers_;
};

/// "Add a line of receivers": validated on OK (count >= 1, both ends given); refusal shows a message and
/// keeps the dialog open.
class ReceiverLineDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ReceiverLineDialog(QWidget* parent = nullptr);
    void set_values(int count, Point from, Point to);
    int count() const;
    Point from() const;
    Point to() const;
    /// Model extent used for validation (positions outside are refused). A 3D grid shows the y boxes (a line
    /// between any two points of the volume); 2D hides them (y = 0).
    void set_grid(const Grid& grid);
    /// The reason the current input is refused; empty when acceptable.
    QString validation_error() const;
    void accept() override;

  private:
    Grid grid_;
    QSpinBox* count_;
    QDoubleSpinBox *x0_, *z0_, *x1_, *z1_, *y0_, *y1_;
    QFormLayout* form_;
};

class AcquisitionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit AcquisitionPanel(QWidget* parent = nullptr);
    AcquisitionTableModel* table_model() const;
    QTableView* table_view() const;
    void set_acquisition(const Acquisition& acq, int active_shot);
    /// Shows the y column (3D projects; hidden by default).
    void set_three_d(bool three_d);
    void set_selection(const std::vector<PointRef>& refs);
    std::vector<PointRef> selection() const;

  signals:
    void active_shot_requested(int shot);
    void selection_changed();
    void delete_requested(std::vector<fwi::ui::PointRef> refs);
    void add_line_clicked();

  private:
    AcquisitionTableModel* model_;
    QTableView* view_;
    QSpinBox* shot_;
    QLabel* summary_;
    QPushButton* add_line_ = nullptr;
    bool syncing_ = false;
};

} // namespace fwi::ui
