#include "fwi/ui/prediction_panel.hpp"

#include "fwi/schedules.hpp"
#include "fwi/ui/plot_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

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
    sweep_plot_ =
        new PlotView(tr("Speed-up over Revolve alone"), tr("memory budget (MB)"), tr("speed-up"), this);
    sweep_plot_->setObjectName("sweep_plot");
    sweep_plot_->setToolTip(
        tr("Predicted gradient time of Revolve alone over Revolve with this codec, for each "
           "memory budget (fwi plan --sweep)"));
    sweep_plot_->setMinimumHeight(180);
    sweep_plot_->set_log_x(true);
    sweep_plot_->set_y_headroom(0.2); // "Revolve alone" (1.0) stays in view when the codec never pays
    codec_series_ = sweep_plot_->add_series(tr("Revolve + codec"), QColor(31, 119, 180));
    alone_series_ =
        sweep_plot_->add_series(tr("Revolve alone"), QColor(128, 128, 128), SeriesStyle::Line, 1.0f);
    current_series_ =
        sweep_plot_->add_series(tr("this project"), QColor(214, 39, 40), SeriesStyle::Points, 8.0f);
    sweep_plot_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_);
    layout->addWidget(sweep_plot_);
}

void PredictionPanel::show_sweep(const RunPrediction& p) {
    const PlanSweep& s = p.sweep;
    if (!p.ok || s.curves.empty() || s.budgets_bytes.empty()) {
        sweep_plot_->clear_data();
        sweep_plot_->hide();
        return;
    }
    std::vector<double> mb, speedup;
    QStringList labels;
    for (std::size_t i = 0; i < s.budgets_bytes.size(); ++i) {
        const SweepCodecPoint& point = s.curves[0].points[i];
        mb.push_back(double(s.budgets_bytes[i]) / 1e6);
        speedup.push_back(point.speedup);
        labels << tr("%1: %2 vs %3, %4x")
                      .arg(format_bytes(s.budgets_bytes[i]), QString::fromStdString(point.revolve.schedule),
                           QString::fromStdString(s.revolve_alone[i].schedule))
                      .arg(point.speedup, 0, 'f', 2);
    }
    // Short enough for the settings dock's width (the legend names the two curves).
    sweep_plot_->set_title(tr("Speed-up from %1").arg(QString::fromStdString(s.curves[0].codec.codec)));
    sweep_plot_->set_series(codec_series_, mb, speedup);
    sweep_plot_->set_point_labels(codec_series_, labels);
    sweep_plot_->set_series(alone_series_, {mb.front(), mb.back()}, {1.0, 1.0});
    // The settings' budget (unlimited: the largest, every state stored) on the curve.
    const std::uint64_t budget = p.budget_bytes == 0 ? s.budgets_bytes.back() : p.budget_bytes;
    const auto at = std::size_t(std::lower_bound(s.budgets_bytes.begin(), s.budgets_bytes.end(), budget) -
                                s.budgets_bytes.begin());
    const std::size_t i = std::min(at, s.budgets_bytes.size() - 1);
    sweep_plot_->set_series(current_series_, {mb[i]}, {speedup[i]});
    sweep_plot_->set_point_labels(current_series_, {tr("this project: %1").arg(labels[qsizetype(i)])});
    sweep_plot_->show();
}

PlotView* PredictionPanel::sweep_plot() const {
    return sweep_plot_;
}

void PredictionPanel::show_prediction(const RunPrediction& p) {
    const auto set_live = [this](bool live) { // disabled widgets are drawn greyed
        summary_->setEnabled(live);
        table_->setEnabled(live);
        sweep_plot_->setEnabled(live);
        summary_->setToolTip(live ? QString() : tr("Pricing the plans of the new settings…"));
    };
    if (p.updating && showing_priced_) { // the last priced settings stay in view until these are priced
        set_live(false);
        return;
    }
    set_live(true);
    showing_priced_ = p.ok;
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
                                format_bytes(disk),
                                !row.fits_budget                ? tr("no")
                                : row.fits_only_at_probed_ratio ? tr("yes*")
                                                                : tr("yes")};
        const bool chosen = QString::fromStdString(row.schedule) == p.schedule;
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (chosen) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            if (!row.fits_budget) item->setForeground(QColor(150, 150, 150));
            if (row.fits_only_at_probed_ratio)
                item->setToolTip(
                    tr("Fits only if the run's data compress as well as the probe's: the run "
                       "stops when they do not (auto sizes this codec's slots so that it fits)"));
            else if (is_adaptive_spec(row.schedule))
                item->setToolTip(tr("Starts with %1 uncompressed slots and takes more as the compressed "
                                    "sizes arrive where they pay, fewer where coding a state costs more "
                                    "than it saves: fits the budget whatever the data (RAM shows that "
                                    "bound); its time is priced at the probed ratio")
                                     .arg(row.ram_slots));
            table_->setItem(r, c, item);
        }
    }
    table_->setColumnHidden(DiskColumn, !any_disk);
    table_->setVisible(!p.alternatives.empty());
    show_sweep(p);
}

QString PredictionPanel::text() const {
    return summary_->text();
}
QTableWidget* PredictionPanel::table() const {
    return table_;
}

} // namespace fwi::ui
