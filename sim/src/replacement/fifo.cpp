// fifo (replacement/fifo.hpp), inlined into the SM and L2 sides.
#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {

void register_fifo(ReplacementRegistry& registry) {
  registry.add({"fifo",
                "first in, first out (hits do not reorder)",
                {},
                [](const HierarchyConfig&, std::string_view) { return AnyPolicy{Fifo{}}; }});
}

}  // namespace memcarlo::sim::replacement
