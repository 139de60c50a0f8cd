// save_project_back: a project is saved over the file it was read from only while that file is the version it
// was read as. Two programs working on one project (the desktop application and `fwi invert`, two terminals)
// used to overwrite each other's saves without a word; now the second save is refused and the file keeps the
// first one's work.
#include "fwi/error.hpp"
#include "fwi/file_version.hpp"
#include "fwi/project.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>

using namespace fwi;

namespace {

Project small_project(float velocity) {
    Project p;
    p.experiment.true_model.grid = Grid(8, 10, 10.0, 10.0);
    p.experiment.true_model.vp_mps.assign(80, velocity);
    p.experiment.current_model = p.experiment.true_model;
    p.experiment.acquisition.shots = {{{50.0, 10.0}, {{20.0, 10.0}, {80.0, 10.0}}}};
    return p;
}

QByteArray bytes_of(const std::string& path) {
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestProjectSaveBack : public QObject {
    Q_OBJECT

  private slots:
    void aProjectSavesBackOverItsUnchangedFileAgainAndAgain() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, small_project(2000));
        Project p = load_project(path);
        QCOMPARE(p.file_version, file_version(path));
        for (float v : {2100.0f, 2200.0f}) { // each save is the version the next one checks against
            p.experiment.current_model.vp_mps.assign(80, v);
            save_project_back(path, p);
            QCOMPARE(p.file_version, file_version(path));
            QCOMPARE(load_project(path).experiment.current_model.vp_mps.front(), v);
        }
    }

    void aFileAnotherProgramWroteIsNotOverwritten() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, small_project(2000));
        Project mine = load_project(path);
        Project theirs = load_project(path);
        theirs.experiment.current_model.vp_mps.assign(80, 2500.0f);
        save_project_back(path, theirs); // the other program saves first
        const QByteArray written = bytes_of(path);
        mine.experiment.current_model.vp_mps.assign(80, 3000.0f);
        try {
            save_project_back(path, mine);
            QFAIL("saved over a file another program wrote");
        } catch (const ProjectChangedError& e) {
            QVERIFY2(QString(e.what()).contains("changed since it was read"), e.what());
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(path)), e.what());
        }
        QCOMPARE(bytes_of(path), written);
        // Read again, the file is the version to save over.
        Project again = load_project(path);
        QCOMPARE(again.experiment.current_model.vp_mps.front(), 2500.0f);
        again.experiment.current_model.vp_mps.assign(80, 3000.0f);
        save_project_back(path, again);
        QCOMPARE(load_project(path).experiment.current_model.vp_mps.front(), 3000.0f);
    }

    /// A write in place that keeps the size and puts the modification time back still moves the change time.
    void aWriteInPlaceThatHidesItsTimeIsSeen() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        save_project(path, small_project(2000));
        Project p = load_project(path);
        struct stat before {};
        QCOMPARE(::stat(path.c_str(), &before), 0);
        QTest::qWait(20); // past the kernel's clock tick, which the change time has
        {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::ReadWrite));
            const QByteArray all = f.readAll();
            QVERIFY(f.seek(0));
            QCOMPARE(f.write(all), all.size()); // the same bytes, written again
        }
        const timespec times[2] = {before.st_atim, before.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
        QVERIFY_THROWS_EXCEPTION(ProjectChangedError, save_project_back(path, p));
    }

    /// A project made in memory has no file version: saved as save_project saves.
    void aProjectMadeInMemoryIsSaved() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.fwi").toStdString();
        Project p = small_project(2000);
        QVERIFY(!p.file_version.exists());
        save_project_back(path, p);
        QCOMPARE(p.file_version, file_version(path));
        QVERIFY(!file_version(dir.filePath("missing.fwi").toStdString()).exists());
    }
};

QTEST_GUILESS_MAIN(TestProjectSaveBack)
#include "tst_project_save_back.moc"
