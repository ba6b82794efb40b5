// The files built into the reports library (cmake/embed_resource.cmake generates one source each).
#pragma once

#include <string_view>

namespace memcarlo::resources {

/// Chart.js, the UMD build of Debian's libjs-chart.js (chart.min.js), as found at configure time.
std::string_view chart_js();
/// The HTML page's script, in four parts (the status, error capture, helpers and entry; the
/// simulate report's page; the sweep report's page; the study report's page), and its style
/// (reports/src/resources/).
std::string_view html_report_core_js();
std::string_view html_report_simulation_js();
std::string_view html_report_sweep_js();
/// The study report's page (programs x points per metric, the average group last).
std::string_view html_report_study_js();
std::string_view html_report_css();

}  // namespace memcarlo::resources
