// fwi: the FWI Studio command line. Exit codes: 0 success, 2 bad input, 3 resources (memory budget, disk),
// 130 cancelled (Ctrl-C, SIGTERM: interrupt.hpp), 1 anything else. Errors print one line naming the fault on
// stderr.
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/threading.hpp"
#include "interrupt.hpp"

#include <iostream>
#ifdef FWI_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

int main(int argc, char** argv) {
    fwi::ensure_passive_openmp_wait(argc, argv); // may re-execute the program: first, before any thread starts
    fwi::cli::install_signal_handling();
#ifdef FWI_HAVE_CUDA
    fwi::gpu::register_cuda_backend();
#endif
    CLI::App app{"fwi: FWI Studio command line (full-waveform inversion experiments)"};
    app.require_subcommand(1);
    app.fallthrough();
    bool json = false, quiet = false;
    int threads = 0;
    fwi::cli::CommandAction action;
    app.add_flag("--json", json, "print one JSON object summarising the result on stdout");
    app.add_flag("-q,--quiet", quiet, "no progress bar or human-readable summary");
    app.add_option("--threads", threads,
                   "OpenMP threads for the engine (default: OMP_NUM_THREADS, else every core)")
        ->check(CLI::Range(1, 4096));
    fwi::cli::CommandRegistry registry{app, json, quiet, &action};
    fwi::cli::add_new_command(registry);
    fwi::cli::add_info_command(registry);
    fwi::cli::add_forward_command(registry);
    fwi::cli::add_import_command(registry);
    fwi::cli::add_gradient_command(registry);
    fwi::cli::add_plan_command(registry);
    fwi::cli::add_invert_command(registry);
    fwi::cli::add_taylor_command(registry);
    fwi::cli::add_bench_command(registry);
    fwi::cli::add_bench_checkpoints_command(registry);
    fwi::cli::add_demo_command(registry);
    fwi::cli::add_export_command(registry);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    if (threads > 0) fwi::set_thread_count(threads);
    try {
        nlohmann::json summary = action();
        if (summary.is_object()) summary["threads"] = fwi::thread_count();
        if (json) std::cout << summary.dump() << std::endl;
        return 0;
    } catch (const fwi::Cancelled&) {
        std::cerr << "fwi: cancelled\n";
        return 130;
    } catch (const fwi::ConfigError& e) {
        std::cerr << "fwi: error: " << e.what() << "\n";
        return 2;
    } catch (const fwi::FormatError& e) {
        std::cerr << "fwi: error: " << e.what() << "\n";
        return 2;
    } catch (const fwi::ResourceError& e) {
        std::cerr << "fwi: error: " << e.what() << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "fwi: error: " << e.what() << "\n";
        return 1;
    }
}
