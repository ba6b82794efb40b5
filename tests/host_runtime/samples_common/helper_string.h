// Our stand-in for the command-line half of the CUDA samples' Common headers (helper_string.h),
// reduced to what sample-style programs call: "-name" flags and "-name=value" integers. Host code
// only; written for these tests.
#ifndef MEMCARLO_TEST_HELPER_STRING_H
#define MEMCARLO_TEST_HELPER_STRING_H

#include <cstdlib>
#include <cstring>

/// "-name" or "--name", alone or as "-name=value".
inline const char* memcarlo_test_flag_value(int argc, const char** argv, const char* name) {
  const std::size_t length = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    const char* text = argv[i];
    while (*text == '-') {
      ++text;
    }
    if (std::strncmp(text, name, length) == 0 && (text[length] == '\0' || text[length] == '=')) {
      return text + length;
    }
  }
  return nullptr;
}

inline bool checkCmdLineFlag(const int argc, const char** argv, const char* flag) {
  return memcarlo_test_flag_value(argc, argv, flag) != nullptr;
}

/// The samples pass "name=" here; 0 when the flag is absent or has no value.
inline int getCmdLineArgumentInt(const int argc, const char** argv, const char* name_equals) {
  const std::size_t length = std::strlen(name_equals);
  char name[64] = {};
  std::strncpy(name, name_equals, sizeof name - 1);
  if (length > 0 && length < sizeof name && name[length - 1] == '=') {
    name[length - 1] = '\0';
  }
  const char* value = memcarlo_test_flag_value(argc, argv, name);
  return value != nullptr && *value == '=' ? std::atoi(value + 1) : 0;
}

#endif  // MEMCARLO_TEST_HELPER_STRING_H
