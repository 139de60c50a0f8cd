#pragma once
// Line and point plots drawn with VTK's vtkChartXY inside the same QOpenGLWidget scheme as the image views.
// Series are appended to live (the redraw is coalesced to the next paint) and any plot's data exports as CSV.
#include "fwi/ui/vtk_widget.hpp"

#include <QColor>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace fwi::ui {

enum class SeriesStyle { Line, Points };

class PlotView : public VtkWidget {
    Q_OBJECT
  public:
    PlotView(const QString& title, const QString& x_title, const QString& y_title, QWidget* parent = nullptr);
    ~PlotView() override;

    /// Returns the series id.
    int add_series(const QString& name, QColor color, SeriesStyle style = SeriesStyle::Line,
                   float width = 2.0f);
    int series_count() const;
    QString series_name(int id) const;
    /// The id of the series with this name, or -1.
    int find_series(const QString& name) const;
    void set_series(int id, std::vector<double> x, std::vector<double> y);
    void append(int id, double x, double y);
    std::size_t point_count(int id) const;
    const std::vector<double>& series_x(int id) const;
    const std::vector<double>& series_y(int id) const;
    /// Per-point tooltip texts for a series (shown on hover instead of "x, y"); empty restores the default.
    void set_point_labels(int id, const QStringList& labels);
    void set_title(const QString& title);
    void set_x_title(const QString& title);
    QString x_title() const;
    /// The y axis reaches `fraction` above the highest point (0: VTK's automatic range), so that a line at
    /// the top of the data (a budget) is not drawn on the frame.
    void set_y_headroom(double fraction);
    /// The legend in the top-left corner instead of the top-right (where a plot's latest points usually are).
    void set_legend_left();
    /// Fixes the x range (lo >= hi: automatic again).
    void set_x_range(double lo, double hi);
    /// Removes every point (series stay).
    void clear_data();
    void set_log_y(bool log);
    void set_log_x(bool log);

    /// series,x,y rows with a header naming the axes.
    QString csv() const;
    /// Writes csv(); false if the file cannot be written.
    bool export_csv(const QString& path) const;
    QString title() const;

  protected:
    void prepare_render(int width_px, int height_px) override;
    void add_context_actions(QMenu* menu) override; ///< "Save data as CSV…"

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
