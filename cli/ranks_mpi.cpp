// ranks.hpp with MPI (MEMCARLO_WITH_MPI=ON): MPI_COMM_WORLD when mpirun started this process.
#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "memcarlo/sim/trial_result_io.hpp"
#include "ranks.hpp"

namespace memcarlo::cli::ranks {
namespace {

bool started = false;
std::uint32_t this_rank = 0;
std::uint32_t rank_count = 1;

/// mpirun of Open MPI sets OMPI_COMM_WORLD_SIZE; PMIx and PMI launchers (srun) set their rank.
bool launched_by_mpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr ||
         std::getenv("PMI_RANK") != nullptr;
}

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed");
  }
}

/// Every rank's trials of [first, last) into `trials`: each rank sends its own (t % N == rank, in
/// trial order) as one TrialResult block; sizes first, then the blocks (MPI_Allgatherv).
void all_gather(std::vector<sim::TrialResult>& trials, std::uint32_t first, std::uint32_t last) {
  std::vector<sim::TrialResult> mine;
  for (std::uint32_t t = first; t < last; ++t) {
    if (t % rank_count == this_rank) {
      mine.push_back(std::move(trials[t]));
    }
  }
  std::vector<std::uint8_t> bytes;
  sim::append_trial_results(mine, bytes);
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw std::runtime_error("a round's trials exceed 2 GiB on one rank");
  }
  const int size = static_cast<int>(bytes.size());
  std::vector<int> sizes(rank_count);
  check(MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
  std::vector<int> offsets(rank_count);
  long long total = 0;
  for (std::uint32_t r = 0; r < rank_count; ++r) {
    if (total > INT_MAX) {
      throw std::runtime_error("a round's trials exceed 2 GiB over all ranks");
    }
    offsets[r] = static_cast<int>(total);
    total += sizes[r];
  }
  if (total > INT_MAX) {
    throw std::runtime_error("a round's trials exceed 2 GiB over all ranks");
  }
  std::vector<std::uint8_t> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(bytes.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(),
                       MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  for (std::uint32_t r = 0; r < rank_count; ++r) {
    std::vector<sim::TrialResult> theirs =
        sim::decode_trial_results(std::span<const std::uint8_t>(all).subspan(
            static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    std::size_t next = 0;
    for (std::uint32_t t = first; t < last; ++t) {
      if (t % rank_count == r) {
        if (next == theirs.size()) {
          throw std::runtime_error("rank " + std::to_string(r) + " sent too few trials");
        }
        trials[t] = std::move(theirs[next++]);
      }
    }
  }
}

}  // namespace

void start(int& argc, char**& argv) {
  if (!launched_by_mpi()) {
    return;
  }
  // TBB's workers never call MPI; the main thread alone does (funneled).
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  started = true;
  // An error on one rank ends the job (abort_job) rather than being returned to the others.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &value);
  this_rank = static_cast<std::uint32_t>(value);
  MPI_Comm_size(MPI_COMM_WORLD, &value);
  rank_count = static_cast<std::uint32_t>(value);
}

void finish() {
  if (started) {
    MPI_Finalize();
    started = false;
  }
}

void abort_job(int exit_code) {
  if (started && rank_count > 1) {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
  }
}

std::uint32_t rank() {
  return this_rank;
}
std::uint32_t count() {
  return rank_count;
}

void distribute(sim::MonteCarloOptions& options) {
  if (rank_count <= 1) {
    return;
  }
  options.share = {this_rank, rank_count};
  options.gather = all_gather;
}

}  // namespace memcarlo::cli::ranks
