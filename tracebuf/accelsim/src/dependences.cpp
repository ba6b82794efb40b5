// Register assignment for exported accesses: address dependences from the loads table, value
// dependences from the table or, failing that, from same-thread same-address loads.
#include "dependences.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace memcarlo::accelsim::detail {

using tracebuf::AccessKind;

DependenceTracker::DependenceTracker(const std::vector<tracebuf::LoadInfo>& loads) {
  dependences_.resize(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i) {
    Dependences& d = dependences_[i];
    d.address = loads[i].depends_on;
    // value_depends_on is kept verbatim with the entry's other keys memcarlo does not model.
    const auto extra = nlohmann::json::parse(loads[i].extra_json, nullptr, false);
    if (extra.is_object()) {
      const auto it = extra.find("value_depends_on");
      if (it != extra.end() && it->is_array()) {
        d.value_known = true;
        for (const auto& id : *it) {
          if (id.is_number_unsigned()) {
            d.value.push_back(id.get<std::uint32_t>());
          }
        }
      }
    }
  }
}

void DependenceTracker::start_warp() {
  for (LoadSlot& slot : slots_) {
    slot.valid = false;
  }
  next_slot_ = 0;
  last_slot_ = kDestinationCount;
}

std::uint32_t DependenceTracker::latest_slot_of(std::uint32_t static_id) const {
  for (std::uint32_t back = 1; back <= kDestinationCount; ++back) {
    const std::uint32_t slot = (next_slot_ + kDestinationCount - back) % kDestinationCount;
    if (slots_[slot].valid && slots_[slot].static_id == static_id) {
      return slot;
    }
  }
  return kDestinationCount;
}

std::uint32_t DependenceTracker::latest_slot_at_same_address(
    const tracebuf::RecordView& record) const {
  for (std::uint32_t back = 1; back <= kDestinationCount; ++back) {
    const std::uint32_t slot = (next_slot_ + kDestinationCount - back) % kDestinationCount;
    const LoadSlot& load = slots_[slot];
    if (!load.valid || (load.mask & record.active_mask()) == 0) {
      continue;
    }
    bool same = false;
    record.for_each_address([&](unsigned lane, std::uint64_t address) {
      same = same || (((load.mask >> lane) & 1u) != 0 && load.addresses[lane] == address);
    });
    if (same) {
      return slot;
    }
  }
  return kDestinationCount;
}

InstructionRegisters DependenceTracker::next(const tracebuf::RecordView& record, AccessKind kind) {
  InstructionRegisters registers;
  const auto add_source = [&](std::uint32_t reg) {
    const auto end = registers.sources.begin() + registers.source_count;
    if (registers.source_count < kMaxSourceRegisters &&
        std::find(registers.sources.begin(), end, reg) == end) {
      registers.sources[registers.source_count++] = reg;
    }
  };
  const Dependences* table =
      record.static_id() < dependences_.size() ? &dependences_[record.static_id()] : nullptr;

  if (table != nullptr) {
    for (std::uint32_t id : table->address) {
      if (const std::uint32_t slot = latest_slot_of(id); slot < kDestinationCount) {
        add_source(register_of_slot(slot));
      }
    }
  }
  if (registers.source_count == 0) {
    add_source(kAddressRegister);
  }

  if (kind != AccessKind::kRead) {
    const std::uint32_t before = registers.source_count;
    const bool rmw_store = record.kind() == AccessKind::kReadModifyWrite;
    if (rmw_store && last_slot_ < kDestinationCount) {
      add_source(register_of_slot(last_slot_));  // the value its own read half loaded
    }
    if (table != nullptr && table->value_known) {
      for (std::uint32_t id : table->value) {
        if (const std::uint32_t slot = latest_slot_of(id); slot < kDestinationCount) {
          add_source(register_of_slot(slot));
        }
      }
    } else if (!rmw_store) {
      if (const std::uint32_t slot = latest_slot_at_same_address(record);
          slot < kDestinationCount) {
        add_source(register_of_slot(slot));
      }
    }
    if (registers.source_count == before) {
      add_source(kDataRegister);
    }
  }

  if (kind == AccessKind::kRead || kind == AccessKind::kAtomic) {
    const std::uint32_t slot = next_slot_;
    next_slot_ = (next_slot_ + 1) % kDestinationCount;
    LoadSlot& load = slots_[slot];
    load.valid = true;
    load.static_id = record.static_id();
    load.mask = record.active_mask();
    record.for_each_address(
        [&](unsigned lane, std::uint64_t address) { load.addresses[lane] = address; });
    registers.has_destination = true;
    registers.destination = register_of_slot(slot);
    last_slot_ = slot;
  } else {
    last_slot_ = kDestinationCount;
  }
  return registers;
}

}  // namespace memcarlo::accelsim::detail
