// ranks.hpp for a build without MPI (MEMCARLO_WITH_MPI=OFF): always one process.
#include "ranks.hpp"

namespace memcarlo::cli::ranks {

void start(int& /*argc*/, char**& /*argv*/) {}
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
