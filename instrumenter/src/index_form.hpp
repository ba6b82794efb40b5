// Index forms: an address offset as a polynomial over symbols (threadIdx.x, blockDim.x, loop
// induction variables, kernel parameters, loaded values), classified as affine, data-dependent
// or non-affine, and written into the loads table's `index` field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace memcarlo::instrumenter {

/// What a symbol stands for. Thread, induction, variable and load symbols vary between threads
/// or iterations; parameters (blockDim, gridDim, kernel arguments, sizes) are launch constants.
enum class SymbolKind { kThread, kBlock, kLaunchParameter, kKernelParameter, kInduction,
                        kVariable, kLoad, kSize };

/// A polynomial with integer coefficients; a monomial is a sorted list of symbol names.
class Polynomial {
 public:
  Polynomial() = default;
  static Polynomial constant(std::int64_t value);
  static Polynomial symbol(const std::string& name);

  Polynomial operator+(const Polynomial& other) const;
  Polynomial operator-(const Polynomial& other) const;
  Polynomial operator*(const Polynomial& other) const;
  Polynomial scaled(std::int64_t factor) const;

  [[nodiscard]] bool is_constant() const;
  [[nodiscard]] std::int64_t constant_term() const;
  /// Divides every coefficient by `divisor` when all are multiples of it.
  [[nodiscard]] std::optional<Polynomial> divided_exactly(std::int64_t divisor) const;
  /// Removes one occurrence of `symbol` from every monomial when each has one.
  [[nodiscard]] std::optional<Polynomial> divided_by_symbol(const std::string& symbol) const;
  /// "blockIdx.x*blockDim.x + threadIdx.x + 1".
  [[nodiscard]] std::string to_string() const;
  [[nodiscard]] const std::map<std::vector<std::string>, std::int64_t>& terms() const {
    return terms_;
  }
  /// Renames symbols (used to turn load placeholders into table ids).
  [[nodiscard]] Polynomial renamed(const std::map<std::string, std::string>& names) const;

 private:
  void add_term(const std::vector<std::string>& monomial, std::int64_t coefficient);
  std::map<std::vector<std::string>, std::int64_t> terms_;  // no zero coefficients
};

/// A value the index analysis computed: a polynomial, or why there is none.
struct SymbolicValue {
  std::optional<Polynomial> polynomial;
  std::string reason;  // set when polynomial is empty
  static SymbolicValue unknown(std::string why) { return {std::nullopt, std::move(why)}; }
};

/// A loop induction variable used by an index: `for (v = init; v < bound; v += step)`.
struct Induction {
  std::string variable;
  unsigned loop_depth = 0;
  SymbolicValue init;
  SymbolicValue step;
  SymbolicValue bound;
  std::string comparison;  // "<", "<=", ">", ">=", "!=" or empty when there is no bound
};

/// The index of one access as stored in the loads table.
struct IndexForm {
  std::string root;  // what the offset is relative to: a pointer/array variable or a load
  SymbolicValue offset;
  bool in_elements = true;  // offset counted in elements of the access type, else in bytes
  std::vector<Induction> inductions;
  std::map<std::string, SymbolKind> symbols;  // every symbol that appears, with its kind
};

/// Classification: "affine" (each monomial holds at most one varying symbol), "data_dependent"
/// (a loaded value appears in the offset or is the root), or "non_affine".
std::string classify(const IndexForm& form);

/// The JSON object written under "index"; `load_names` maps load placeholders to "load#ID".
nlohmann::json index_to_json(const IndexForm& form,
                             const std::map<std::string, std::string>& load_names);

}  // namespace memcarlo::instrumenter
