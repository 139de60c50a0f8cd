#include "fwi/ui/vtk_widget.hpp"

#include "fwi/ui/messages.hpp"

#include <QApplication>
#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QMenu>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSet>
#include <QSurfaceFormat>
#include <QTimer>

#include <vtkCallbackCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include <algorithm>

namespace fwi::ui {

void set_default_surface_format() {
    QSurfaceFormat fmt;
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setStencilBufferSize(8);
    fmt.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    QSurfaceFormat::setDefaultFormat(fmt);
}

struct VtkWidget::Impl {
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkCallbackCommand> callback;
    bool context_ready = false;
    QMetaObject::Connection context_connection;
    std::int64_t render_ns = 0, last_render_ns = 0;
};

namespace {

/// Paces data-driven repaints of every VtkWidget (see request_render()). It measures what a window repaint
/// costs: an application event filter notes when an UpdateRequest starts, and the next event marks its end.
class RenderThrottle : public QObject {
  public:
    static RenderThrottle& instance() {
        static auto* throttle = new RenderThrottle(qApp);
        return *throttle;
    }
    void request(VtkWidget* w) {
        pending_.insert(w);
        if (timer_.isActive()) return;
        const qint64 wait = std::max<qint64>(0, next_allowed_ms_ - clock_.elapsed());
        timer_.start(int(wait));
    }
    void forget(VtkWidget* w) { pending_.remove(w); }

  protected:
    bool eventFilter(QObject*, QEvent* e) override {
        if (in_update_) {
            in_update_ = false;
            const qint64 cost = clock_.elapsed() - update_start_ms_;
            // Paint for at most a third of the time, and never more often than 20 times a second.
            next_allowed_ms_ = std::max(next_allowed_ms_, clock_.elapsed() + std::max<qint64>(50, 2 * cost));
        }
        if (e->type() == QEvent::UpdateRequest) {
            in_update_ = true;
            update_start_ms_ = clock_.elapsed();
        }
        return false;
    }

  private:
    explicit RenderThrottle(QObject* parent) : QObject(parent) {
        clock_.start();
        timer_.setSingleShot(true);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const auto widgets = pending_;
            pending_.clear();
            for (VtkWidget* w : widgets)
                w->update();
        });
        qApp->installEventFilter(this);
    }
    QSet<VtkWidget*> pending_;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 next_allowed_ms_ = 0, update_start_ms_ = 0;
    bool in_update_ = false;
};

void on_window_event(vtkObject*, unsigned long id, void* client, void* call_data) {
    auto* widget = static_cast<VtkWidget*>(client);
    QOpenGLContext* ctx = widget->context();
    switch (id) {
    case vtkCommand::WindowMakeCurrentEvent:
        // QOpenGLWidget::makeCurrent() would bind the widget's FBO and VTK's own framebuffer bookkeeping then
        // renders black; binding the context to its surface is what VTK expects.
        if (ctx) ctx->makeCurrent(ctx->surface());
        break;
    case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(call_data) = ctx && QOpenGLContext::currentContext() == ctx;
        break;
    default:
        break;
    }
}
} // namespace

VtkWidget::VtkWidget(QWidget* parent) : QOpenGLWidget(parent), d_(std::make_unique<Impl>()) {
    d_->window->SetReadyForRendering(false);
    d_->window->SetFrameBlitModeToNoBlit(); // paintGL blits into Qt's framebuffer itself
    d_->window->AddRenderer(d_->renderer);
    d_->callback->SetClientData(this);
    d_->callback->SetCallback(on_window_event);
    d_->window->AddObserver(vtkCommand::WindowMakeCurrentEvent, d_->callback);
    d_->window->AddObserver(vtkCommand::WindowIsCurrentEvent, d_->callback);
    setMinimumSize(120, 90);
}

void VtkWidget::request_render() {
    RenderThrottle::instance().request(this);
}

VtkWidget::~VtkWidget() {
    RenderThrottle::instance().forget(this);
    if (d_->context_ready) {
        makeCurrent();
        release_context();
    }
}

vtkRenderer* VtkWidget::renderer() const {
    return d_->renderer;
}
vtkGenericOpenGLRenderWindow* VtkWidget::render_window() const {
    return d_->window;
}

void VtkWidget::release_context() {
    if (!d_->context_ready) return;
    d_->window->Finalize(); // frees VTK's GL objects while the context still exists
    d_->window->SetReadyForRendering(false);
    d_->context_ready = false;
}

void VtkWidget::initializeGL() {
    // A floating dock re-parents the widget and Qt makes a new context: VTK must drop the old one first.
    disconnect(d_->context_connection);
    d_->context_connection = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        release_context();
        doneCurrent();
    });
    d_->window->SetForceMaximumHardwareLineWidth(1);
    d_->window->SetReadyForRendering(true);
    d_->window->SetOwnContext(0);
    d_->window->OpenGLInitContext();
    d_->context_ready = true;
}

void VtkWidget::resizeGL(int w, int h) {
    const double dpr = devicePixelRatioF();
    d_->window->SetSize(int(w * dpr), int(h * dpr));
}

double VtkWidget::render_seconds() const {
    return double(d_->render_ns) * 1e-9;
}

double VtkWidget::last_render_seconds() const {
    return double(d_->last_render_ns) * 1e-9;
}

void VtkWidget::paintGL() {
    if (!d_->context_ready) return;
    QElapsedTimer clock;
    clock.start();
    const QSize device_size = size() * devicePixelRatioF();
    d_->window->SetSize(device_size.width(), device_size.height());
    prepare_render(width(), height());
    d_->window->Render();

    // Rendering may have changed the current context (VTK calls back into makeCurrent); restore Qt's binding.
    makeCurrent();
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
    f->glDrawBuffers(1, buffers);
    const int* rendered = d_->window->GetRenderFramebuffer()->GetLastSize();
    d_->window->BlitDisplayFramebuffer(0, 0, 0, rendered[0], rendered[1], 0, 0, device_size.width(),
                                       device_size.height(), GL_COLOR_BUFFER_BIT, GL_LINEAR);
    // VTK leaves alpha at 0 where nothing was drawn; Qt would compose that as transparent.
    f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    f->glClearColor(0, 0, 0, 1);
    f->glViewport(0, 0, device_size.width(), device_size.height());
    f->glClear(GL_COLOR_BUFFER_BIT);
    f->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    // The raw GL calls above bypassed VTK's state cache: make it re-read what changed.
    vtkOpenGLState* state = d_->window->GetState();
    state->ResetFramebufferBindings();
    state->ResetGLClearColorState();
    state->ResetGLColorMaskState();
    state->ResetGLViewportState();
    d_->last_render_ns = clock.nsecsElapsed();
    d_->render_ns += d_->last_render_ns;
}

QImage VtkWidget::snapshot() {
    return grabFramebuffer();
}

bool VtkWidget::save_png(const QString& path) {
    return snapshot().save(path, "PNG");
}

void VtkWidget::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Save picture…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save picture"), QString(), tr("PNG images (*.png)"));
        if (!path.isEmpty() && !save_png(path))
            show_error(this, tr("Save picture"), tr("Cannot write %1").arg(path));
    });
    add_context_actions(&menu);
    menu.exec(event->globalPos());
}

} // namespace fwi::ui
