// fwi: the FWI Studio command line. Exit codes: 0 success, 2 bad input, 3 resources (memory budget, disk),
// 130 cancelled (Ctrl-C, SIGTERM: interrupt.hpp), 1 anything else. Errors print one line naming the fault on
// stderr.
#include "commands.hpp"
#include "fwi/error.hpp"
#include "fwi/threading.hpp"
#include "input_check.hpp"
#include "interrupt.hpp"
#include "job.hpp"
#include "progress.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#ifdef FWI_HAVE_MPI
#include "mpi_communicator.hpp"
#endif
#ifdef FWI_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace {

/// An error on one rank of several stops every rank with this rank's exit code (MPI_Abort): the others may
/// be waiting for it in a collective. Rank 0 writes the project atomically, so it is never left half written.
int finish(int code) {
    fwi::Communicator& job = fwi::cli::job();
    if (code != 0 && job.size() > 1) {
        std::cerr.flush();
        // Interrupted: every rank got the signal and stops by itself; exiting without MPI_Finalize makes
        // mpirun end the rest and report this rank's 130 (MPI_Abort's status is not passed through).
        if (code == 130) std::_Exit(code);
        job.abort(code);
    }
    return code;
}

/// Writes one line of the report in one write. std::cerr is unbuffered, so `<<` piece by piece is one write
/// per piece, and under mpirun each write is forwarded on its own: MPI_Abort's banner was seen landing
/// between a rank's "fwi: rank 1: " and the "error: ..." that followed it.
void report(const std::string& line) {
    std::cerr.write(line.data(), std::streamsize(line.size()));
    std::cerr.flush();
}

std::string rank_prefix() {
    const fwi::Communicator& job = fwi::cli::job();
    return job.size() > 1 ? "fwi: rank " + std::to_string(job.rank()) + ": " : "fwi: ";
}

} // namespace

int main(int argc, char** argv) {
    // May re-execute the program, so it comes first, before any thread starts.
    fwi::ensure_passive_openmp_wait(argc, argv);
    bool under_mpi = false;
#ifdef FWI_HAVE_MPI
    under_mpi = fwi::mpi::launched_by_mpi();
#endif
    try {
        fwi::cli::isolate_untrusted_reads(argc, argv, under_mpi);
    } catch (const fwi::Error& e) { // under mpirun, an input file that crashes libhdf5; every rank stops here
        report(std::string("fwi: error: ") + e.what() + "\n");
        return dynamic_cast<const fwi::ResourceError*>(&e) ? 3 : 2;
    }
#ifdef FWI_HAVE_MPI
    // The same binary runs alone or under mpirun: MPI is initialised only when an MPI launcher started us.
    std::unique_ptr<fwi::mpi::MpiCommunicator> mpi;
    if (under_mpi) {
        mpi = std::make_unique<fwi::mpi::MpiCommunicator>(argc, argv);
        fwi::cli::set_job(*mpi);
    }
#endif
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
        ->check(CLI::Range(1, fwi::max_thread_count));
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
    fwi::cli::add_plot_command(registry);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::ostringstream message;
        const int code = app.exit(e, std::cout, message);
        if (!message.str().empty())
            report((fwi::cli::job().size() > 1 ? rank_prefix() + "error: " : std::string()) + message.str());
        // Under mpirun the ranks may have been given different arguments (an MPMD launch): one refused here
        // must stop the others, which would wait for it in their first collective.
        return finish(code == 0 ? 0 : 2);
    }
    if (threads > 0)
        fwi::set_thread_count(threads);
    else if (fwi::thread_count() > fwi::max_thread_count) {
        report("fwi: error: OMP_NUM_THREADS asks for " + std::to_string(fwi::thread_count()) +
               " threads; at most " + std::to_string(fwi::max_thread_count) + " (or give --threads)\n");
        return 2;
    }
    if (!fwi::cli::writes_outputs()) {
        quiet = true; // rank 0 reports for the whole job
        json = false;
    }
    try {
        nlohmann::json summary = action();
        const std::int64_t job_steps = fwi::cli::finish_job_progress();
        if (summary.is_object()) {
            summary["threads"] = fwi::thread_count();
            summary["ranks"] = fwi::cli::job().size();
            if (job_steps > 0)
                summary["propagation_steps"] = job_steps; // forward + recomputed + adjoint, all ranks
        }
        if (json) std::cout << summary.dump() << std::endl;
        return 0;
    } catch (const fwi::Cancelled&) {
        report(rank_prefix() + "cancelled\n");
        return finish(130);
    } catch (const fwi::ConfigError& e) {
        report(rank_prefix() + "error: " + e.what() + "\n");
        return finish(2);
    } catch (const fwi::FormatError& e) {
        report(rank_prefix() + "error: " + e.what() + "\n");
        return finish(2);
    } catch (const fwi::ResourceError& e) {
        report(rank_prefix() + "error: " + e.what() + "\n");
        return finish(3);
    } catch (const std::bad_alloc&) {
        report(
            rank_prefix() +
            "error: out of memory: this command needs more memory than the machine gave it (a smaller grid, "
            "fewer shots or receivers, or a checkpoint budget helps)\n");
        return finish(3);
    } catch (const std::exception& e) {
        report(rank_prefix() + "error: " + e.what() + "\n");
        return finish(1);
    }
}
