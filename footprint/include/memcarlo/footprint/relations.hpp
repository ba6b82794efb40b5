// TAF relations (TAFE, PACT'20 §3) derived from the instrumenter's loads table: an affine index
// form is TID_DEP, `m·load#k + c` is INDIR (B[A[i]]), a loop whose induction starts at one
// loaded value and stops at another is INDIR_RANGE (the CSR row loop). docs/footprints.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::footprint {

/// Σ coefficient · Π symbols + constant, as the loads table writes an offset, init, step or bound.
struct Form {
  struct Term {
    std::int64_t coefficient = 1;
    std::vector<std::string> symbols;
  };
  std::vector<Term> terms;
  std::int64_t constant = 0;
  std::string expression;
  /// The symbols named anywhere in the form, sorted, without duplicates.
  [[nodiscard]] std::vector<std::string> symbols() const;
};

/// A loop induction variable of an index form (`inductions` in the loads table).
struct Induction {
  std::string variable;
  std::uint32_t loop_depth = 0;
  std::optional<Form> init, step, bound;  // absent: not a polynomial (or no bound)
  std::string comparison;                 // "<", "<=", ">", ">=", "!=" or empty
};

enum class RelationKind : std::uint8_t { kTidDep, kIndirect, kIndirectRange, kUnsupported };

/// "TID_DEP", "INDIR", "INDIR_RANGE", "unsupported".
std::string_view to_string(RelationKind kind);

/// The TAF relation of one static access.
struct Relation {
  std::uint32_t load = 0;  // static id in the loads table
  RelationKind kind = RelationKind::kUnsupported;
  std::string expression;  // source text of the access, for messages
  std::string root;        // the array the index form starts from
  std::uint32_t element_size = 0;
  bool offset_in_bytes = false;  // the index form's unit: bytes rather than elements
  /// TID_DEP: the whole offset; INDIR_RANGE: the part besides coefficient · range_variable;
  /// INDIR: unused (the offset is primary_coefficient · load#primary + primary_constant).
  Form offset;
  std::vector<Induction> inductions;  // TID_DEP: the loops, outermost first
  std::vector<std::pair<std::string, std::string>> symbol_kinds;  // symbol -> kind, sorted
  // INDIR: R(r) = {m·P[r] + c}; the load `primary` reads P[r].
  // INDIR_RANGE: R = {k | P_s[r_s] + c_s <= k < P_e[r_e] + c_e}; `primary` reads P_s[r_s] and
  // `primary_end` P_e[r_e]; the offset is range_coefficient · k + offset. With
  // `end_adds_start` the end is a count from the start, P_e[r_e] + P_s[r_s] + c_e (Rodinia bfs:
  // `for (i = start; i < no_of_edges + start; i++)`), and `primary_end` reads the count.
  std::uint32_t primary = 0;
  std::uint32_t primary_end = 0;
  std::int64_t primary_coefficient = 1;  // m (INDIR)
  std::int64_t primary_constant = 0;     // c (INDIR), c_s (INDIR_RANGE)
  std::int64_t end_constant = 0;         // c_e (INDIR_RANGE)
  bool end_adds_start = false;           // INDIR_RANGE: the end is P_e + P_s + c_e
  std::string range_variable;            // k (INDIR_RANGE)
  std::int64_t range_coefficient = 1;
  /// kUnsupported: why (the estimate then takes the whole array, paper §4.4).
  std::string reason;

  /// The kind of `symbol` in the index form ("thread", "block", "launch_parameter",
  /// "kernel_parameter", "induction", "variable", "load", "size"), empty if not listed.
  [[nodiscard]] std::string_view symbol_kind(std::string_view symbol) const;
};

/// One relation per probed entry of `loads` (redundant ones, which have no records, are left
/// out), in id order. Malformed index forms throw tracebuf::MetadataError naming the entry.
std::vector<Relation> derive_relations(std::span<const tracebuf::LoadInfo> loads);

/// Whether any entry of `loads` carries an index form (traces from memcarlo synth or Accel-Sim
/// carry none, so no relation can be derived from them).
bool has_index_forms(std::span<const tracebuf::LoadInfo> loads);

}  // namespace memcarlo::footprint
