// Hierarchy presets. Every number carries its source: the PPoPP'12 paper's microbenchmarks
// (section 2.1), vendor datasheets and programming guides, or published microbenchmark studies.
// Latencies in ns are converted at the preset's core clock; the conversion is shown.
#include "presets.hpp"

#include <algorithm>

namespace memcarlo::sim::detail {
namespace {

using nlohmann::json;

// NVIDIA Tesla C2050 (Fermi GF100), the paper's machine.
PresetTable fermi_c2050() {
  return {
      {"name", "fermi-c2050"},
      {"description", "NVIDIA Tesla C2050 (Fermi), as measured in Baghsorkhi et al. PPoPP'12"},
      {"clock_mhz", 1150},             // C2050 datasheet: 1.15 GHz processor clock
      {"sm.count", 14},                // datasheet: 448 CUDA cores / 32 per SM; paper 2.1: 14 SMs
      {"sm.max_threads", 1536},        // CUDA C Programming Guide 4.0, compute capability 2.0
      {"sm.max_blocks", 8},            // same table
      {"sm.max_warps", 48},            // same table
      {"sm.registers", 32768},         // same table
      {"sm.shared_memory", "48KiB"},   // 48 KiB shared / 16 KiB L1 split, same guide
      {"sm.reserved_shared_per_block", 0},  // none before compute capability 8.0 (same guide)
      {"sm.shared_granularity", 128},  // CUDA occupancy calculator (cuda_occupancy.h), 2.x
      {"sm.default_registers_per_thread", 32},  // assumption when nvcc's count is unknown
      {"sm.issue_cycles", 1},          // model constant: one transaction per issue slot
      {"sm.warp_quantum", 1},          // model constant
      {"l1.enabled", true},
      {"l1.size", "16KiB"},            // paper 2.1: linked-list microbenchmark; the split is
                                       // fixed as the paper's machine ran (not adaptive)
      {"l1.unified_size", "64KiB"},    // Fermi whitepaper: 64 KiB of L1 and shared memory
      {"l1.carveouts", json::array({"16KiB", "48KiB"})},  // Fermi: 16/48 or 48/16 KiB
      {"l1.preferred_carveout", -1},   // the driver's default
      {"l1.line", 128},                // paper 2.1: stride microbenchmark
      {"l1.sector", 128},              // Fermi L1 is not sectored: 128-byte requests
      {"l1.associativity", 64},        // paper 2.1: "both L1 and L2 caches are 64-way"
      {"l1.replacement", "lru"},       // assumption (paper does not say)
      {"l1.latency", 104},             // paper 2.1: 90 ns average L1 access x 1.15 GHz
      {"l1.store_policy", "no_allocate_invalidate"},  // paper 2.1: stores go to L2; Fermi
                                                      // tuning guide: global stores evict L1
      {"l1.mshrs", 64},                // assumption
      {"l2.size", "768KiB"},           // paper 2.1
      {"l2.line", 32},                 // paper 2.1: 32-byte L2 blocks (L1 disabled)
      {"l2.sector", 32},               // a 32-byte block is the unit of validity
      {"l2.associativity", 64},        // paper 2.1
      {"l2.slices", 6},                // 6 memory partitions on the 384-bit bus (datasheet)
      {"l2.replacement", "lru"},       // assumption
      {"l2.latency", 288},             // paper 2.1: 250 ns average L2 access x 1.15 GHz
      {"l2.inclusive", true},          // paper 2.1: inclusion microbenchmark
      {"l2.write_activation", true},   // paper 2.1: "stores hit in the L2 only if the
                                       // corresponding cache block has been activated via a
                                       // write request"
      {"l2.store_miss", "write_through"},  // paper 2.1: a store miss updates memory
      {"l2.between_launches", "keep"},  // the L2 keeps its lines from kernel to kernel
      {"interconnect.scheduler", "weighted_random"},  // paper 3.2.2
      {"interconnect.epoch_cycles", 64},              // model constant, below l2.latency
      {"dram.model", "banked"},
      {"dram.channels", 6},            // 384-bit GDDR5 bus = 6 x 64-bit controllers (datasheet)
      {"dram.banks", 16},              // GDDR5 devices have 16 banks (JEDEC GDDR5)
      {"dram.row_bytes", 2048},        // GDDR5 2 KiB page per channel (x32 device pair)
      {"dram.interleave_bytes", 256},  // assumption: 256-byte partition interleave
      {"dram.mapping", "row_bank_channel_column"},
      {"dram.base_latency", 200},      // calibrated: unloaded miss = 288 + 200 + 2x14 + 2
                                       // ~ 520 cycles ~ 450 ns, inside the 400-800 cycle range
                                       // of Fermi pointer-chasing studies
      {"dram.t_rcd", 14},              // GDDR5 tRCD ~ 12 ns x 1.15 GHz
      {"dram.t_rp", 14},               // GDDR5 tRP ~ 12 ns x 1.15 GHz
      {"dram.t_cas", 14},              // GDDR5 CL ~ 12 ns x 1.15 GHz
      {"dram.t_burst", 2},             // 144 GB/s / 6 channels = 24 GB/s: 32 B in 1.3 ns
      {"dram.batch_max_group", 32},    // paper 3.2.3: up to 32 requests per group
      {"dram.batch_max_groups", 0},    // paper 3.2.3: up to one group per SM (14)
      {"schedule.start_jitter", 1.0},  // model constant (paper 3.2.1)
  };
}

// NVIDIA GeForce GTX 480 (Fermi GF100): the C2050's chip with one more SM and faster clocks.
PresetTable gtx480() {
  PresetTable t = fermi_c2050();
  auto set = [&t](const std::string& key, json value) {
    for (auto& [k, v] : t) {
      if (k == key) {
        v = std::move(value);
        return;
      }
    }
    t.emplace_back(key, std::move(value));
  };
  set("name", "gtx480");
  set("description", "NVIDIA GeForce GTX 480 (Fermi GF100)");
  set("clock_mhz", 1401);          // GTX 480 specification: 1401 MHz processor clock
  set("sm.count", 15);             // 480 CUDA cores / 32 per SM
  set("l1.latency", 126);          // C2050's 90 ns L1 (paper 2.1) x 1.401 GHz
  set("l2.latency", 350);          // C2050's 250 ns L2 (paper 2.1) x 1.401 GHz
  set("dram.base_latency", 250);   // C2050 calibration scaled to 1.401 GHz
  set("dram.t_rcd", 17);           // GDDR5 ~ 12 ns x 1.401 GHz
  set("dram.t_rp", 17);
  set("dram.t_cas", 17);
  set("dram.t_burst", 2);          // 177 GB/s / 6 channels: 32 B in 1.1 ns
  return t;
}

/// `table` with `changes` applied: a key it has takes the new value, a new key is appended.
PresetTable with(PresetTable table, const std::vector<std::pair<std::string, json>>& changes) {
  for (const auto& [key, value] : changes) {
    const auto found = std::find_if(table.begin(), table.end(),
                                    [&](const auto& entry) { return entry.first == key; });
    if (found != table.end()) {
      found->second = value;
    } else {
      table.emplace_back(key, value);
    }
  }
  return table;
}

// The Locality Descriptors paper's single-chip system (Vijaykumar et al., ISCA'18, Table 1):
// GPGPU-Sim's GTX 480 with a 32 KB 4-way L1 and a 768 KB 16-way L2. Latencies and DRAM timings
// are the gtx480 preset's (the paper gives none).
PresetTable ldesc_gtx480() {
  return with(gtx480(),
              {
                  {"name", "ldesc-gtx480"},
                  {"description", "Locality Descriptors (ISCA'18) single-chip GTX 480 system"},
                  {"clock_mhz", 1400},          // LDesc Table 1: 1.4 GHz shader core
                  {"sm.count", 15},             // LDesc Table 1: 15 SMs
                  {"sm.registers", 32768},      // LDesc Table 1
                  {"sm.shared_memory", "48KiB"},  // LDesc Table 1: 48 KB scratchpad
                  {"l1.size", "32KiB"},         // LDesc Table 1: L1 32 KB
                  {"l1.associativity", 4},      // LDesc Table 1: 4 ways
                  {"l2.size", "768KiB"},        // LDesc Table 1: 768 KB
                  {"l2.associativity", 16},     // LDesc Table 1: 16 ways
                  {"dram.channels", 6},         // LDesc Table 1: 6 memory channels
                  {"dram.banks", 16},           // LDesc Table 1: 16 banks per channel
              });
}

// The Locality Descriptors paper's multi-chip NUMA system (ISCA'18 Table 1, after MCM-GPU,
// Arunkumar et al. ISCA'17, scaled by 4): 4 GPU modules of 16 SMs, one memory-side L2 and DRAM
// per module, all-to-all links. Cores as ldesc-gtx480.
PresetTable ldesc_numa_4() {
  return with(ldesc_gtx480(),
              {
                  {"name", "ldesc-numa-4"},
                  {"description", "Locality Descriptors (ISCA'18) 4-module NUMA GPU"},
                  {"sm.count", 64},             // LDesc Table 1: 64 SMs (16 per module)
                  {"numa.modules", 4},          // LDesc Table 1: 4 GPMs / NUMA zones
                  {"l2.size", "4MiB"},          // LDesc Table 1: L2 4 MB
                  {"l2.associativity", 16},     // LDesc Table 1: 16 ways
                  {"l2.slices", 32},            // assumption: one slice per memory channel
                  {"dram.channels", 32},        // LDesc Table 1: 32 memory channels
                  {"dram.t_burst", 2},          // LDesc Table 1: 768 GB/s / 32 channels =
                                                // 24 GB/s: 32 B in 1.33 ns x 1.4 GHz ~ 2
                  {"numa.link_bandwidth_gbs", 192},  // LDesc Table 1: inter-GPM 192 GB/s
                                                     // (taken per link and direction)
                  {"numa.link_latency", 32},    // assumption: neither LDesc nor this preset's
                                                // sources give the crossing's latency
                  {"numa.topology", "all-to-all"},  // assumption: MCM-GPU's modules on a ring;
                                                    // LDesc does not say; 1 hop each
                  {"placement.policy", "xor"},  // LDesc 6.2 Baseline: static XOR hashing
                  {"placement.page_bytes", "64KiB"},  // LDesc 6.2: 64 KB pages (FirstTouch)
              });
}

// TAFE's multi-GPU / multi-chiplet system (PACT'20, Table 3, configuration 1):
// 8 identical modules of 8 SMs, one HMC stack per module, a tree of off-chip links.
PresetTable tafe_multigpu_8() {
  return with(gtx480(),
              {
                  {"name", "tafe-multigpu-8"},
                  {"description", "TAFE (PACT'20) 8-module multi-GPU / multi-chiplet system"},
                  {"clock_mhz", 1400},          // TAFE Table 3: SM 1.4 GHz
                  {"sm.count", 64},             // TAFE Table 3: 64 SMs (8 per module)
                  {"sm.shared_memory", "48KiB"},  // TAFE Table 3: 48 kB shared memory
                  {"numa.modules", 8},          // TAFE Table 3: 8 NUMA modules, all identical
                  {"l1.size", "16KiB"},         // TAFE Table 3: L1 16 kB
                  {"l1.associativity", 4},      // TAFE Table 3: 4-way, private
                  {"l2.size", "1MiB"},          // TAFE Table 3: L2 1 MB, shared
                  {"l2.associativity", 16},     // TAFE Table 3: 16-way
                  {"l2.slices", 64},            // assumption: one slice per channel
                  {"dram.channels", 64},        // assumption: 8 vault channels per HMC stack
                                                // (TAFE Table 3: 1 stack per module)
                  {"dram.t_burst", 2.24},       // TAFE Table 3: 160 GB/s local per module / 8
                                                // channels = 20 GB/s: 32 B in 1.6 ns x 1.4 GHz
                  {"numa.link_bandwidth_gbs", 80},  // TAFE Table 3: off-chip 80 GB/s
                  {"numa.link_latency", 32},    // assumption: TAFE gives no link latency
                  {"numa.topology", "tree"},    // TAFE Table 3: tree (its shape is ours: binary)
                  {"placement.page_bytes", "4KiB"},  // assumption: TAFE maps 4 KB pages
              });
}

// NVIDIA Tesla V100 SXM2 (Volta GV100).
PresetTable v100() {
  return {
      {"name", "v100"},
      {"description", "NVIDIA Tesla V100 SXM2 (Volta)"},
      {"clock_mhz", 1530},             // V100 SXM2 boost clock (Volta whitepaper)
      {"sm.count", 80},                // Volta whitepaper
      {"sm.max_threads", 2048},        // CUDA Programming Guide, compute capability 7.0
      {"sm.max_blocks", 32},
      {"sm.max_warps", 64},
      {"sm.registers", 65536},
      {"sm.shared_memory", "96KiB"},   // largest shared-memory carve-out, same guide
      {"sm.reserved_shared_per_block", 0},  // none before compute capability 8.0
      {"sm.shared_granularity", 256},  // cuda_occupancy.h: 256 bytes on 7.x
      {"sm.default_registers_per_thread", 32},  // assumption
      {"sm.issue_cycles", 1},
      {"sm.warp_quantum", 1},
      {"l1.enabled", true},
      {"l1.size", "adaptive"},         // the 128 KiB array minus each launch's carveout
      {"l1.unified_size", "128KiB"},   // Volta whitepaper: 128 KiB L1 / shared memory per SM
      {"l1.carveouts",                 // CUDA C Programming Guide, 7.x: 0, 8, 16, 32, 64 or 96
       json::array({0, "8KiB", "16KiB", "32KiB", "64KiB", "96KiB"})},  // KiB (cuda_occupancy.h)
      {"l1.preferred_carveout", -1},   // the driver's default
      {"l1.line", 128},                // Jia et al. 2018, "Dissecting the Volta GPU": 128 B lines
      {"l1.sector", 32},               // same: 32-byte sectors
      {"l1.associativity", 64},        // assumption: 64 ways of 16 sets over the whole array
                                       // (every carveout removes whole 2 KiB ways)
      {"l1.replacement", "lru"},       // assumption
      {"l1.latency", 28},              // Jia et al. 2018: L1 hit 28 cycles
      {"l1.store_policy", "allocate"},  // Volta whitepaper: "GV100 introduces write-caching
                                        // (caching of store operations)"; write-through
      {"l1.mshrs", 256},               // assumption
      {"l2.size", "6MiB"},             // Volta whitepaper
      {"l2.line", 64},                 // Jia et al. 2018: 64-byte L2 lines
      {"l2.sector", 32},               // 32-byte sectors
      {"l2.associativity", 16},        // Jia et al. 2018: 16-way
      {"l2.slices", 64},               // assumption: two slices per HBM2 channel
      {"l2.replacement", "lru"},
      {"l2.latency", 193},             // Jia et al. 2018: L2 hit ~193 cycles
      {"l2.inclusive", false},         // assumption: no back-invalidation on Volta
      {"l2.write_activation", false},  // assumption: any valid sector takes a store
      {"l2.store_miss", "allocate"},   // measured on an H200 (docs/ncu-compare.md): ~100 % L2
                                       // store hits after a flush; assumed for Volta and Ampere
      {"l2.between_launches", "keep"},  // the L2 keeps its lines from kernel to kernel
      {"interconnect.scheduler", "weighted_random"},
      {"interconnect.epoch_cycles", 64},
      {"dram.model", "banked"},
      {"dram.channels", 32},           // 4 HBM2 stacks x 8 channels
      {"dram.banks", 16},              // HBM2: 16 banks per channel (4 bank groups x 4)
      {"dram.row_bytes", 1024},        // HBM2 1 KiB page
      {"dram.interleave_bytes", 256},  // assumption
      {"dram.mapping", "row_bank_channel_column"},
      {"dram.base_latency", 150},      // calibrated: unloaded miss ~ 193 + 150 + 2x21 ~ 385
                                       // cycles; Jia et al. 2018 measure ~375 cycles
      {"dram.t_rcd", 21},              // HBM2 tRCD ~ 14 ns x 1.53 GHz
      {"dram.t_rp", 21},               // HBM2 tRP ~ 14 ns x 1.53 GHz
      {"dram.t_cas", 21},              // HBM2 CL ~ 14 ns x 1.53 GHz
      {"dram.t_burst", 2},             // 900 GB/s / 32 channels = 28 GB/s: 32 B in 1.1 ns
      {"dram.batch_max_group", 32},
      {"dram.batch_max_groups", 0},
      {"schedule.start_jitter", 1.0},
  };
}

// NVIDIA A100 SXM4 40 GB (Ampere GA100).
PresetTable a100() {
  return {
      {"name", "a100"},
      {"description", "NVIDIA A100 SXM4 40 GB (Ampere)"},
      {"clock_mhz", 1410},             // A100 datasheet: 1410 MHz boost clock
      {"sm.count", 108},               // Ampere (GA100) whitepaper: 108 SMs on A100
      {"sm.max_threads", 2048},        // CUDA C Programming Guide, compute capability 8.0
      {"sm.max_blocks", 32},
      {"sm.max_warps", 64},
      {"sm.registers", 65536},
      {"sm.shared_memory", "164KiB"},  // same guide: up to 164 KiB shared per SM
      {"sm.reserved_shared_per_block", 1024},  // same guide: 1 KiB per block for system use
      {"sm.shared_granularity", 128},  // cuda_occupancy.h: 128 bytes on 8.x
      {"sm.default_registers_per_thread", 32},  // assumption
      {"sm.issue_cycles", 1},
      {"sm.warp_quantum", 1},
      {"l1.enabled", true},
      {"l1.size", "adaptive"},         // the 192 KiB array minus each launch's carveout
      {"l1.unified_size", "192KiB"},   // Ampere whitepaper: 192 KiB L1 / shared memory per SM
      {"l1.carveouts",                 // CUDA C Programming Guide, 8.0: 0, 8, 16, 32, 64, 100,
       json::array({0, "8KiB", "16KiB", "32KiB", "64KiB", "100KiB", "132KiB",
                    "164KiB"})},       // 132 or 164 KiB (cuda_occupancy.h, 8.0)
      {"l1.preferred_carveout", -1},   // the driver's default
      {"l1.line", 128},                // 128-byte lines, 32-byte sectors (Nsight Compute docs)
      {"l1.sector", 32},
      {"l1.associativity", 48},        // assumption: 48 ways of 32 sets over the whole array,
                                       // so that every carveout removes whole 4 KiB ways
      {"l1.replacement", "lru"},       // assumption
      {"l1.latency", 33},              // assumption: Hopper's ~33 cycles (Luo et al. 2024),
                                       // between Volta's 28 (Jia et al. 2018) and it
      {"l1.store_policy", "allocate"},  // write-caching since Volta (Volta whitepaper; Turing
                                        // tuning guide: write-through L1 that caches stores)
      {"l1.mshrs", 256},               // assumption
      {"l2.size", "40MiB"},            // Ampere whitepaper: 40 MB L2 on A100
      {"l2.line", 128},                // 128-byte lines with 32-byte sectors (Nsight docs)
      {"l2.sector", 32},
      {"l2.associativity", 16},        // assumption
      {"l2.slices", 80},               // assumption: 80 slices of 512 KiB, two per HBM2 channel
      {"l2.replacement", "lru"},
      {"l2.latency", 200},             // assumption: between Volta's ~193 (Jia et al. 2018) and
                                       // Hopper's ~262 (Luo et al. 2024); A100's L2 has a near
                                       // and a far partition, this is the near one
      {"l2.inclusive", false},         // assumption, as v100
      {"l2.write_activation", false},  // assumption: any valid sector takes a store
      {"l2.store_miss", "allocate"},   // measured on an H200 (docs/ncu-compare.md): ~100 % L2
                                       // store hits after a flush; assumed for Volta and Ampere
      {"l2.between_launches", "keep"},  // the L2 keeps its lines from kernel to kernel
      {"interconnect.scheduler", "weighted_random"},
      {"interconnect.epoch_cycles", 64},
      {"dram.model", "banked"},
      {"dram.channels", 40},           // 5 active HBM2 stacks x 8 channels (40 GB)
      {"dram.banks", 16},              // HBM2: 16 banks per channel (4 groups x 4)
      {"dram.row_bytes", 1024},        // HBM2 1 KiB page
      {"dram.interleave_bytes", 256},  // assumption
      {"dram.mapping", "row_bank_channel_column"},
      {"dram.base_latency", 200},      // calibration assumption: unloaded miss ~ 200 + 200 +
                                       // 2x20 ~ 440 cycles (~310 ns); check with
                                       // scripts/validate-gpu.sh on an A100
      {"dram.t_rcd", 20},              // HBM2 tRCD ~ 14 ns x 1.41 GHz
      {"dram.t_rp", 20},               // HBM2 tRP ~ 14 ns x 1.41 GHz
      {"dram.t_cas", 20},              // HBM2 CL ~ 14 ns x 1.41 GHz
      {"dram.t_burst", 1},             // 1555 GB/s / 40 channels = 39 GB/s: 32 B in 0.8 ns
      {"dram.batch_max_group", 32},
      {"dram.batch_max_groups", 0},
      {"schedule.start_jitter", 1.0},
  };
}

// NVIDIA H100 SXM5 (Hopper GH100).
PresetTable h100() {
  return {
      {"name", "h100"},
      {"description", "NVIDIA H100 SXM5 (Hopper)"},
      {"clock_mhz", 1755},             // H100 SXM5 boost clock (Hopper whitepaper)
      {"sm.count", 132},               // H100 SXM5 (Hopper whitepaper)
      {"sm.max_threads", 2048},        // CUDA Programming Guide, compute capability 9.0
      {"sm.max_blocks", 32},
      {"sm.max_warps", 64},
      {"sm.registers", 65536},
      {"sm.shared_memory", "228KiB"},  // same guide: up to 228 KiB shared per SM
      {"sm.reserved_shared_per_block", 1024},  // same guide: 1 KiB per block for system use
                                               // (cudaDeviceProp::reservedSharedMemPerBlock)
      {"sm.shared_granularity", 128},  // cuda_occupancy.h: 128 bytes from 8.x on
      {"sm.default_registers_per_thread", 32},  // assumption
      {"sm.issue_cycles", 1},
      {"sm.warp_quantum", 1},
      {"l1.enabled", true},
      {"l1.size", "adaptive"},         // the 256 KiB array minus each launch's carveout
      {"l1.unified_size", "256KiB"},   // Hopper whitepaper: 256 KiB L1 / shared memory per SM
      {"l1.carveouts",                 // CUDA C Programming Guide, 9.0: 0, 8, 16, 32, 64, 100,
       json::array({0, "8KiB", "16KiB", "32KiB", "64KiB", "100KiB", "132KiB", "164KiB",
                    "196KiB", "228KiB"})},  // 132, 164, 196 or 228 KiB
      {"l1.preferred_carveout", -1},   // the driver's default
      {"l1.line", 128},                // 128-byte lines, 32-byte sectors (Nsight Compute docs)
      {"l1.sector", 32},
      {"l1.associativity", 64},        // assumption: 64 ways of 32 sets over the whole array
                                       // (every carveout removes whole 4 KiB ways)
      {"l1.replacement", "lru"},       // assumption
      {"l1.latency", 33},              // Luo et al. 2024, "Benchmarking and Dissecting the
                                       // Nvidia Hopper GPU Architecture": L1 hit ~33 cycles
      {"l1.store_policy", "allocate"},  // write-caching since Volta (Volta whitepaper; Turing
                                        // tuning guide: "L1 can cache write operations
                                        // (write-through)"); Hopper keeps the unified design
      {"l1.mshrs", 256},               // assumption
      {"l2.size", "50MiB"},            // Hopper whitepaper (SXM5)
      {"l2.line", 128},                // 128-byte lines with 32-byte sectors (Nsight docs)
      {"l2.sector", 32},
      {"l2.associativity", 16},        // assumption
      {"l2.slices", 80},               // assumption: one slice per 64-bit HBM3 pseudo-channel
      {"l2.replacement", "lru"},
      {"l2.latency", 262},             // Luo et al. 2024: L2 hit ~262 cycles (near partition)
      {"l2.inclusive", false},         // assumption
      {"l2.write_activation", false},  // assumption: any valid sector takes a store
      {"l2.store_miss", "allocate"},   // measured on an H200 (docs/ncu-compare.md): ~100 % L2
                                       // store hits after a flush; assumed for Volta and Ampere
      {"l2.between_launches", "keep"},  // the L2 keeps its lines from kernel to kernel
      {"interconnect.scheduler", "weighted_random"},
      {"interconnect.epoch_cycles", 64},
      {"dram.model", "banked"},
      {"dram.channels", 80},           // 5 HBM3 stacks x 16 pseudo-channels
      {"dram.banks", 16},              // HBM3: 16 banks per pseudo-channel (4 groups x 4)
      {"dram.row_bytes", 1024},        // HBM3 1 KiB page
      {"dram.interleave_bytes", 256},  // assumption
      {"dram.mapping", "row_bank_channel_column"},
      {"dram.base_latency", 170},      // calibrated: unloaded miss ~ 262 + 170 + 2x28 ~ 490
                                       // cycles; Luo et al. 2024 measure ~480-500 cycles
      {"dram.t_rcd", 28},              // HBM3 tRCD ~ 16 ns x 1.755 GHz
      {"dram.t_rp", 28},
      {"dram.t_cas", 28},
      {"dram.t_burst", 2},             // 3.35 TB/s / 80 = 42 GB/s: 32 B in 0.8 ns
      {"dram.batch_max_group", 32},
      {"dram.batch_max_groups", 0},
      {"schedule.start_jitter", 1.0},
  };
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> table = {
      {"fermi-c2050", fermi_c2050()},
      {"gtx480", gtx480()},
      {"v100", v100()},
      {"a100", a100()},
      {"h100", h100()},
      {"ldesc-gtx480", ldesc_gtx480()},
      {"ldesc-numa-4", ldesc_numa_4()},
      {"tafe-multigpu-8", tafe_multigpu_8()},
  };
  return table;
}

}  // namespace memcarlo::sim::detail
