// random (replacement/random.hpp), run through replacement::Dynamic: one virtual call per hook,
// no SM or L2 side of its own; the victims are the same draws as when it was inlined.
#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {

void register_random(ReplacementRegistry& registry) {
  registry.add(
      {"random", "uniformly random victim", {}, [](const HierarchyConfig&, std::string_view) {
         return AnyPolicy{Dynamic(std::make_unique<Boxed<Random>>())};
       }});
}

}  // namespace memcarlo::sim::replacement
