#pragma once
// Flush denormals to zero (FTZ) and treat denormal inputs as zero (DAZ) on the calling thread. Wavefields
// decay into the denormal range in the PML and ahead of the wavefront, where x86 arithmetic takes a
// micro-coded path ~100x slower; values below 1e-38 carry no information here. Called at the top of every
// kernel parallel region (the setting is per thread), so results do not depend on which thread ran which
// rows.
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace fwi {

inline void flush_denormals() {
#if defined(__SSE__) || defined(_M_X64)
    _mm_setcsr(_mm_getcsr() | 0x8040); // FTZ (bit 15) | DAZ (bit 6)
#endif
}

} // namespace fwi
