// Host-side helpers every example uses: CUDA error checking, a reproducible random generator and
// "--flag value" parsing. Plain C++, so it builds with nvcc and with memcarlo's host backend alike.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

// Wraps a CUDA runtime call; on failure names the call and the source line, then exits with 1.
#define CHECK_CUDA(call)                                                        \
  do {                                                                          \
    const cudaError_t check_cuda_status = (call);                               \
    if (check_cuda_status != cudaSuccess) {                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(check_cuda_status));                      \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

// Locality Descriptors (memcarlo/locality_descriptor.h) are recorded when memcarlo-cc builds the
// example (either backend); a plain nvcc build has no memcarlo headers and skips them.
#if defined(MEMCARLO_BACKEND_HOST) || defined(MEMCARLO_BACKEND_CUDA)
#include "memcarlo/locality_descriptor.h"
#define EXAMPLE_LOCALITY_DESCRIPTORS 1
#else
#define EXAMPLE_LOCALITY_DESCRIPTORS 0
#endif

namespace example {

// splitmix64: small and fully specified, so a seed gives the same input with every compiler and
// standard library (std::uniform_*_distribution is not specified bit for bit). Traces of the
// same example and seed are therefore comparable across machines and backends.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by multiply-shift of the top 32 bits; bound must be > 0.
  unsigned below(unsigned bound) { return static_cast<unsigned>(((next() >> 32) * bound) >> 32); }
  // Uniform in [low, high) with 24 random bits, the precision of a float.
  float uniform(float low, float high) {
    return low + (high - low) * static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  }

 private:
  std::uint64_t state_;
};

// One "--name value" flag: either a whole number in [minimum, maximum] or one of the characters
// of `letters`. The variable it points to holds the default until parse_flags overwrites it.
struct Flag {
  const char* name;
  const char* help;
  unsigned* number;
  unsigned minimum;
  unsigned maximum;
  char* letter;
  const char* letters;

  static Flag whole_number(const char* name, unsigned* value, unsigned minimum, unsigned maximum,
                           const char* help) {
    return Flag{name, help, value, minimum, maximum, nullptr, nullptr};
  }
  static Flag one_letter_of(const char* name, char* value, const char* letters, const char* help) {
    return Flag{name, help, nullptr, 0, 0, value, letters};
  }

  // Whether `text` is a valid value; if so and `store` is set, writes it to the flag's variable.
  bool accept(const char* text, bool store) const {
    if (letter != nullptr) {
      if (text[0] == '\0' || text[1] != '\0' || std::strchr(letters, text[0]) == nullptr) {
        return false;
      }
      if (store) {
        *letter = text[0];
      }
      return true;
    }
    if (text[0] < '0' || text[0] > '9') {
      return false;
    }
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || value < minimum || value > maximum) {
      return false;
    }
    if (store) {
      *number = static_cast<unsigned>(value);
    }
    return true;
  }
};

inline void print_usage(std::FILE* stream, const char* program, std::initializer_list<Flag> flags) {
  std::fprintf(stream, "usage: %s", program);
  for (const Flag& flag : flags) {
    if (flag.number != nullptr) {
      std::fprintf(stream, " [%s N]", flag.name);
    } else {
      std::fprintf(stream, " [%s ", flag.name);
      for (const char* letter = flag.letters; *letter != '\0'; ++letter) {
        std::fprintf(stream, letter == flag.letters ? "%c" : "|%c", *letter);
      }
      std::fprintf(stream, "]");
    }
  }
  std::fprintf(stream, "\n");
  for (const Flag& flag : flags) {
    if (flag.number != nullptr) {
      std::fprintf(stream, "  %-12s %s (%u to %u, default %u)\n", flag.name, flag.help,
                   flag.minimum, flag.maximum, *flag.number);
    } else {
      std::fprintf(stream, "  %-12s %s (default %c)\n", flag.name, flag.help, *flag.letter);
    }
  }
}

// Reads "--name value" pairs into the flags' variables. --help prints the usage on stdout and exits
// with 0; an unknown flag or a bad value prints what was wrong and the usage on stderr, and exits
// with 2.
inline void parse_flags(int argc, char** argv, std::initializer_list<Flag> flags) {
  // Every argument is checked before any is stored, so that the usage shows the defaults.
  for (int pass = 0; pass < 2; ++pass) {
    const bool store = pass == 1;
    for (int i = 1; i < argc; i += 2) {
      if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
        print_usage(stdout, argv[0], flags);
        std::exit(0);
      }
      const Flag* flag = nullptr;
      for (const Flag& candidate : flags) {
        if (std::strcmp(argv[i], candidate.name) == 0) {
          flag = &candidate;
        }
      }
      if (flag == nullptr) {
        std::fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
        print_usage(stderr, argv[0], flags);
        std::exit(2);
      }
      const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
      if (value == nullptr || !flag->accept(value, store)) {
        std::fprintf(stderr, "%s: invalid value '%s' for %s\n", argv[0],
                     value != nullptr ? value : "(missing)", flag->name);
        print_usage(stderr, argv[0], flags);
        std::exit(2);
      }
    }
  }
}

}  // namespace example
