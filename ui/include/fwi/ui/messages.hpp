#pragma once
// The one place the GUI tells the user that something was refused or failed. Messages are also recorded so
// that tests (and the status bar) can read the last one; tests switch the modal box off with
// set_message_boxes(false).
#include <QString>

class QWidget;

namespace fwi::ui {

/// Shows a warning box (unless disabled) and records the message.
void show_error(QWidget* parent, const QString& title, const QString& text);
/// Shows an information box (unless disabled): something finished and where its result is.
void show_info(QWidget* parent, const QString& title, const QString& text);
/// The last message shown ("" if none) and how many were shown since start.
QString last_error();
int error_count();
void set_message_boxes(bool enabled);

enum class Answer { Yes, No, Cancel };
/// A yes / no (/ cancel) question. With message boxes disabled it returns `unattended` without asking.
Answer ask(QWidget* parent, const QString& title, const QString& text, bool with_cancel, Answer unattended);

} // namespace fwi::ui
