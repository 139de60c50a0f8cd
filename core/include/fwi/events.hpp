#pragma once
// The engine's event stream and cooperative control. Observers must be cheap: the engine calls on_event from
// the computing thread; UIs throttle and queue. Fields are copied only when an observer asks for them.
#include "fwi/field.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

enum class EventType {
    RunStart,
    RunEnd,
    ShotStart,
    ShotEnd,
    ForwardStep, ///< first-time forward step(s) (count in `steps`)
    Recompute,   ///< forward steps repeated for checkpointing
    AdjointStep,
    Store,
    Load,
    Free,
    Compress,
    Decompress,
    Message
};
const char* to_string(EventType t);

struct Event {
    EventType type = EventType::Message;
    double wall_s = 0;      ///< seconds since the run started
    std::int64_t step = 0;  ///< simulated (inner) step
    std::int64_t steps = 1; ///< how many steps this event covers
    int shot = -1;
    int tier = -1;
    std::uint64_t bytes = 0;                   ///< bytes moved (store/load), or stored (compress)
    double seconds = 0;                        ///< duration, where meaningful
    std::vector<std::uint64_t> bytes_per_tier; ///< bytes in use per tier after the event
    std::string text;                          ///< for Message
};

enum class FieldKind { ForwardWavefield, AdjointWavefield, Gradient, Model };

class Observer {
  public:
    virtual ~Observer() = default;
    virtual void on_event(const Event&) {}
    /// Return true to receive on_field for this kind at this step; keep it cheap (e.g. every k steps,
    /// rate-limited).
    virtual bool wants_field(FieldKind, std::int64_t /*step*/) { return false; }
    /// The field is valid only during the call; copy what you keep. Model-region only (no PML), layout (z,
    /// x).
    virtual void on_field(FieldKind, std::int64_t /*step*/, ConstFieldView) {}
};

/// Cooperative cancel/pause, polled by the engine between steps.
class CancelToken {
  public:
    void cancel() { cancelled_.store(true); }
    void pause(bool p) { paused_.store(p); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
    bool paused() const { return paused_.load(std::memory_order_relaxed); }
    /// Throws Cancelled if cancelled; sleeps while paused (still honouring cancel).
    void checkpoint() const;

  private:
    std::atomic<bool> cancelled_{false};
    std::atomic<bool> paused_{false};
};

} // namespace fwi
