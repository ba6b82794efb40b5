// ranks.hpp for a build without MPI (MEMCARLO_WITH_MPI=OFF): always one process.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "ranks.hpp"

namespace memcarlo::cli::ranks {

void start(int& /*argc*/, char**& /*argv*/) {
  // Started by mpirun anyway: every process would run the whole job; say so once.
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (size != nullptr && std::string_view(size) != "1" && rank != nullptr &&
      std::string_view(rank) == "0") {
    std::cerr << "memcarlo: warning: this memcarlo was built without MPI "
                 "(-DMEMCARLO_WITH_MPI=OFF): each of the "
              << size << " processes runs the whole job on its own\n";
  }
}
void finish() {}
void abort_job(int /*exit_code*/) {}
std::uint32_t rank() {
  return 0;
}
std::uint32_t count() {
  return 1;
}
void distribute(sim::MonteCarloOptions& /*options*/) {}

}  // namespace memcarlo::cli::ranks
