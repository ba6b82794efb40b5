// The DRAM latency model contract and its registry. The engine groups the requests that leave the
// L2 into random batches (paper §3.2.3: up to one group of up to 32 requests per SM) and asks the
// model for the latency of each batch; every request of the batch sees that latency.
//
// Contract:
//   reset()            once per launch replay: closes every row buffer.
//   batch_latency(..)  the requests of one batch, in arrival order; returns the cycles beyond
//                      the L2 that the batch's accesses take, as seen by one of them on average.
//                      May keep state across batches (open rows). Called once per batch, so a
//                      virtual call is fine; must not allocate after the first calls.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"

namespace memcarlo::sim::dram {

struct Request {
  DramLocation location;
  std::uint32_t bursts;  // 32-byte transfers
  bool write;
};

class Model {
 public:
  virtual ~Model() = default;
  virtual void reset() = 0;
  virtual double batch_latency(std::span<const Request> batch) = 0;
};

struct Entry {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<Model> (*make)(const DramConfig&);
};

/// Every registered model, one line each in dram/registry.cpp.
std::span<const Entry> registry();
std::vector<std::string> names();
/// The model registered under config.model (validated by the schema).
std::unique_ptr<Model> make(const DramConfig& config);

}  // namespace memcarlo::sim::dram
