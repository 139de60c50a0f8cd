// fwi-studio: the desktop application. All the work is in fwi_ui; this only sets up Qt and catches what escapes.
#include "fwi/ui/vtk_widget.hpp"

#include <QApplication>

int main(int argc, char** argv) {
    fwi::ui::set_default_surface_format();  // before QApplication: VTK needs an OpenGL 3.2 core context
    QApplication app(argc, argv);
    return app.exec();
}
