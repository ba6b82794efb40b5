// From access sites to loads-table entries and probe edits (ids, sequences, dependences).
#include <algorithm>
#include <map>

#include "device_analysis.hpp"

namespace memcarlo::instrumenter {

namespace {
struct Group {
  std::vector<std::size_t> members;  // site indexes
  bool probed = false;
  bool tabled = false;
  std::optional<std::uint32_t> id;
};

AccessKind merged_kind(AccessKind a, AccessKind b) {
  if (a == b) return a;
  if (a == AccessKind::kAtomic || b == AccessKind::kAtomic) return AccessKind::kAtomic;
  return AccessKind::kReadModifyWrite;
}
}  // namespace

TableResult build_table(const std::vector<AccessSite>& sites, EditSet& edits) {
  // Group sites by the text they rewrite; sites without a range stay alone.
  std::vector<Group> groups;
  std::vector<std::size_t> group_of(sites.size());
  std::map<FileRange, std::size_t> by_range;
  std::map<std::string, std::size_t> file_order;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const AccessSite& site = sites[i];
    if (site.range) {
      file_order.emplace(site.range->file, file_order.size());
      const auto [it, inserted] = by_range.emplace(*site.range, groups.size());
      if (!inserted) {
        group_of[i] = it->second;
        groups[it->second].members.push_back(i);
        continue;
      }
    }
    group_of[i] = groups.size();
    groups.push_back({{i}, false, false, std::nullopt});
  }
  for (Group& group : groups) {
    for (std::size_t member : group.members) {
      group.probed = group.probed || sites[member].skip_reason.empty();
      group.tabled = group.tabled || sites[member].skip_reason.empty() ||
                     sites[member].redundant_of.has_value();
    }
  }
  // Source order: file of first appearance, then position (outer accesses before inner ones).
  std::vector<std::size_t> order;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].tabled) order.push_back(g);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const AccessSite& x = sites[groups[a].members.front()];
    const AccessSite& y = sites[groups[b].members.front()];
    if (!x.range || !y.range) return groups[a].members.front() < groups[b].members.front();
    const std::size_t fx = file_order[x.range->file];
    const std::size_t fy = file_order[y.range->file];
    if (fx != fy) return fx < fy;
    if (x.range->begin != y.range->begin) return x.range->begin < y.range->begin;
    return x.range->end > y.range->end;
  });
  for (std::size_t position = 0; position < order.size(); ++position) {
    groups[order[position]].id = static_cast<std::uint32_t>(position);
  }
  // Names of load placeholders in index forms.
  std::map<std::string, std::string> load_names;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const Group& group = groups[group_of[i]];
    load_names["load:" + std::to_string(i)] =
        group.id ? "load#" + std::to_string(*group.id) : "load@" + sites[i].location;
  }
  // Dense sequence numbers, in the order the walk opened the sequences (program order).
  std::map<std::int64_t, std::int64_t> sequence_numbers;
  for (std::size_t g : order) {
    for (std::size_t member : groups[g].members) {
      if (sites[member].sequence >= 0) sequence_numbers.emplace(sites[member].sequence, 0);
    }
  }
  std::int64_t next_number = 0;
  for (auto& [sequence, number] : sequence_numbers) number = next_number++;
  TableResult result;
  for (std::size_t g : order) {
    const Group& group = groups[g];
    const AccessSite& first = sites[group.members.front()];
    LoadEntry entry;
    entry.id = *group.id;
    entry.function = first.function;
    std::set<std::string> kernels;
    std::set<std::uint32_t> depends_on;
    // Known only when every write of the group had its stored value followed.
    std::set<std::uint32_t> value_depends_on;
    bool value_known = false;
    bool value_unknown = false;
    AccessKind kind = first.kind;
    std::int64_t sequence = -1;
    for (std::size_t member : group.members) {
      const AccessSite& site = sites[member];
      kernels.insert(site.kernels.begin(), site.kernels.end());
      kind = merged_kind(kind, site.kind);
      if (sequence < 0) sequence = site.sequence;
      for (std::size_t dependency : site.depends_on) {
        const Group& other = groups[group_of[dependency]];
        if (other.id && *other.id != entry.id) depends_on.insert(*other.id);
      }
      if (site.kind == AccessKind::kWrite || site.kind == AccessKind::kReadModifyWrite) {
        if (!site.value_depends_on) {
          value_unknown = true;
        } else {
          value_known = true;
          for (std::size_t dependency : *site.value_depends_on) {
            // An unprobed redundant load leaves no records: its probed original stands for it.
            const std::size_t load = sites[dependency].redundant_of.value_or(dependency);
            const Group& other = groups[group_of[load]];
            if (other.id && *other.id != entry.id) value_depends_on.insert(*other.id);
          }
        }
      }
    }
    entry.kernels.assign(kernels.begin(), kernels.end());
    entry.file = first.file;
    entry.line = first.line;
    entry.column = first.column;
    entry.expression = first.expression;
    entry.kind = to_string(kind);
    entry.element_type = first.element_type;
    entry.element_size = first.element_size;
    entry.base = first.base;
    entry.address_space = first.address_space == "global" ? "global" : "unknown";
    entry.loop_depth = first.loop_depth;
    if (sequence >= 0) entry.sequence = sequence_numbers[sequence];
    entry.depends_on.assign(depends_on.begin(), depends_on.end());
    if (value_known && !value_unknown) {
      entry.value_depends_on.emplace(value_depends_on.begin(), value_depends_on.end());
    }
    if (!group.probed) {
      for (std::size_t member : group.members) {
        if (sites[member].redundant_of) {
          entry.redundant_of = groups[group_of[*sites[member].redundant_of]].id;
          break;
        }
      }
    }
    entry.index_json = index_to_json(first.index, load_names).dump();
    if (group.probed && first.range) {
      const std::string id = std::to_string(entry.id);
      const std::string origin = "probe " + id + " (" + first.expression + ") at " + first.location;
      if (first.style == ProbeStyle::kLvalue) {
        edits.wrap(first.range->file, first.range->begin, first.range->end,
                   "(*memcarlo_probe(memcarlo_tu, " + id + ", &(", ")))", origin);
      } else {
        edits.wrap(first.range->file, first.range->begin, first.range->end,
                   "memcarlo_probe(memcarlo_tu, " + id + ", ", ")", origin);
      }
      ++result.probed;
    } else {
      result.skipped.push_back({first.location, first.expression, "redundant"});
    }
    result.entries.push_back(std::move(entry));
  }
  // Everything else that was found and not probed, once per distinct place.
  std::set<std::pair<std::string, std::string>> listed;
  for (const Group& group : groups) {
    if (group.tabled) continue;
    const AccessSite& first = sites[group.members.front()];
    if (listed.insert({first.location, first.expression}).second) {
      result.skipped.push_back({first.location, first.expression, first.skip_reason});
    }
  }
  return result;
}

}  // namespace memcarlo::instrumenter
