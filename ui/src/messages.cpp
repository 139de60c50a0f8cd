#include "fwi/ui/messages.hpp"

#include <QMessageBox>

namespace fwi::ui {
namespace {
// GUI-thread only, like every widget.
QString g_last;
int g_count = 0;
bool g_boxes = true;
} // namespace

void show_error(QWidget* parent, const QString& title, const QString& text) {
    g_last = text;
    ++g_count;
    if (g_boxes) QMessageBox::warning(parent, title, text);
}

void show_info(QWidget* parent, const QString& title, const QString& text) {
    if (g_boxes) QMessageBox::information(parent, title, text);
}

QString last_error() {
    return g_last;
}
int error_count() {
    return g_count;
}
void set_message_boxes(bool enabled) {
    g_boxes = enabled;
}

Answer ask(QWidget* parent, const QString& title, const QString& text, bool with_cancel, Answer unattended) {
    if (!g_boxes) return unattended;
    auto buttons = QMessageBox::Yes | QMessageBox::No;
    if (with_cancel) buttons |= QMessageBox::Cancel;
    const auto r = QMessageBox::question(parent, title, text, buttons,
                                         with_cancel ? QMessageBox::Cancel : QMessageBox::No);
    return r == QMessageBox::Yes ? Answer::Yes : r == QMessageBox::No ? Answer::No : Answer::Cancel;
}

} // namespace fwi::ui
