// Byte counts in messages: rounded figures, and exact counts whenever rounding would hide a difference.
#include "fwi/byte_text.hpp"

#include <QtTest>

using namespace fwi;

class TestByteText : public QObject {
    Q_OBJECT
  private slots:
    void rounded_texts() {
        QCOMPARE(bytes_text(0), std::string("0 B"));
        QCOMPARE(bytes_text(1023), std::string("1023 B"));
        QCOMPARE(bytes_text(1536), std::string("1.5 KiB"));
        QCOMPARE(bytes_text(2439680), std::string("2.327 MiB"));
        QCOMPARE(bytes_text(std::uint64_t(5) << 30), std::string("5 GiB"));
        QCOMPARE(exact_bytes_text(2439680), std::string("2,439,680 B"));
        QCOMPARE(exact_bytes_text(999), std::string("999 B"));
        QCOMPARE(exact_bytes_text(1000), std::string("1,000 B"));
    }

    void equal_rounded_figures_get_exact_counts() {
        // The first-hour report: 2439680 needed, 2439679 allowed, both "2.327 MiB".
        const auto [need, budget] = compared_bytes(2439680, 2439679);
        QCOMPARE(need, std::string("2.327 MiB (2,439,680 B)"));
        QCOMPARE(budget, std::string("2.327 MiB (2,439,679 B)"));
        QVERIFY(need != budget);
    }

    void distinct_rounded_figures_stay_short() {
        const auto [need, budget] = compared_bytes(std::uint64_t(3) << 20, std::uint64_t(2) << 20);
        QCOMPARE(need, std::string("3 MiB"));
        QCOMPARE(budget, std::string("2 MiB"));
        const auto [a, b] = compared_bytes(4096, 4096); // equal counts: nothing to disambiguate
        QCOMPARE(a, b);
        QCOMPARE(a, std::string("4 KiB"));
    }
};

QTEST_GUILESS_MAIN(TestByteText)
#include "tst_byte_text.moc"
