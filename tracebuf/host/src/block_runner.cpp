// The block scheduler: a ready queue of CUDA threads, a counting barrier for __syncthreads, and
// warp collectives that park fibers until their warp-mates arrive. Every switch goes through the
// scheduler's own context (scheduler -> fiber -> scheduler), annotated for AddressSanitizer.
#include "block_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "diagnostics.hpp"
#include "memcarlo/host/detail/unsupported.h"

// GCC announces AddressSanitizer with __SANITIZE_ADDRESS__, Clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define MEMCARLO_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMCARLO_ASAN_FIBERS 1
#endif
#endif
#ifdef MEMCARLO_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif
#include "memcarlo/tsan_annotations.hpp"

namespace memcarlo::host::detail {
namespace bctx = boost::context::detail;

namespace {

// ASan must be told when the stack changes under it, or it reports false stack overflows and
// use-after-return. `save` keeps the fake stack of the context being left (null: it ends).
inline void start_switch([[maybe_unused]] void** save, [[maybe_unused]] const void* bottom,
                         [[maybe_unused]] std::size_t size) {
#ifdef MEMCARLO_ASAN_FIBERS
  __sanitizer_start_switch_fiber(save, bottom, size);
#endif
}
inline void finish_switch([[maybe_unused]] void* save, [[maybe_unused]] const void** old_bottom,
                          [[maybe_unused]] std::size_t* old_size) {
#ifdef MEMCARLO_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(save, old_bottom, old_size);
#endif
}

std::string dim_text(const uint3& d) {
  char text[48];
  std::snprintf(text, sizeof text, "(%u,%u,%u)", d.x, d.y, d.z);
  return text;
}

}  // namespace

void BlockRunner::FreeAligned::operator()(void* p) const {
  std::free(p);
}

void BlockRunner::prepare(const LaunchContext& launch, std::uint64_t block) {
  launch_ = &launch;
  block_ = block;
  traced_ = launch.traced && block >= launch.snapshot_first && block < launch.snapshot_end;
  const LaunchRequest& request = *launch.request;
  const std::uint32_t n = launch.threads_per_block;
  const uint3 block_idx{static_cast<unsigned>(block % request.grid.x),
                        static_cast<unsigned>(block / request.grid.x % request.grid.y),
                        static_cast<unsigned>(block / request.grid.x / request.grid.y)};
  threads_.resize(n);
  bounds_.use_generation(launch.device_ranges->generation);
  if (traced_) {
    lane_events_.resize(n);
    warp_records_.resize(launch.warps_per_block);
    for (auto& records : warp_records_) {
      records.clear();
    }
    pending_barriers_.assign(launch.warps_per_block, 0);
    lane_sharing_.clear();
    warp_conflicts_.clear();
    interval_tile_synced_ = false;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    ThreadState& t = threads_[i];
    t.builtins.thread_idx = uint3{i % request.block.x, i / request.block.x % request.block.y,
                                  i / request.block.x / request.block.y};
    t.builtins.block_idx = block_idx;
    t.builtins.block_dim = request.block;
    t.builtins.grid_dim = request.grid;
    t.launch = &launch;
    t.runner = this;
    t.events = nullptr;
    if (traced_) {
      lane_events_[i].clear();
      t.events = &lane_events_[i];
    }
    t.probe_events = 0;
    t.checked_begin = launch.checked_window.begin;
    t.checked_size = launch.checked_window.size;
    t.bounds = &bounds_;
    t.warp = i / 32;
    t.lane = i % 32;
    t.state = ThreadState::State::kReady;
    t.started = false;
    t.spin_count = 0;
    t.asan_fake_stack = nullptr;
  }
  warps_.resize(launch.warps_per_block);
  for (std::uint32_t w = 0; w < launch.warps_per_block; ++w) {
    const std::uint32_t lanes = std::min<std::uint32_t>(32, n - w * 32);
    warps_[w].reset(lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
  }
  ready_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    ready_[i] = i;
  }
  ready_head_ = 0;
  ready_count_ = n;
  live_ = n;
  barrier_arrived_ = barrier_true_ = 0;
  tile_barriers_.clear();
  if (tile_exchange_slots_.size() < std::size_t{n} * kTileExchangeSlotBytes) {
    tile_exchange_slots_.resize(std::size_t{n} * kTileExchangeSlotBytes);
  }
  exception_ = nullptr;
  probe_events_ = traced_events_ = 0;
  buffered_events_ = 0;
  trace_abandoned_ = false;
  const std::size_t shared_bytes = std::max<std::size_t>(request.dynamic_shared_bytes, 1);
  if (shared_bytes > dynamic_shared_capacity_) {
    const std::size_t rounded = (shared_bytes + 127) / 128 * 128;
    dynamic_shared_.reset(static_cast<std::byte*>(std::aligned_alloc(128, rounded)));
    dynamic_shared_capacity_ = rounded;
  }
}

void BlockRunner::run(const LaunchContext& launch, std::uint64_t block) {
  // Outside a cooperative launch grid.sync() ends the program, so the block always completes.
  [[maybe_unused]] const bool completed = start_block(launch, block);
}

bool BlockRunner::start_block(const LaunchContext& launch, std::uint64_t block) {
  prepare(launch, block);
  finished_ = 0;
  grid_arrived_ = 0;
  return schedule();
}

bool BlockRunner::resume_block() {
  return schedule();
}

bool BlockRunner::schedule() {
  const std::uint32_t n = launch_->threads_per_block;
  while (finished_ < n) {
    if (ready_count_ == 0) {
      if (resolve_quiescent()) {
        continue;
      }
      if (grid_arrived_ > 0 && grid_arrived_ == live_) {
        return false;  // every thread that has not exited waits at grid.sync()
      }
      report_deadlock();
    }
    const std::uint32_t id = ready_[ready_head_];
    ready_head_ = (ready_head_ + 1) % ready_.size();
    --ready_count_;
    ThreadState& thread = threads_[id];
    resume(thread);
    if (thread.state == ThreadState::State::kDone) {
      stacks_.release(thread.stack);
      probe_events_ += thread.probe_events;
      ++finished_;
    }
  }
  if (traced_) {
    if (!trace_abandoned_) {
      merge_interval();
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      traced_events_ += threads_[i].probe_events;
    }
  }
  if (exception_) {
    std::rethrow_exception(std::exchange(exception_, nullptr));
  }
  return true;
}

void BlockRunner::release_grid_barrier() {
  grid_arrived_ = 0;
  end_trace_interval();
  for (std::uint32_t i = 0; i < threads_.size(); ++i) {
    if (threads_[i].state == ThreadState::State::kAtGridBarrier) {
      push_ready(i);
    }
  }
}

void BlockRunner::resume(ThreadState& thread) {
  if (!thread.started) {
    thread.stack = stacks_.acquire(launch_->fiber_stack_bytes);
    thread.context = bctx::make_fcontext(thread.stack.top(), thread.stack.size, &fiber_entry);
    thread.tsan_fiber = thread.stack.tsan_fiber;
    thread.started = true;
  }
  thread.state = ThreadState::State::kRunning;
  current_thread = &thread;
  memcarlo_cuda_builtins::threadIdx = thread.builtins.thread_idx;
  memcarlo_cuda_builtins::blockIdx = thread.builtins.block_idx;
  memcarlo_cuda_builtins::blockDim = thread.builtins.block_dim;
  memcarlo_cuda_builtins::gridDim = thread.builtins.grid_dim;
  tsan_scheduler_fiber_ = tsan::current_fiber();
  start_switch(&scheduler_fake_stack_, thread.stack.bottom, thread.stack.size);
  tsan::switch_to_fiber(thread.tsan_fiber);
  const bctx::transfer_t back = bctx::jump_fcontext(thread.context, &thread);
  finish_switch(scheduler_fake_stack_, nullptr, nullptr);
  current_thread = nullptr;
  if (thread.state != ThreadState::State::kDone) {
    thread.context = back.fctx;
  }
}

void BlockRunner::suspend(ThreadState& thread) {
  start_switch(&thread.asan_fake_stack, scheduler_stack_bottom_, scheduler_stack_size_);
  tsan::switch_to_fiber(tsan_scheduler_fiber_);
  const bctx::transfer_t back = bctx::jump_fcontext(scheduler_context_, nullptr);
  scheduler_context_ = back.fctx;
  finish_switch(thread.asan_fake_stack, &scheduler_stack_bottom_, &scheduler_stack_size_);
}

void BlockRunner::fiber_entry(bctx::transfer_t from) {
  auto* thread = static_cast<ThreadState*>(from.data);
  BlockRunner& runner = *thread->runner;
  runner.scheduler_context_ = from.fctx;
  finish_switch(nullptr, &runner.scheduler_stack_bottom_, &runner.scheduler_stack_size_);
  try {
    const LaunchRequest& request = *runner.launch_->request;
    request.invoke(request.closure);
  } catch (...) {
    if (!runner.exception_) {
      runner.exception_ = std::current_exception();
    }
  }
  runner.thread_exited(*thread);
  thread->state = ThreadState::State::kDone;
  // This fiber's stack is released by the scheduler: tell ASan it will not come back (null save).
  start_switch(nullptr, runner.scheduler_stack_bottom_, runner.scheduler_stack_size_);
  tsan::leave_fiber_entry();  // the stack's TSan fiber runs the next thread from fiber_entry again
  tsan::switch_to_fiber(runner.tsan_scheduler_fiber_);
  bctx::jump_fcontext(runner.scheduler_context_, nullptr);
  std::abort();  // unreachable: a finished fiber is never resumed
}

void BlockRunner::push_ready(std::uint32_t thread) {
  threads_[thread].state = ThreadState::State::kReady;
  ready_[(ready_head_ + ready_count_) % ready_.size()] = thread;
  ++ready_count_;
}

void BlockRunner::wake_lanes(std::uint32_t warp, std::uint32_t lanes) {
  for (std::uint32_t m = lanes; m != 0; m &= m - 1) {
    push_ready(warp * 32 + static_cast<std::uint32_t>(std::countr_zero(m)));
  }
}

void BlockRunner::thread_exited(ThreadState& thread) {
  --live_;
  const std::uint32_t woken = warps_[thread.warp].lane_exited(thread.lane);
  wake_lanes(thread.warp, woken);
  // Exited threads no longer count at __syncthreads (as on Volta and later GPUs), nor at the
  // barriers of the tiles they belong to.
  if (barrier_arrived_ > 0 && barrier_arrived_ == live_) {
    complete_barrier();
  }
  const auto rank = static_cast<std::uint32_t>(&thread - threads_.data());
  for (std::size_t i = tile_barriers_.size(); i-- > 0;) {
    TileBarrier& tile = tile_barriers_[i];
    if (rank >= tile.first && rank - tile.first < tile.count && --tile.expected == tile.arrived) {
      complete_tile_barrier(i);
    }
  }
}

int BlockRunner::barrier(BarrierKind kind, int predicate, ::memcarlo::host::CallSite where) {
  ThreadState& thread = *current_thread;
  ++barrier_arrived_;
  barrier_true_ += predicate != 0 ? 1 : 0;
  if (barrier_arrived_ == live_) {
    complete_barrier();
  } else {
    thread.state = ThreadState::State::kAtBarrier;
    thread.wait_site = where;
    thread.wait_name = "__syncthreads";
    suspend(thread);
  }
  // The counts stay until the next barrier completes, which needs this thread to arrive again.
  switch (kind) {
    case BarrierKind::kPlain:
      return 0;
    case BarrierKind::kCount:
      return static_cast<int>(last_barrier_true_);
    case BarrierKind::kAnd:
      return last_barrier_true_ == last_barrier_arrived_ ? 1 : 0;
    case BarrierKind::kOr:
      return last_barrier_true_ > 0 ? 1 : 0;
  }
  return 0;
}

void BlockRunner::complete_barrier() {
  last_barrier_arrived_ = barrier_arrived_;
  last_barrier_true_ = barrier_true_;
  barrier_arrived_ = barrier_true_ = 0;
  end_trace_interval();
  for (std::uint32_t i = 0; i < threads_.size(); ++i) {
    if (threads_[i].state == ThreadState::State::kAtBarrier) {
      push_ready(i);
    }
  }
}

void BlockRunner::end_trace_interval() {
  if (traced_ && !trace_abandoned_) {
    merge_interval();
    for (std::uint32_t w = 0; w < launch_->warps_per_block; ++w) {
      pending_barriers_[w] = static_cast<std::uint8_t>(std::min(pending_barriers_[w] + 1, 255));
    }
    buffered_events_ = 0;
  }
}

void BlockRunner::grid_barrier(::memcarlo::host::CallSite where) {
  if (!cooperative()) {
    fatal(kExitSoftware, "grid.sync() at " + site_text(where.file_name(), where.line()) +
                             " in kernel '" + std::string(launch_->request->kernel_name) +
                             "', which was not launched with cudaLaunchCooperativeKernel: a GPU "
                             "synchronizes a grid only in a cooperative launch (elsewhere the "
                             "behaviour is undefined)");
  }
  ThreadState& thread = *current_thread;
  ++grid_arrived_;
  thread.state = ThreadState::State::kAtGridBarrier;
  thread.wait_site = where;
  thread.wait_name = "grid.sync()";
  suspend(thread);
}

void BlockRunner::tile_barrier(std::uint32_t first, std::uint32_t count, const char* what,
                               ::memcarlo::host::CallSite where) {
  ThreadState& thread = *current_thread;
  count = std::min<std::uint32_t>(count, static_cast<std::uint32_t>(threads_.size()) - first);
  auto open = std::find_if(tile_barriers_.begin(), tile_barriers_.end(), [&](const TileBarrier& b) {
    return b.first == first && b.count == count;
  });
  if (open == tile_barriers_.end()) {
    const auto expected = static_cast<std::uint32_t>(
        std::count_if(threads_.begin() + first, threads_.begin() + first + count,
                      [](const ThreadState& t) { return t.state != ThreadState::State::kDone; }));
    open = tile_barriers_.insert(tile_barriers_.end(), TileBarrier{first, count, expected, 0});
  }
  if (++open->arrived == open->expected) {
    complete_tile_barrier(static_cast<std::size_t>(open - tile_barriers_.begin()));
    return;
  }
  thread.state = ThreadState::State::kAtTileBarrier;
  thread.wait_site = where;
  thread.wait_name = what;
  suspend(thread);
}

void BlockRunner::complete_tile_barrier(std::size_t index) {
  const TileBarrier tile = tile_barriers_[index];
  // Its warps' accesses before and after it are ordered: no race between them to look for.
  interval_tile_synced_ = interval_tile_synced_ || tile.count > 32;
  tile_barriers_.erase(tile_barriers_.begin() + static_cast<std::ptrdiff_t>(index));
  // Every live thread of the range waits here: one in another tile's barrier would not have
  // arrived at this one, so this one would not be complete.
  for (std::uint32_t i = tile.first; i < tile.first + tile.count; ++i) {
    if (threads_[i].state == ThreadState::State::kAtTileBarrier) {
      push_ready(i);
    }
  }
}

std::uint64_t BlockRunner::collective(WarpOp op, std::uint32_t mask, bool implicit_mask,
                                      std::uint64_t value, int parameter, int width,
                                      ::memcarlo::host::CallSite where) {
  ThreadState& thread = *current_thread;
  WarpCollectives& warp = warps_[thread.warp];
  const WarpCollectives::Arrival arrival =
      warp.arrive(thread.lane, op, mask, implicit_mask, value, parameter, width, where);
  if (arrival.completed) {
    wake_lanes(thread.warp, arrival.participants & ~(1u << thread.lane));
  } else {
    thread.state = ThreadState::State::kAtCollective;
    thread.wait_site = where;
    thread.wait_name = warp_op_name(op);
    suspend(thread);
  }
  return warp.result(thread.lane);
}

void BlockRunner::yield() {
  ThreadState& thread = *current_thread;
  push_ready(static_cast<std::uint32_t>(&thread - threads_.data()));
  suspend(thread);
}

bool BlockRunner::resolve_quiescent() {
  bool woke = false;
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    const std::uint32_t woken = warps_[w].complete_implicit_groups();
    wake_lanes(w, woken);
    woke = woke || woken != 0;
  }
  return woke;
}

