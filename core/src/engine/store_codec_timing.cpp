#include "engine/store_codec_timing.hpp"

#include "runtime/saved_thread_count.hpp"

#include <algorithm>

namespace fwi {

int store_codec_parallelism() {
    return std::max(1, std::min(store_worker_threads, omp_get_max_threads()));
}

double store_codec_core_sharing(bool cpu_propagation) {
    const bool shared =
        cpu_propagation && omp_get_max_threads() + store_codec_parallelism() > omp_get_num_procs();
    return shared ? 1.5 : 1.0;
}

CodecTiming measure_store_codec(const Codec& codec, ConstFieldView field, int repeats) {
    CodecTiming t = measure_codec(codec, field, repeats);
    if (omp_get_max_threads() > 1) {
        const int parallel = store_codec_parallelism();
        const SavedThreadCount saved;
        omp_set_num_threads(1);
        t.compress_seconds = measure_codec(codec, field, repeats).compress_seconds / double(parallel);
    }
    return t;
}

} // namespace fwi
