#pragma once
// Non-temporal ("streaming") stores: floats written to memory past the caches, without the read of each line
// that an ordinary store makes first (the whole line is overwritten anyway). For data written once and read
// again much later: a gradient's kept snapshots, a fresh padded field per forward step that the adjoint sweep
// reads seconds later (measured, 1048^2 order 8 on two threads: a step writing its snapshot into fresh
// memory with ordinary stores took 0.76-0.86 ms, streamed 0.48-0.61 ms, one without a snapshot 0.36 ms).
// The stores are weakly ordered: a thread calls stream_fence() after its last one, before another thread
// may read what it streamed.
#include <cstdint>

#if defined(__SSE__)
#include <immintrin.h>
#endif

namespace fwi::cpu {

/// dst[0, n) = src[0, n), dst on a cache line (cache_line.hpp); vectors streamed, the last partial one
/// stored.
inline void stream_copy(float* __restrict dst, const float* __restrict src, std::int64_t n) {
    std::int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16)
        _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
#elif defined(__AVX__)
    for (; i + 8 <= n; i += 8)
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
#elif defined(__SSE__)
    for (; i + 4 <= n; i += 4)
        _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
#endif
    for (; i < n; ++i)
        dst[i] = src[i];
}

/// Orders this thread's streamed stores before its later stores (and so before a barrier's release).
inline void stream_fence() {
#if defined(__SSE__)
    _mm_sfence();
#endif
}

} // namespace fwi::cpu