void BlockRunner::merge_warp(std::uint32_t warp) {
  const std::size_t first = std::size_t{warp} * 32;
  const std::size_t count = std::min<std::size_t>(32, threads_.size() - first);
  std::vector<tracebuf::WarpRecord>& records = warp_records_[warp];
  const std::size_t merged_before = records.size();
  merger_.merge(std::span(lane_events_).subspan(first, count), launch_->loads->kinds(),
                pending_barriers_[warp], records);
  lane_sharing_.scan(std::span(records).subspan(merged_before));
  for (std::size_t i = first; i < first + count; ++i) {
    lane_events_[i].clear();
  }
}

void BlockRunner::merge_interval() {
  const std::uint32_t warps = launch_->warps_per_block;
  interval_records_.resize(warps);
  interval_begin_.resize(warps);
  for (std::uint32_t w = 0; w < warps; ++w) {
    interval_begin_[w] = warp_records_[w].size();
    merge_warp(w);
  }
  if (warps > 1 && !interval_tile_synced_) {
    for (std::uint32_t w = 0; w < warps; ++w) {
      interval_records_[w] =
          std::span<const tracebuf::WarpRecord>(warp_records_[w]).subspan(interval_begin_[w]);
    }
    warp_conflicts_.scan(interval_records_);
  }
  interval_tile_synced_ = false;
}

