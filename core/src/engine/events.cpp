#include "fwi/events.hpp"

#include "fwi/error.hpp"

#include <thread>

namespace fwi {

const char* to_string(EventType t) {
    switch (t) {
    case EventType::RunStart:
        return "run_start";
    case EventType::RunEnd:
        return "run_end";
    case EventType::ShotStart:
        return "shot_start";
    case EventType::ShotEnd:
        return "shot_end";
    case EventType::ForwardStep:
        return "forward";
    case EventType::Recompute:
        return "recompute";
    case EventType::AdjointStep:
        return "adjoint";
    case EventType::Store:
        return "store";
    case EventType::Load:
        return "load";
    case EventType::Free:
        return "free";
    case EventType::Compress:
        return "compress";
    case EventType::Decompress:
        return "decompress";
    case EventType::Message:
        return "message";
    }
    return "unknown";
}

void CancelToken::checkpoint() const {
    while (paused() && !cancelled())
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (cancelled()) throw Cancelled();
}

} // namespace fwi
