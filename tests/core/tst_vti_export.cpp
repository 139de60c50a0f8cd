// .vti/.pvd export: read back with VTK's own XML reader (where VTK is installed), values bit for bit, the
// grid's shape, spacing, origin and depth-down direction; clear errors for bad arrays and paths; .pvd series.
#include "fwi/error.hpp"
#include "fwi/vti_export.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>

#ifdef FWI_HAVE_VTK_READER
#include <vtkDataArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkMatrix3x3.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataReader.h>
#endif

using namespace fwi;

namespace {

std::vector<float> ramp(const Grid& g, float scale) {
    std::vector<float> v(std::size_t(g.cells()));
    for (std::int64_t iz = 0; iz < g.nz(); ++iz)
        for (std::int64_t ix = 0; ix < g.nx(); ++ix)
            v[g.index(iz, ix)] = scale * float(100 * iz + ix) + 0.125f;
    return v;
}

} // namespace

class TestVtiExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path path(const char* name) const { return dir_.filePath(name).toStdString(); }

  private slots:
    void a_vti_reads_back_with_vtk() {
#ifndef FWI_HAVE_VTK_READER
        QSKIP("VTK's IOXML module is not installed: the file is checked by the other tests only");
#else
        const Grid g(7, 5, 2.5, 10.0); // nz 7, nx 5: distinct sizes catch a transposition
        const auto vp = ramp(g, 1.0f), grad = ramp(g, -3.0e-7f);
        write_vti(path("m.vti"), g,
                  {{"vp_mps", {vp.data(), g.nz(), g.nx()}}, {"gradient", {grad.data(), g.nz(), g.nx()}}});
        vtkNew<vtkXMLImageDataReader> reader;
        reader->SetFileName(path("m.vti").c_str());
        reader->Update();
        vtkImageData* image = reader->GetOutput();
        int dims[3];
        image->GetDimensions(dims);
        QCOMPARE(dims[0], 5); // VTK x = the model's x
        QCOMPARE(dims[1], 7); // VTK y = depth
        QCOMPARE(dims[2], 1);
        double spacing[3], origin[3];
        image->GetSpacing(spacing);
        image->GetOrigin(origin);
        QCOMPARE(spacing[0], 10.0);
        QCOMPARE(spacing[1], 2.5);
        QCOMPARE(origin[0], 0.0);
        QCOMPARE(origin[1], 0.0);
        QCOMPARE(image->GetDirectionMatrix()->GetElement(1, 1), -1.0); // depth points down
        for (const auto& [name, values] : {std::pair{"vp_mps", &vp}, std::pair{"gradient", &grad}}) {
            vtkDataArray* a = image->GetPointData()->GetArray(name);
            QVERIFY2(a != nullptr, name);
            QCOMPARE(a->GetNumberOfTuples(), vtkIdType(g.cells()));
            QVERIFY(vtkFloatArray::SafeDownCast(a) != nullptr);
            for (std::int64_t iz = 0; iz < g.nz(); ++iz)
                for (std::int64_t ix = 0; ix < g.nx(); ++ix) {
                    // VTK's point (i, j) has id j * nx + i: the same cell as the model's (iz = j, ix = i).
                    const double back = a->GetComponent(vtkIdType(iz * g.nx() + ix), 0);
                    QCOMPARE(float(back), (*values)[g.index(iz, ix)]);
                }
        }
#endif
    }

    void a_volume_reads_back_with_vtk_depth_down_z() {
#ifndef FWI_HAVE_VTK_READER
        QSKIP("VTK's IOXML module is not installed");
#else
        const Grid g(4, 3, 5, 2.5, 7.5, 10.0); // nz 4, ny 3, nx 5: distinct sizes catch a transposition
        std::vector<float> v(std::size_t(g.cells()));
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = float(i) * 0.5f + 0.125f;
        write_vti(path("cube.vti"), g, {{"vp_mps", {v.data(), g.rows(), g.nx(), g.ny()}}});
        vtkNew<vtkXMLImageDataReader> reader;
        reader->SetFileName(path("cube.vti").c_str());
        reader->Update();
        vtkImageData* image = reader->GetOutput();
        int dims[3];
        image->GetDimensions(dims);
        QCOMPARE(dims[0], 5); // x
        QCOMPARE(dims[1], 3); // y
        QCOMPARE(dims[2], 4); // depth
        double spacing[3];
        image->GetSpacing(spacing);
        QCOMPARE(spacing[0], 10.0);
        QCOMPARE(spacing[1], 7.5);
        QCOMPARE(spacing[2], 2.5);
        QCOMPARE(image->GetDirectionMatrix()->GetElement(2, 2), -1.0); // depth points down
        QCOMPARE(image->GetDirectionMatrix()->GetElement(1, 1), 1.0);
        vtkDataArray* a = image->GetPointData()->GetArray("vp_mps");
        QVERIFY(a != nullptr);
        for (std::int64_t iz = 0; iz < g.nz(); ++iz)
            for (std::int64_t iy = 0; iy < g.ny(); ++iy)
                for (std::int64_t ix = 0; ix < g.nx(); ++ix) {
                    // VTK's point (i, j, k) has id (k * ny + j) * nx + i: the model's (iz = k, iy = j, ix =
                    // i).
                    const vtkIdType id = vtkIdType((iz * g.ny() + iy) * g.nx() + ix);
                    QCOMPARE(float(a->GetComponent(id, 0)), v[g.index(iz, iy, ix)]);
                }
        // A 2D-shaped view of a volume is refused.
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 write_vti(path("bad.vti"), g, {{"vp_mps", {v.data(), g.nz(), g.nx()}}}));
#endif
    }

    void bad_arrays_and_paths_are_clear_errors() {
        const Grid g(4, 3, 10.0, 10.0);
        const std::vector<float> v(12, 1.0f), short_v(11, 1.0f);
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_vti(path("a.vti"), g, {}));
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_vti(path("a.vti"), g, {{"vp", {short_v.data(), 1, 11}}}));
        QVERIFY_THROWS_EXCEPTION(ConfigError, write_vti(path("a.vti"), g, {{"v p\"<", {v.data(), 4, 3}}}));
        QVERIFY(!std::filesystem::exists(path("a.vti")));
        try {
            write_vti("/nonexistent-dir/a.vti", g, {{"vp", {v.data(), 4, 3}}});
            QFAIL("no error for an unwritable path");
        } catch (const ResourceError& e) {
            QVERIFY2(std::string(e.what()).find("/nonexistent-dir/a.vti") != std::string::npos, e.what());
        }
        // Nothing but the finished file is ever left in the directory.
        std::filesystem::create_directories(path("clean"));
        write_vti(path("clean/ok.vti"), g, {{"vp", {v.data(), 4, 3}}});
        int files = 0;
        for (const auto& e : std::filesystem::directory_iterator(path("clean"))) {
            ++files;
            QCOMPARE(e.path().filename().string(), std::string("ok.vti"));
        }
        QCOMPARE(files, 1);
    }

    void a_pvd_lists_its_series_relative_to_itself() {
        std::filesystem::create_directories(path("series"));
        write_pvd(
            path("series.pvd"),
            {{0.0, path("series/w_0.vti")}, {0.25, path("series/w_1.vti")}, {0.5, "/elsewhere/w_2.vti"}});
        QFile f(QString::fromStdString(path("series.pvd").string()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QStringList files;
        QList<double> times;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("DataSet")) {
                files << xml.attributes().value("file").toString();
                times << xml.attributes().value("timestep").toDouble();
            }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(files, QStringList({"series/w_0.vti", "series/w_1.vti", "/elsewhere/w_2.vti"}));
        QCOMPARE(times, QList<double>({0.0, 0.25, 0.5}));
    }
};

QTEST_GUILESS_MAIN(TestVtiExport)
#include "tst_vti_export.moc"