bool BlockRunner::abandon_trace() {
  if (!trace_abandoned_) {
    trace_abandoned_ = true;
    for (ThreadState& thread : threads_) {
      thread.events = nullptr;
    }
    for (std::vector<LaneEvent>& events : lane_events_) {
      std::vector<LaneEvent>().swap(events);  // give the memory back now
    }
  }
  return false;
}

void BlockRunner::report_deadlock() const {
  // Group the waiting threads by what they wait in, with one example thread each.
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> waits;  // what -> (count, thread)
  std::uint32_t exited = 0;
  for (std::uint32_t i = 0; i < threads_.size(); ++i) {
    const ThreadState& t = threads_[i];
    if (t.state == ThreadState::State::kDone) {
      ++exited;
      continue;
    }
    const std::string what = std::string(t.wait_name) + " (" +
                             site_text(t.wait_site.file_name(), t.wait_site.line()) + ")";
    auto [it, inserted] = waits.try_emplace(what, 0, i);
    ++it->second.first;
  }
  std::string message = "deadlock in kernel '" + std::string(launch_->request->kernel_name) +
                        "', block " + dim_text(threads_.front().builtins.block_idx) +
                        ": no CUDA thread can continue.";
  for (const auto& [what, count_and_thread] : waits) {
    message += "\n  " + std::to_string(count_and_thread.first) + " thread(s) wait in " + what +
               ", e.g. threadIdx " +
               dim_text(threads_[count_and_thread.second].builtins.thread_idx);
  }
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    message += warps_[w].describe_pending(w);
  }
  message += "\n  " + std::to_string(exited) +
             " thread(s) exited. A __syncthreads or warp collective that not every expected "
             "thread reaches is undefined behaviour on a GPU.";
  fatal(kExitSoftware, message);
}

