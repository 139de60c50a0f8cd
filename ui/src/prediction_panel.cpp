#include "fwi/ui/prediction_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fwi::ui {

namespace {
// One codec per table (the settings' own), named in the summary: no codec column.
enum Column { ScheduleColumn, TimeColumn, RamColumn, DiskColumn, FitsColumn, ColumnCount };
} // namespace

PredictionPanel::PredictionPanel(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName("prediction");
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setStyleSheet("QLabel { background: #eef3fb; border: 1px solid #b8c8e0; padding: 6px; }");
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName("plan_table");
    table_->setHorizontalHeaderLabels(
        {tr("Schedule"), tr("Gradient"), tr("RAM/shot"), tr("Disk/shot"), tr("Fits")});
    table_->setToolTip(tr("The performance model's alternatives for this run (all shots, measured costs)"));
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMaximumHeight(130);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_);
}

void PredictionPanel::show_prediction(const RunPrediction& p) {
    summary_->setText(p.summary());
    table_->setRowCount(int(p.alternatives.size()));
    bool any_disk = false;
    for (int r = 0; r < int(p.alternatives.size()); ++r) {
        const PlanRow& row = p.alternatives[std::size_t(r)];
        const std::uint64_t ram = row.peak_bytes.empty() ? 0 : row.peak_bytes[0];
        const std::uint64_t disk = row.peak_bytes.size() > 1 ? row.peak_bytes[1] : 0;
        any_disk = any_disk || disk > 0;
        const QStringList cells{QString::fromStdString(row.schedule),
                                format_seconds(double(p.shots) * row.predicted_s), format_bytes(ram),
                                format_bytes(disk), row.fits_budget ? tr("yes") : tr("no")};
        const bool chosen = QString::fromStdString(row.schedule) == p.schedule;
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (chosen) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            if (!row.fits_budget) item->setForeground(QColor(150, 150, 150));
            table_->setItem(r, c, item);
        }
    }
    table_->setColumnHidden(DiskColumn, !any_disk);
    table_->setVisible(!p.alternatives.empty());
}

QString PredictionPanel::text() const {
    return summary_->text();
}
QTableWidget* PredictionPanel::table() const {
    return table_;
}

} // namespace fwi::ui
