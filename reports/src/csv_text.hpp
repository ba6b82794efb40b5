// Fields of the CSV files reports/ writes (sweep.csv, study.csv): numbers that read back to the
// same double, text quoted as RFC 4180 quotes it.
#pragma once

#include <cstdio>
#include <string>

namespace memcarlo::reports::csv {

/// `value` with 17 significant digits, so that it reads back bit for bit.
inline std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

/// `text` as one CSV field: quoted, with its quotes doubled, when it holds a comma, a quote or a
/// newline.
inline std::string field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return out + "\"";
}

}  // namespace memcarlo::reports::csv