// ---- entry points of the CUDA headers ----------------------------------------------------------

int block_barrier(BarrierKind kind, int predicate, ::memcarlo::host::CallSite where) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported("__syncthreads outside a kernel", where);
  }
  return thread->runner->barrier(kind, predicate, where);
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, bool implicit_mask, std::uint64_t value,
                              int parameter, int width, ::memcarlo::host::CallSite where) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported((std::string(warp_op_name(op)) + " outside a kernel").c_str(), where);
  }
  return thread->runner->collective(op, mask, implicit_mask, value, parameter, width, where);
}

void tile_barrier(unsigned first, unsigned count, const char* what,
                  ::memcarlo::host::CallSite where) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported((std::string(what) + " outside a kernel").c_str(), where);
  }
  thread->runner->tile_barrier(first, count, what, where);
}

unsigned char* tile_exchange_slots(::memcarlo::host::CallSite where) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported("cooperative groups tile collectives outside a kernel", where);
  }
  return thread->runner->tile_exchange_slots();
}

void grid_barrier(::memcarlo::host::CallSite where) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported("grid.sync() outside a kernel", where);
  }
  thread->runner->grid_barrier(where);
}

bool cooperative_launch() {
  const ThreadState* thread = current_thread;
  return thread != nullptr && thread->runner->cooperative();
}

void yield_thread() {
  if (ThreadState* thread = current_thread) {
    thread->runner->yield();
  }
}

void note_spin(bool spinning) {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    return;
  }
  if (!spinning) {
    thread->spin_count = 0;
  } else if (++thread->spin_count >= 16) {
    // Another fiber of this block probably holds what this one waits for: let it run.
    thread->spin_count = 0;
    thread->runner->yield();
  }
}

void* dynamic_shared_memory() {
  ThreadState* thread = current_thread;
  if (thread == nullptr) {
    unsupported("dynamic shared memory outside a kernel", CallSite{});
  }
  return thread->runner->dynamic_shared();
}

}  // namespace memcarlo::host::detail
