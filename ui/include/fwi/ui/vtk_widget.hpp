#pragma once
// A Qt6 QOpenGLWidget that drives a vtkGenericOpenGLRenderWindow. Debian's VTK Qt module is built for Qt5, so
// the embedding is done here: VTK renders into its own framebuffer inside Qt's context, and paintGL blits
// that into the widget's framebuffer. Requires the default surface format set by
// fwi::ui::set_default_surface_format() before the QApplication exists, and an X server (tests run under
// xvfb-run).
#include <QImage>
#include <QOpenGLWidget>

#include <memory>

class QMenu;
class vtkGenericOpenGLRenderWindow;
class vtkRenderer;

namespace fwi::ui {

/// OpenGL 3.2 core with depth and stencil: what VTK's OpenGL2 backend needs. Call before constructing
/// QApplication.
void set_default_surface_format();

class VtkWidget : public QOpenGLWidget {
    Q_OBJECT
  public:
    explicit VtkWidget(QWidget* parent = nullptr);
    ~VtkWidget() override;

    vtkRenderer* renderer() const;
    vtkGenericOpenGLRenderWindow* render_window() const;

    /// Renders now and returns what the user sees (the widget's framebuffer).
    QImage snapshot();
    /// Writes snapshot() as PNG; false if the file cannot be written.
    bool save_png(const QString& path);

    /// Asks for a repaint for new data (not for user interaction, which calls update()). Requests from all
    /// views are coalesced and paced so that painting takes at most about a third of the GUI thread's time:
    /// with software OpenGL (Xvfb, remote desktops) one window repaint can take a large fraction of a second,
    /// and live data must never starve the event loop.
    void request_render();
    /// Seconds this widget has spent painting (paintGL) since it was made: what drawing it costs.
    double render_seconds() const;
    /// Seconds the last paint took (0 before the first): what drawing new data will cost.
    double last_render_seconds() const;

  protected:
    /// Right click: "Save picture…" (PNG of what the view shows: axes, titles, colour bar), plus what
    /// subclasses add.
    void contextMenuEvent(QContextMenuEvent* event) override;
    virtual void add_context_actions(QMenu* /*menu*/) {}
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    /// Called before every VTK render, with the widget's size in logical pixels: sync cameras, overlays, etc.
    virtual void prepare_render(int /*width_px*/, int /*height_px*/) {}

  private:
    void release_context();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace fwi::ui
