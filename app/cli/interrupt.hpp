#pragma once
// How every fwi command stops on Ctrl-C (SIGINT) or SIGTERM: the first signal cancels the process-wide token,
// which the engine polls between steps; fwi::Cancelled then unwinds the command (destructors remove scratch
// files; a project is only ever replaced atomically, so it is either the old or the new one) and main() exits
// 130. The handler is reset by the first signal, so a second Ctrl-C ends the process at once.
//
// SIGXFSZ (file size limit) is ignored, so that writing past the limit fails with EFBIG and is reported like
// a full disk (exit 3) instead of killing the process.
#include "fwi/events.hpp"

namespace fwi::cli {

/// Installs the handlers above; call once at the start of main().
void install_signal_handling();

/// The token every long command passes to the engine.
CancelToken& interrupt_token();

} // namespace fwi::cli
