#include "engine/store_codec_timing.hpp"

#include "runtime/saved_thread_count.hpp"

namespace fwi {

CodecTiming measure_store_codec(const Codec& codec, ConstFieldView field, int repeats) {
    CodecTiming t = measure_codec(codec, field, repeats);
    const int team = omp_get_max_threads();
    if (team > 1) {
        const SavedThreadCount saved;
        omp_set_num_threads(1);
        t.compress_seconds = measure_codec(codec, field, repeats).compress_seconds / double(team);
    }
    return t;
}

} // namespace fwi
