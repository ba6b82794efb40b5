// The locality graph builder: a sweep over each space's block intervals (graph.hpp).
#include "memcarlo/locality/graph.hpp"

#include <algorithm>
#include <set>

namespace memcarlo::locality {

BlockCoordinates coordinates_of(std::uint64_t block, const tracebuf::Dim3& grid) {
  const std::uint64_t plane = std::uint64_t{grid.x} * grid.y;
  return {static_cast<std::uint32_t>(block % grid.x),
          static_cast<std::uint32_t>((block % plane) / grid.x),
          static_cast<std::uint32_t>(block / plane)};
}

void merge_intervals(std::vector<KeyInterval>& intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const KeyInterval& a, const KeyInterval& b) { return a.begin < b.begin; });
  std::size_t kept = 0;
  for (const KeyInterval& interval : intervals) {
    if (interval.end <= interval.begin)
      continue;
    if (kept > 0 && interval.begin <= intervals[kept - 1].end) {
      intervals[kept - 1].end = std::max(intervals[kept - 1].end, interval.end);
    } else {
      intervals[kept++] = interval;
    }
  }
  intervals.resize(kept);
}

std::vector<KeyInterval> intervals_of_keys(std::vector<std::int64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  std::vector<KeyInterval> intervals;
  for (const std::int64_t key : keys) {
    if (!intervals.empty() && key <= intervals.back().end) {
      intervals.back().end = std::max(intervals.back().end, key + 1);
    } else {
      intervals.push_back({key, key + 1});
    }
  }
  return intervals;
}

GraphBuilder::GraphBuilder(std::uint64_t blocks)
    : blocks_(blocks),
      graph_(static_cast<std::int64_t>(blocks), static_cast<std::int64_t>(blocks)) {}

void GraphBuilder::add(std::uint32_t space, std::uint32_t block,
                       const std::vector<KeyInterval>& intervals) {
  std::vector<KeyInterval> merged = intervals;
  merge_intervals(merged);
  for (const KeyInterval& interval : merged) {
    entries_.push_back({space, block, interval.begin, interval.end});
  }
}

void GraphBuilder::emit(const std::vector<std::uint32_t>& readers, Weight length) {
  // readers is sorted ascending: pair (readers[a], readers[b]) with a > b is below the diagonal.
  for (std::size_t a = 1; a < readers.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      triplets_.emplace_back(readers[a], readers[b], length);
    }
  }
  if (triplets_.size() >= (std::size_t{1} << 21))
    fold();
}

void GraphBuilder::fold() {
  if (triplets_.empty())
    return;
  SparseGraph part(graph_.rows(), graph_.cols());
  part.setFromTriplets(triplets_.begin(), triplets_.end());  // sums repeated pairs
  graph_ += part;
  triplets_.clear();
}

// One space: the blocks reading each run of keys change only at interval ends. Between two
// event positions the readers are fixed; runs with the same readers (a strided read touches the
// same blocks row after row) are summed before their pairs are emitted, so the pairs emitted are
// one per change of readers, not one per key.
void GraphBuilder::sweep(std::size_t first, std::size_t last) {
  struct Event {
    std::int64_t position;
    std::uint32_t block;
    bool starts;
  };
  std::vector<Event> events;
  events.reserve(2 * (last - first));
  for (std::size_t e = first; e < last; ++e) {
    events.push_back({entries_[e].begin, entries_[e].block, true});
    events.push_back({entries_[e].end, entries_[e].block, false});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.position < b.position; });
  std::set<std::uint32_t> active;  // a block's intervals in one space are disjoint
  std::vector<std::uint32_t> pending;
  Weight pending_length = 0;
  std::vector<std::uint32_t> current;
  for (std::size_t e = 0; e < events.size();) {
    const std::int64_t position = events[e].position;
    for (; e < events.size() && events[e].position == position; ++e) {
      if (events[e].starts) {
        active.insert(events[e].block);
      } else {
        active.erase(events[e].block);
      }
    }
    if (e == events.size() || active.size() < 2)
      continue;
    const Weight length = events[e].position - position;
    current.assign(active.begin(), active.end());
    if (current == pending) {
      pending_length += length;
    } else {
      if (pending_length > 0)
        emit(pending, pending_length);
      pending.swap(current);
      pending_length = length;
    }
  }
  if (pending_length > 0)
    emit(pending, pending_length);
}

SparseGraph GraphBuilder::finish() {
  // Several adds for one (space, block) (two loads of one array) are joined first: a block is
  // one reader of a key however often it reads it.
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    if (a.space != b.space)
      return a.space < b.space;
    return a.block != b.block ? a.block < b.block : a.begin < b.begin;
  });
  std::size_t kept = 0;
  for (const Entry& entry : entries_) {
    Entry& last = entries_[kept > 0 ? kept - 1 : 0];
    if (kept > 0 && last.space == entry.space && last.block == entry.block &&
        entry.begin <= last.end) {
      last.end = std::max(last.end, entry.end);
    } else {
      entries_[kept++] = entry;
    }
  }
  entries_.resize(kept);
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.space != b.space ? a.space < b.space : a.begin < b.begin;
  });
  for (std::size_t first = 0; first < entries_.size();) {
    std::size_t last = first;
    while (last < entries_.size() && entries_[last].space == entries_[first].space)
      ++last;
    sweep(first, last);
    first = last;
  }
  fold();
  entries_.clear();
  SparseGraph result = std::move(graph_);
  result.makeCompressed();
  graph_ = SparseGraph(static_cast<std::int64_t>(blocks_), static_cast<std::int64_t>(blocks_));
  return result;
}

GraphSummary summarize(const SparseGraph& graph) {
  GraphSummary summary;
  for (std::int64_t row = 0; row < graph.outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(graph, row); it; ++it) {
      if (it.value() == 0)
        continue;
      summary.total += it.value();
      ++summary.pairs;
      summary.max = std::max(summary.max, it.value());
    }
  }
  return summary;
}

std::string graph_pattern(const SparseGraph& graph, const tracebuf::Dim3& grid) {
  const std::uint64_t blocks = grid.volume();
  const GraphSummary summary = summarize(graph);
  if (summary.pairs == 0)
    return "none";
  if (blocks > 1 && summary.pairs == blocks * (blocks - 1) / 2)
    return "fully connected";
  if (grid.y == 1 && grid.z == 1)
    return "partial (1-D grid)";
  bool same_row = false;
  bool same_column = false;
  bool other = false;
  for (std::int64_t row = 0; row < graph.outerSize(); ++row) {
    const BlockCoordinates i = coordinates_of(static_cast<std::uint64_t>(row), grid);
    for (SparseGraph::InnerIterator it(graph, row); it; ++it) {
      if (it.value() == 0)
        continue;
      const BlockCoordinates j = coordinates_of(static_cast<std::uint64_t>(it.col()), grid);
      if (i.z != j.z) {
        other = true;
      } else if (i.y == j.y) {
        same_row = true;
      } else if (i.x == j.x) {
        same_column = true;
      } else {
        other = true;
      }
    }
  }
  if (other)
    return "index_x+y";
  if (same_row && same_column)
    return "index_xy";
  return same_row ? "index_y only" : "index_x only";
}

}  // namespace memcarlo::locality
