// libFuzzer harness: the JSON inputs memcarlo reads besides hierarchies. The first byte picks the
// reader, the rest is the file:
//   0 Locality Descriptors (parse, then check against a 16 x 4 grid and one allocation)
//   1 a report read by `compare` (parse_report_predictions)
//   2 two reports read by `diff`, split at a line "---"
//   3 a report turned into an HTML page (`report --html`)
//   4 a shard file read by `merge`
//   5 a sweep's --points file
// Each reader's documented exception is a refusal; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "fuzz_support.hpp"
#include "memcarlo/reports/html_report.hpp"
#include "memcarlo/reports/ncu_compare.hpp"
#include "memcarlo/reports/report_diff.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "shard_file.hpp"
#include "sweep_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memcarlo;
  if (size == 0) {
    return 0;
  }
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0: {
        const auto descriptors = tracebuf::parse_descriptors(text);
        tracebuf::check_descriptors(descriptors, {16, 4, 1}, {{0, 0x10000, 1 << 20, "a"}});
        (void)tracebuf::parse_descriptors(tracebuf::descriptors_to_json(descriptors));
        break;
      }
      case 1:
        (void)reports::parse_report_predictions(text, "fuzz.json");
        break;
      case 2: {
        const auto [a, b] = fuzz::split_at_marker(text, "---");
        (void)reports::diff_reports(a, "a.json", b, "b.json");
        break;
      }
      case 3: {
        const nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
        if (!report.is_discarded()) {
          (void)reports::html_report(report, "fuzz.json");
        }
        break;
      }
      case 4: {
        const fuzz::InputFile file(text, ".shard.json");
        (void)cli::read_shard(file.path());
        break;
      }
      default: {
        const fuzz::InputFile file(text, ".points.json");
        (void)cli::file_points(file.path());
        break;
      }
    }
  } catch (const tracebuf::DescriptorError&) {
  } catch (const reports::CompareInputError&) {
  } catch (const reports::DiffInputError&) {
  } catch (const reports::HtmlReportError&) {
  } catch (const cli::UserError&) {
  }
  return 0;
}
