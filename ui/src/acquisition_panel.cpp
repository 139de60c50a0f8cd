#include "fwi/ui/acquisition_panel.hpp"

#include "fwi/ui/messages.hpp"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace fwi::ui {

// ---- table model ----

void AcquisitionTableModel::set_points(std::vector<Point> sources, std::vector<Point> receivers) {
    beginResetModel();
    sources_ = std::move(sources);
    receivers_ = std::move(receivers);
    endResetModel();
}

PointRef AcquisitionTableModel::ref_at(int row) const {
    if (row < int(sources_.size())) return {PointKind::Source, row};
    return {PointKind::Receiver, row - int(sources_.size())};
}

int AcquisitionTableModel::row_of(PointRef ref) const {
    return ref.kind == PointKind::Source ? ref.index : int(sources_.size()) + ref.index;
}

int AcquisitionTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(sources_.size() + receivers_.size());
}

int AcquisitionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AcquisitionTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const PointRef ref = ref_at(index.row());
    const Point& p =
        ref.kind == PointKind::Source ? sources_[std::size_t(ref.index)] : receivers_[std::size_t(ref.index)];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case KindColumn:
            return ref.kind == PointKind::Source ? tr("source") : tr("receiver");
        case IndexColumn:
            return ref.index;
        case XColumn:
            return role == Qt::EditRole ? QVariant(p.x_m) : QVariant(QString::number(p.x_m, 'f', 1));
        case ZColumn:
            return role == Qt::EditRole ? QVariant(p.z_m) : QVariant(QString::number(p.z_m, 'f', 1));
        case YColumn:
            return role == Qt::EditRole ? QVariant(p.y_m) : QVariant(QString::number(p.y_m, 'f', 1));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= IndexColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant AcquisitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case IndexColumn:
        return tr("#");
    case XColumn:
        return tr("x (m)");
    case ZColumn:
        return tr("z (m)");
    case YColumn:
        return tr("y (m)");
    default:
        return {};
    }
}

Qt::ItemFlags AcquisitionTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == XColumn || index.column() == ZColumn || index.column() == YColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool AcquisitionTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid()) return false;
    bool ok = false;
    const double v = value.toString().trimmed().toDouble(&ok);
    if (!ok) {
        emit refused(tr("'%1' is not a number").arg(value.toString()));
        return false;
    }
    const PointRef ref = ref_at(index.row());
    Point p =
        ref.kind == PointKind::Source ? sources_[std::size_t(ref.index)] : receivers_[std::size_t(ref.index)];
    (index.column() == XColumn ? p.x_m : index.column() == YColumn ? p.y_m : p.z_m) = v;
    emit move_requested(ref, p);
    return false; // the document's change refreshes the table
}

// ---- receiver line dialog ----

namespace {
QDoubleSpinBox* metres_box(QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(-1e7, 1e7); // wide on purpose: the model extent is checked on OK, with a message
    box->setDecimals(1);
    box->setSuffix(" m");
    return box;
}
} // namespace

ReceiverLineDialog::ReceiverLineDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Add a line of receivers"));
    auto* form = form_ = new QFormLayout;
    count_ = new QSpinBox(this);
    count_->setRange(0, 100000);
    count_->setValue(24);
    x0_ = metres_box(this);
    z0_ = metres_box(this);
    x1_ = metres_box(this);
    z1_ = metres_box(this);
    y0_ = metres_box(this);
    y1_ = metres_box(this);
    count_->setObjectName("count");
    y0_->setObjectName("y0");
    y1_->setObjectName("y1");
    x0_->setObjectName("x0");
    z0_->setObjectName("z0");
    x1_->setObjectName("x1");
    z1_->setObjectName("z1");
    form->addRow(tr("Receivers"), count_);
    form->addRow(tr("From x"), x0_);
    form->addRow(tr("From y"), y0_);
    form->addRow(tr("From z"), z0_);
    form->addRow(tr("To x"), x1_);
    form->addRow(tr("To y"), y1_);
    form->addRow(tr("To z"), z1_);
    set_grid(grid_); // 2D until told otherwise: no y rows
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ReceiverLineDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ReceiverLineDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void ReceiverLineDialog::set_values(int count, Point from, Point to) {
    count_->setValue(count);
    x0_->setValue(from.x_m);
    z0_->setValue(from.z_m);
    x1_->setValue(to.x_m);
    z1_->setValue(to.z_m);
    y0_->setValue(from.y_m);
    y1_->setValue(to.y_m);
}

