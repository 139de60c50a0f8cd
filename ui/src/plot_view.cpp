#include "fwi/ui/plot_view.hpp"

#include "fwi/ui/messages.hpp"

#include <QFile>
#include <QFileDialog>
#include <QLocale>
#include <QMenu>
#include <QTextStream>

#include <vtkAxis.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPlotPoints.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>

#include <cmath>

namespace fwi::ui {

namespace {
struct Series {
    QString name;
    std::vector<double> x, y;
    vtkSmartPointer<vtkTable> table;
    vtkPlot* plot = nullptr;
    bool dirty = true;
    bool line = true;
};
} // namespace

struct PlotView::Impl {
    QString title, x_title, y_title;
    vtkNew<vtkContextActor> actor;
    vtkNew<vtkChartXY> chart;
    std::vector<Series> series;
    bool log_y = false;
    double y_headroom = 0;
};

PlotView::PlotView(const QString& title, const QString& x_title, const QString& y_title, QWidget* parent)
    : VtkWidget(parent), d_(std::make_unique<Impl>()) {
    d_->title = title;
    d_->x_title = x_title;
    d_->y_title = y_title;
    d_->actor->GetScene()->AddItem(d_->chart);
    d_->chart->SetTitle(title.toStdString());
    d_->chart->GetTitleProperties()->SetFontSize(14);
    d_->chart->GetTitleProperties()->SetBold(true);
    d_->chart->GetAxis(vtkAxis::BOTTOM)->SetTitle(x_title.toStdString());
    d_->chart->GetAxis(vtkAxis::LEFT)->SetTitle(y_title.toStdString());
    for (int a : {vtkAxis::BOTTOM, vtkAxis::LEFT}) {
        d_->chart->GetAxis(a)->GetTitleProperties()->SetFontSize(12);
        d_->chart->GetAxis(a)->GetLabelProperties()->SetFontSize(11);
    }
    d_->chart->SetShowLegend(true);
    d_->chart->GetLegend()->SetHorizontalAlignment(vtkChartLegend::RIGHT);
    d_->chart->GetLegend()->SetVerticalAlignment(vtkChartLegend::TOP);
    d_->chart->GetLegend()->GetLabelProperties()->SetFontSize(11);
    d_->chart->SetIgnoreNanInBounds(true);
    d_->chart->SetRenderEmpty(true); // title and axes before the first run: a blank dock says nothing
    renderer()->SetBackground(1, 1, 1);
    renderer()->AddActor(d_->actor);
    setMinimumSize(240, 160);
}

PlotView::~PlotView() = default;

int PlotView::add_series(const QString& name, QColor color, SeriesStyle style, float width) {
    Series s;
    s.name = name;
    s.table = vtkSmartPointer<vtkTable>::New();
    vtkNew<vtkDoubleArray> x, y;
    x->SetName("x");
    y->SetName(name.toUtf8().constData());
    s.table->AddColumn(x);
    s.table->AddColumn(y);
    s.line = style == SeriesStyle::Line;
    s.plot = d_->chart->AddPlot(s.line ? vtkChart::LINE : vtkChart::POINTS);
    s.plot->SetInputData(s.table, 0, 1);
    s.plot->SetColor(color.red(), color.green(), color.blue(), 255);
    s.plot->SetWidth(width);
    s.plot->SetLabel(name.toStdString());
    if (auto* points = vtkPlotPoints::SafeDownCast(s.plot)) {
        points->SetMarkerStyle(style == SeriesStyle::Points ? vtkPlotPoints::CIRCLE : vtkPlotPoints::NONE);
        points->SetMarkerSize(style == SeriesStyle::Points ? 5.0f : 0.0f);
    }
    d_->series.push_back(std::move(s));
    request_render();
    return int(d_->series.size()) - 1;
}

int PlotView::series_count() const {
    return int(d_->series.size());
}
QString PlotView::series_name(int id) const {
    return d_->series.at(std::size_t(id)).name;
}
QString PlotView::title() const {
    return d_->title;
}

int PlotView::find_series(const QString& name) const {
    for (std::size_t i = 0; i < d_->series.size(); ++i)
        if (d_->series[i].name == name) return int(i);
    return -1;
}

void PlotView::set_series(int id, std::vector<double> x, std::vector<double> y) {
    Series& s = d_->series.at(std::size_t(id));
    y.resize(x.size(), std::nan(""));
    s.x = std::move(x);
    s.y = std::move(y);
    s.dirty = true;
    request_render();
}

void PlotView::append(int id, double x, double y) {
    Series& s = d_->series.at(std::size_t(id));
    s.x.push_back(x);
    s.y.push_back(y);
    s.dirty = true;
    request_render();
}

std::size_t PlotView::point_count(int id) const {
    return d_->series.at(std::size_t(id)).x.size();
}

const std::vector<double>& PlotView::series_x(int id) const {
    return d_->series.at(std::size_t(id)).x;
}
const std::vector<double>& PlotView::series_y(int id) const {
    return d_->series.at(std::size_t(id)).y;
}

void PlotView::set_point_labels(int id, const QStringList& labels) {
    Series& s = d_->series.at(std::size_t(id));
    if (labels.isEmpty()) {
        s.plot->SetIndexedLabels(nullptr);
        s.plot->SetTooltipLabelFormat(""); // VTK's default
        return;
    }
    vtkNew<vtkStringArray> texts;
    for (const QString& l : labels)
        texts->InsertNextValue(l.toStdString());
    s.plot->SetIndexedLabels(texts);
    s.plot->SetTooltipLabelFormat("%i");
}

void PlotView::set_title(const QString& title) {
    d_->title = title;
    d_->chart->SetTitle(title.toStdString());
    request_render();
}

void PlotView::set_x_title(const QString& title) {
    d_->x_title = title;
    d_->chart->GetAxis(vtkAxis::BOTTOM)->SetTitle(title.toStdString());
    request_render();
}

QString PlotView::x_title() const {
    return d_->x_title;
}

void PlotView::set_y_headroom(double fraction) {
    d_->y_headroom = fraction;
    for (Series& s : d_->series)
        s.dirty = true; // recompute the range at the next paint
    request_render();
}

void PlotView::set_legend_left() {
    d_->chart->GetLegend()->SetHorizontalAlignment(vtkChartLegend::LEFT);
    request_render();
}

void PlotView::set_x_range(double lo, double hi) {
    vtkAxis* x = d_->chart->GetAxis(vtkAxis::BOTTOM);
    if (lo < hi) {
        x->SetBehavior(vtkAxis::FIXED);
        x->SetRange(lo, hi);
    } else {
        x->SetBehavior(vtkAxis::AUTO);
    }
    request_render();
}

void PlotView::clear_data() {
    for (Series& s : d_->series) {
        s.x.clear();
        s.y.clear();
        s.dirty = true;
    }
    request_render();
}

void PlotView::set_log_x(bool log) {
    d_->chart->GetAxis(vtkAxis::BOTTOM)->SetLogScale(log);
    request_render();
}

void PlotView::set_log_y(bool log) {
    d_->log_y = log;
    d_->chart->GetAxis(vtkAxis::LEFT)->SetLogScale(log);
    request_render();
}

void PlotView::prepare_render(int, int) {
    bool any = false;
    for (Series& s : d_->series) {
        if (!s.dirty) continue;
        // Rebuilding the two columns is O(n) per paint, and paints are bounded by the GUI's frame rate.
        auto* x = vtkDoubleArray::SafeDownCast(s.table->GetColumn(0));
        auto* y = vtkDoubleArray::SafeDownCast(s.table->GetColumn(1));
        x->SetNumberOfTuples(vtkIdType(s.x.size()));
        y->SetNumberOfTuples(vtkIdType(s.y.size()));
        std::copy(s.x.begin(), s.x.end(), x->GetPointer(0));
        std::copy(s.y.begin(), s.y.end(), y->GetPointer(0));
        x->Modified();
        y->Modified();
        s.table->Modified();
        s.plot->SetVisible(s.x.size() >= (s.line ? 2u : 1u)); // VTK complains about one-point lines
        s.dirty = false;
        any = true;
    }
    if (!any) return;
    d_->chart->RecalculateBounds();
    if (d_->y_headroom > 0 && !d_->log_y) {
        double lo = 0, hi = 0;
        for (const Series& s : d_->series)
            for (double y : s.y)
                if (std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y);
        vtkAxis* y = d_->chart->GetAxis(vtkAxis::LEFT);
        if (hi > lo) {
            y->SetBehavior(vtkAxis::FIXED);
            y->SetRange(lo, hi * (1 + d_->y_headroom));
        } else {
            y->SetBehavior(vtkAxis::AUTO);
        }
    }
}

QString PlotView::csv() const {
    QString out;
    QTextStream ts(&out);
    auto quote = [](QString s) { return "\"" + s.replace("\"", "\"\"") + "\""; };
    ts << "series," << quote(d_->x_title) << "," << quote(d_->y_title) << "\n";
    // Shortest text that reads back to the same double.
    auto number = [](double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); };
    for (const Series& s : d_->series)
        for (std::size_t i = 0; i < s.x.size(); ++i)
            ts << quote(s.name) << "," << number(s.x[i]) << "," << number(s.y[i]) << "\n";
    return out;
}

bool PlotView::export_csv(const QString& path) const {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) return false;
    const QByteArray bytes = csv().toUtf8();
    return f.write(bytes) == bytes.size();
}

} // namespace fwi::ui

namespace fwi::ui {
void PlotView::add_context_actions(QMenu* menu) {
    menu->addAction(tr("Save data as CSV…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save plot data"), QString(), tr("CSV files (*.csv)"));
        if (!path.isEmpty() && !export_csv(path))
            show_error(this, tr("Save plot data"), tr("Cannot write %1").arg(path));
    });
}
} // namespace fwi::ui
