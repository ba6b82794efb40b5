// Where a CUDA intrinsic was called from, for messages: filled by default arguments at the call
// site like CallSite{}, but with the __builtin_FILE/__builtin_LINE that GCC
// and Clang both have (Clang 14 cannot compile libstdc++'s <source_location>).
#pragma once

namespace memcarlo::host {

class CallSite {
 public:
  constexpr CallSite(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
      : file_(file), line_(line) {}
  [[nodiscard]] constexpr const char* file_name() const { return file_; }
  [[nodiscard]] constexpr unsigned line() const { return line_; }

 private:
  const char* file_;
  unsigned line_;
};

}  // namespace memcarlo::host