int ReceiverLineDialog::count() const {
    return count_->value();
}
Point ReceiverLineDialog::from() const {
    return {x0_->value(), z0_->value(), grid_.rank == 3 ? y0_->value() : 0.0};
}
Point ReceiverLineDialog::to() const {
    return {x1_->value(), z1_->value(), grid_.rank == 3 ? y1_->value() : 0.0};
}
void ReceiverLineDialog::set_grid(const Grid& grid) {
    grid_ = grid;
    form_->setRowVisible(y0_, grid.rank == 3);
    form_->setRowVisible(y1_, grid.rank == 3);
}

QString ReceiverLineDialog::validation_error() const {
    if (count() < 1) return tr("A receiver line needs at least one receiver.");
    for (const Point& p : {from(), to()}) {
        const std::string msg = outside_message(grid_, p, PointKind::Receiver);
        if (!msg.empty()) return QString::fromStdString(msg) + ".";
    }
    return {};
}

void ReceiverLineDialog::accept() {
    const QString error = validation_error();
    if (!error.isEmpty()) {
        show_error(this, tr("Invalid receiver line"), error);
        return;
    }
    QDialog::accept();
}

// ---- panel ----

AcquisitionPanel::AcquisitionPanel(QWidget* parent) : QWidget(parent) {
    model_ = new AcquisitionTableModel(this);
    view_ = new QTableView(this);
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->verticalHeader()->hide();
    // Columns share the dock's width: a fixed width per column pushed z out of sight at the default size.
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    view_->setColumnHidden(AcquisitionTableModel::YColumn, true);
    view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed);
    shot_ = new QSpinBox(this);
    shot_->setObjectName("active_shot");
    shot_->setRange(0, 0);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    auto* add_line = add_line_ = new QPushButton(tr("Add receiver line…"), this);
    add_line->setObjectName("acquisition_add_line");
    auto* remove = new QPushButton(tr("Delete selected"), this);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Active shot"), this));
    top->addWidget(shot_);
    top->addStretch();
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_line);
    buttons->addWidget(remove);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(summary_);
    layout->addWidget(view_, 1);
    layout->addLayout(buttons);

    connect(shot_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!syncing_) emit active_shot_requested(v);
    });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (!syncing_) emit selection_changed();
    });
    connect(add_line, &QPushButton::clicked, this, &AcquisitionPanel::add_line_clicked);
    connect(remove, &QPushButton::clicked, this, [this] {
        const auto sel = selection();
        if (!sel.empty()) emit delete_requested(sel);
    });
}

AcquisitionTableModel* AcquisitionPanel::table_model() const {
    return model_;
}
QTableView* AcquisitionPanel::table_view() const {
    return view_;
}

void AcquisitionPanel::set_three_d(bool three_d) {
    view_->setColumnHidden(AcquisitionTableModel::YColumn, !three_d);
    add_line_->setToolTip(three_d
                              ? tr("A straight line of receivers between two points of the volume (for a "
                                   "grid, drag a rectangle on the depth slice with Areal grid: Receivers)")
                              : QString());
}

void AcquisitionPanel::set_acquisition(const Acquisition& acq, int active_shot) {
    syncing_ = true;
    const auto selected = selection();
    model_->set_points(sources_of(acq), receivers_of(acq, active_shot));
    shot_->setRange(0, std::max(int(acq.shots.size()) - 1, 0));
    shot_->setValue(active_shot);
    const std::size_t receivers = acq.shots.empty() ? 0 : acq.shots.front().receivers.size();
    summary_->setText(
        acq.shots.empty() ? tr("No shots yet: add a source (Edit > Add source mode).")
        : receivers_shared(acq)
            ? tr("%1 shots, all recorded by the same %2 receivers.").arg(acq.shots.size()).arg(receivers)
            : tr("%1 shots with their own receivers; editing shot %2.")
                  .arg(acq.shots.size())
                  .arg(active_shot));
    syncing_ = false;
    set_selection(selected);
}

void AcquisitionPanel::set_selection(const std::vector<PointRef>& refs) {
    syncing_ = true;
    QItemSelection sel;
    for (const PointRef& r : refs) {
        const int row = model_->row_of(r);
        if (row < model_->rowCount())
            sel.select(model_->index(row, 0), model_->index(row, AcquisitionTableModel::ColumnCount - 1));
    }
    view_->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
    if (!refs.empty() && model_->row_of(refs.front()) < model_->rowCount())
        view_->scrollTo(model_->index(model_->row_of(refs.front()), 0));
    syncing_ = false;
}

std::vector<PointRef> AcquisitionPanel::selection() const {
    std::vector<PointRef> refs;
    for (const QModelIndex& i : view_->selectionModel()->selectedRows())
        refs.push_back(model_->ref_at(i.row()));
    std::sort(refs.begin(), refs.end());
    return refs;
}

} // namespace fwi::ui
