// Output files are checked before the work that fills them: a report path that cannot be written
// is found before a build, a run and a simulation, with the system's reason.
#pragma once

#include <string>

namespace memcarlo::cli {

/// Throws UserError (exit 1) "cannot write the WHAT to PATH: REASON" unless PATH can be opened
/// for writing now. Leaves an existing file as it was and removes a file it had to create. "-"
/// (standard output) and "" (no such output) pass.
void check_writable(const std::string& path, const std::string& what);

/// "cannot write the WHAT to PATH: REASON" with errno's reason, for a write that failed.
std::string write_failure(const std::string& path, const std::string& what);

/// The page beside a report: DIR/NAME.json -> DIR/NAME.html ("report.html" for "-").
std::string page_beside(const std::string& report_path);

}  // namespace memcarlo::cli
