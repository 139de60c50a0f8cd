#include "input_check.hpp"

#include "cli_common.hpp"
#include "fwi/hdf5_model.hpp"
#include "fwi/isolated_read.hpp"
#include "fwi/project.hpp"

#include <filesystem>
#include <string>

namespace fwi::cli {

void isolate_untrusted_reads(int argc, char** argv, bool under_mpi) {
    IsolatedReadSettings settings;
    if (!under_mpi) {
        settings.enabled = true;
        settings.checked_files = default_checked_files();
        set_isolated_reads(settings);
        return;
    }
    // The command line is not parsed yet: any argument (or --option=value) naming an existing HDF5 file is
    // checked with the reader `fwi` uses for it. An existing output file is read too, which costs only time.
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos)
            arg = arg.substr(arg.find('=') + 1);
        const std::string ext = extension_of(arg);
        std::error_code ignored;
        if ((ext != ".fwi" && ext != ".h5" && ext != ".hdf5") ||
            !std::filesystem::is_regular_file(arg, ignored))
            continue;
        if (ext == ".fwi")
            read_in_child(arg, [&] { (void)load_project(arg); });
        else
            read_in_child(arg, [&] { (void)read_model_hdf5(arg); });
    }
}

} // namespace fwi::cli
