#pragma once
// Untrusted HDF5 inputs read in a child process first (fwi/isolated_read.hpp), so that a file crashing or
// hanging libhdf5 ends `fwi` with exit 2 and a message naming it instead of a signal.
namespace fwi::cli {

/// Alone: switches isolation on for every project, .h5 model and .h5 gather read. Under mpirun (before
/// MPI_Init, which must not be followed by fork() on every network): checks each existing .fwi, .h5 and .hdf5
/// file named on the command line in a child now, and leaves isolation off. Throws FormatError for a file the
/// library crashed or hung on.
void isolate_untrusted_reads(int argc, char** argv, bool under_mpi);

} // namespace fwi::cli
