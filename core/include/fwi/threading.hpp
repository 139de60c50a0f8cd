#pragma once
// OpenMP threads that behave on a shared desktop. libgomp's default waiting spins for ~300k iterations at
// every barrier; with another busy process (or the GUI's own threads) on the cores, each step's barriers can
// then cost a scheduler quantum: gradients measured 10-25x slower. Purely passive waiting (sleep at once)
// avoids that but pays a futex wake-up per barrier: 2.5x slower on a quiet 2-core machine for a small grid.
// The product's default is passive waiting after a brief spin (OMP_WAIT_POLICY=passive, GOMP_SPINCOUNT =
// default_spin_count, tens of microseconds): as fast as spinning when the machine is quiet, as safe as
// passive when it is busy (docs/benchmarks.md, "Threads"). The spin must outlast the serial gap between a
// step's parallel regions (receivers, source); 300 iterations did on an AMD EPYC but not on an Intel Xeon,
// where each wait then paid a futex wake-up: a small gradient ran 2.5x slower, a 1000^2 forward 15% slower.
// libgomp reads these variables once, when the library initialises before main(), so setting them in main is
// too late: ensure_passive_openmp_wait re-executes the program once with them set.
namespace fwi {

/// Spin iterations before a waiting OpenMP thread sleeps (GOMP_SPINCOUNT), unless the user sets their own.
inline constexpr const char* default_spin_count = "2000";

/// Call first thing in main(). When neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set (the user's own
/// settings always win), sets OMP_WAIT_POLICY=passive and GOMP_SPINCOUNT=default_spin_count and re-executes
/// /proc/self/exe with the same arguments; returns normally (changing nothing) when that is not possible or
/// was already done.
void ensure_passive_openmp_wait(int argc, char** argv);

/// The most threads the engine runs (--threads, OMP_NUM_THREADS): libgomp takes any OMP_NUM_THREADS and
/// crashes creating a hundred million threads.
inline constexpr int max_thread_count = 4096;

/// OpenMP threads for the engine's parallel loops; n <= 0 restores the default (OMP_NUM_THREADS, else all
/// cores).
void set_thread_count(int n);
/// The threads the next parallel loop will use.
int thread_count();

} // namespace fwi
