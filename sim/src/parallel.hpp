// The engine's parallel loops: body(i) for i in [0, count) on the calling task arena's threads,
// each thread knowing its slot (0 .. parallel_slots() - 1) for per-thread scratch. TBB's
// parallel_for normally. Under ThreadSanitizer, plain std::threads: Debian's TBB is not built with
// TSan, and the task objects it recycles between loops carried the loop body's captures, so TSan
// reported reads of them as races; with std::thread every hand-over is one TSan sees.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "memcarlo/tsan_annotations.hpp"

namespace memcarlo::sim::detail {

/// The threads of the calling task arena (per-thread scratch: a vector of this size).
inline std::size_t parallel_slots() {
  return static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
}

/// The calling thread's slot inside parallel_for_index's body.
inline thread_local std::size_t current_parallel_slot = 0;

template <class Body>
void parallel_for_index(std::size_t count, std::size_t grain, Body&& body) {
  grain = std::max<std::size_t>(grain, 1);
#ifndef MEMCARLO_TSAN
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, grain),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      current_parallel_slot =
                          static_cast<std::size_t>(tbb::this_task_arena::current_thread_index());
                      for (std::size_t i = range.begin(); i != range.end(); ++i) {
                        body(i);
                      }
                    });
#else
  const std::size_t slots = std::min(parallel_slots(), std::max<std::size_t>(1, count / grain));
  std::atomic<std::size_t> next{0};
  const auto work = [&](std::size_t slot) {
    current_parallel_slot = slot;
    for (std::size_t first = next.fetch_add(grain); first < count; first = next.fetch_add(grain)) {
      for (std::size_t i = first; i < std::min(count, first + grain); ++i) {
        body(i);
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t slot = 1; slot < slots; ++slot) {
    threads.emplace_back(work, slot);
  }
  work(0);
  for (std::thread& thread : threads) {
    thread.join();
  }
#endif
}

}  // namespace memcarlo::sim::detail
