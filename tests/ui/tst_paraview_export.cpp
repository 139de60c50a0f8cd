// File › Export to ParaView: the project's current, true and initial models, its gradient and each history
// iteration are written as .vti files that VTK's own XML reader reads back to the same values, bit for bit,
// on the model grid (depth down); history.pvd lists the iterations in order; an unwritable folder is refused
// with a message naming it and the project is untouched.
#include "fwi/ui/demo_projects.hpp"
#include "fwi/ui/main_window.hpp"
#include "fwi/ui/messages.hpp"
#include "fwi/ui/paraview_export.hpp"
#include "fwi/ui/project_document.hpp"
#include "ui_test_main.hpp"

#include <QFile>
#include <QPlainTextEdit>
#include <QTemporaryDir>

#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataReader.h>

using namespace fwi;
using namespace fwi::ui;

namespace {

/// The toy demo with a gradient and two history records (synthetic values that differ cell by cell).
Project exported_project() {
    Project p = make_demo_project("toy");
    const Grid& g = p.experiment.true_model.grid;
    p.gradient.resize(std::size_t(g.cells()));
    for (std::size_t i = 0; i < p.gradient.size(); ++i)
        p.gradient[i] = float(i % 97) * 1e-3f - 0.05f;
    p.experiment.current_model = p.experiment.initial_model;
    for (int it = 1; it <= 2; ++it) {
        IterationRecord r;
        r.iteration = it;
        r.model = p.experiment.initial_model;
        for (float& v : r.model.vp_mps)
            v += 10.f * float(it);
        r.gradient = p.gradient;
        for (float& v : r.gradient)
            v *= float(it);
        p.history.push_back(std::move(r));
    }
    p.experiment.current_model = p.history.back().model;
    return p;
}

/// The named array of a .vti as VTK reads it; checks the image's shape and spacing against the grid.
std::vector<float> read_array(const QString& path, const char* name, const Grid& g) {
    vtkNew<vtkXMLImageDataReader> reader;
    reader->SetFileName(path.toStdString().c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    int dims[3];
    image->GetDimensions(dims);
    double spacing[3];
    image->GetSpacing(spacing);
    if (dims[0] != g.nx() || dims[1] != g.nz() || dims[2] != 1 || spacing[0] != g.dx() ||
        spacing[1] != g.dz())
        return {};
    auto* a = vtkFloatArray::SafeDownCast(image->GetPointData()->GetArray(name));
    if (!a) return {};
    return std::vector<float>(a->GetPointer(0), a->GetPointer(0) + a->GetNumberOfTuples());
}

} // namespace

class TestParaviewExport : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { set_message_boxes(false); }
    void files_read_back_bit_for_bit();
    void unwritable_folder_is_refused();
};

void TestParaviewExport::files_read_back_bit_for_bit() {
    MainWindow w;
    const Project p = exported_project();
    w.document()->reset(p, {});
    QTemporaryDir dir;
    QVERIFY(w.export_to_paraview(dir.filePath("out")));
    const Grid& g = p.experiment.true_model.grid;
    const QString out = dir.filePath("out");
    QCOMPARE(read_array(out + "/model.vti", "vp_current", g), p.experiment.current_model.vp_mps);
    QCOMPARE(read_array(out + "/model.vti", "vp_true", g), p.experiment.true_model.vp_mps);
    QCOMPARE(read_array(out + "/model.vti", "vp_initial", g), p.experiment.initial_model.vp_mps);
    QCOMPARE(read_array(out + "/gradient.vti", "gradient", g), p.gradient);
    for (int it = 1; it <= 2; ++it) {
        const QString file = out + QString("/history/iteration_%1.vti").arg(it, 5, 10, QChar('0'));
        QCOMPARE(read_array(file, "vp_mps", g), p.history[std::size_t(it - 1)].model.vp_mps);
        QCOMPARE(read_array(file, "gradient", g), p.history[std::size_t(it - 1)].gradient);
    }
    QFile pvd(out + "/history.pvd");
    QVERIFY(pvd.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(pvd.readAll());
    const int first = text.indexOf("history/iteration_00001.vti"),
              second = text.indexOf("history/iteration_00002.vti");
    QVERIFY2(first > 0 && second > first, qPrintable(text));
    QVERIFY(w.findChild<QPlainTextEdit*>("log")->toPlainText().contains("Exported to ParaView"));
}

void TestParaviewExport::unwritable_folder_is_refused() {
    MainWindow w;
    w.document()->reset(exported_project(), {});
    QTemporaryDir dir;
    QFile blocker(dir.filePath("file"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const int errors = error_count();
    QVERIFY(!w.export_to_paraview(dir.filePath("file/out"))); // a folder under a plain file
    QCOMPARE(error_count(), errors + 1);
    QVERIFY2(last_error().contains(dir.filePath("file/out")), qPrintable(last_error()));
    QVERIFY(!w.document()->dirty());
}

FWI_UI_TEST_MAIN(TestParaviewExport)
#include "tst_paraview_export.moc"
