// The processes of an `mpirun -np N memcarlo ...` job: which one this is, and the all-gather that
// gives every rank every trial of a round. Without MPI (built without MEMCARLO_WITH_MPI, or not
// started by mpirun) this is one process of rank 0, and nothing here costs anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memcarlo/sim/monte_carlo.hpp"

namespace memcarlo::cli::ranks {

/// Starts MPI when this process was launched by mpirun (Open MPI's OMPI_COMM_WORLD_SIZE or a
/// PMIx/PMI rank in the environment); otherwise does nothing. Call once, first thing in main.
void start(int& argc, char**& argv);
/// Ends MPI when start() began it (every rank must reach it).
void finish();
/// Ends the whole job with `exit_code` after `message` was printed (one rank's error must not
/// leave the others waiting in a collective). Returns when there is only one process.
void abort_job(int exit_code);

/// This process's rank and the number of ranks (0 and 1 without MPI).
[[nodiscard]] std::uint32_t rank();
[[nodiscard]] std::uint32_t count();
/// Rank 0, the one that writes files and prints.
[[nodiscard]] inline bool leader() {
  return rank() == 0;
}

/// Spreads the trials of `options` over the ranks: rank r runs the trials t with t % N == r of
/// every round, then all ranks exchange them (the TrialResult binary form) so that each holds all
/// trials in trial order and asks the stop rule the same question. No change with one rank.
void distribute(sim::MonteCarloOptions& options);

}  // namespace memcarlo::cli::ranks
