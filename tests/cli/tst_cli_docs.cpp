// The documentation against the program: docs/cli.md quotes each command's --help as printed, and every
// `fwi COMMAND ... --option` in docs/*.md and README.md names an option COMMAND has (docs/cluster.md once
// gave `fwi invert` a --scratch it does not have).
#include <QDir>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

#include "cli_runner.hpp"

using fwi::test::fwi_cli;
using Run = fwi::test::CliRun;

namespace {

QString read_text(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestCliDocs : public QObject {
    Q_OBJECT
    QMap<QString, QSet<QString>> options_; ///< command -> the options its --help lists

    /// The options `fwi COMMAND --help` lists (long and short), or an empty set for an unknown command.
    const QSet<QString>& options_of(const QString& command) {
        if (!options_.contains(command)) {
            QSet<QString> names;
            const Run r = fwi_cli({command, "--help"});
            static const QRegularExpression option(R"((?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*))");
            if (r.code == 0)
                for (auto it = option.globalMatch(QString::fromUtf8(r.out)); it.hasNext();)
                    names.insert(it.next().captured(1));
            options_.insert(command, names);
        }
        return options_[command];
    }

  private slots:
    /// docs/cli.md quotes each command's --help: it must be what the program prints.
    void the_cli_reference_quotes_the_real_help() {
        const QString doc = read_text(QStringLiteral(FWI_SOURCE_DIR "/docs/cli.md"));
        QVERIFY(!doc.isEmpty());
        static const QRegularExpression block("### fwi ([a-z-]+)\n```text\n(.*?)```",
                                              QRegularExpression::DotMatchesEverythingOption);
        int blocks = 0;
        for (auto it = block.globalMatch(doc); it.hasNext(); ++blocks) {
            const QRegularExpressionMatch m = it.next();
            const Run r = fwi_cli({m.captured(1), "--help"});
            QCOMPARE(r.code, 0);
            const QString help = QString::fromUtf8(r.out).replace(FWI_CLI_EXE, "fwi");
            QCOMPARE(help.trimmed(), m.captured(2).trimmed());
        }
        QCOMPARE(blocks, 13); // every subcommand
    }

    /// A command line in the docs (up to the end of its line, a backquote or a table's bar) names only the
    /// options its command has; the program's own options (--json, -q, --threads) may come before it.
    void the_docs_name_only_options_their_commands_have() {
        QStringList files{QStringLiteral(FWI_SOURCE_DIR "/README.md")};
        const QDir docs(QStringLiteral(FWI_SOURCE_DIR "/docs"));
        for (const QString& name : docs.entryList({"*.md"}, QDir::Files))
            files << docs.filePath(name);
        static const QRegularExpression command(
            R"((?:^|[`\s(])fwi((?:\s+(?:--json|-q|--quiet|--threads\s+\d+))*)\s+([a-z][a-z-]*)([^`\n|]*))",
            QRegularExpression::MultilineOption);
        static const QRegularExpression option(R"((?<![\w/.-])(--?[A-Za-z][A-Za-z0-9-]*))");
        const QSet<QString> program_options{"--json", "-q", "--quiet", "--threads", "--help", "-h"};
        int checked = 0;
        QStringList wrong;
        for (const QString& file : files) {
            const QString text = read_text(file);
            QVERIFY2(!text.isEmpty(), qPrintable(file));
            for (auto it = command.globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                const QSet<QString>& known = options_of(m.captured(2));
                if (known.isEmpty()) continue; // "fwi" in prose, not a command ("fwi studio", "fwi is")
                ++checked;
                for (auto o = option.globalMatch(m.captured(3)); o.hasNext();) {
                    const QString name = o.next().captured(1);
                    if (!program_options.contains(name) && !known.contains(name))
                        wrong << QDir(FWI_SOURCE_DIR).relativeFilePath(file) + ": fwi " + m.captured(2) +
                                     " " + name;
                }
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join('\n')));
        QVERIFY2(checked > 100, qPrintable(QString::number(checked))); // the docs' command lines were found
    }
};

QTEST_GUILESS_MAIN(TestCliDocs)
#include "tst_cli_docs.moc"
