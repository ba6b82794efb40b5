// The script of memcarlo's HTML report, its first part: the status, the error capture, the helpers
// and the entry (reports/src/html_report.cpp builds report_*.js into the page, this one first).
// It reads the report from the element report-data (JSON), builds the tables and draws the plots with
// Chart.js (the global `Chart`, inlined after this script). After drawing it writes, into
// the element render-status, what it made (charts and the data points each holds, table rows) and
// every error seen, so that a headless browser can check the page (tests/reports/browser/).
'use strict';

var memcarloReport = (function () {
  var status = { done: false, kind: null, load_rows: 0, point_rows: 0, charts: [], errors: [] };
  var charts = [];

  function writeStatus() {
    var element = document.getElementById('render-status');
    if (element) {
      element.textContent = JSON.stringify(status);
    }
  }

  // Errors go into the status as well as to the console, so that a test sees them in the DOM.
  function recordError(text) {
    status.errors.push(String(text));
    writeStatus();
  }
  window.addEventListener('error', function (event) {
    recordError('Uncaught ' + (event.message || 'error') + ' at ' + (event.filename || '?') + ':' +
                (event.lineno || 0));
  });
  window.addEventListener('unhandledrejection', function (event) {
    recordError('Unhandled rejection: ' + event.reason);
  });
  var consoleError = console.error.bind(console);
  console.error = function () {
    recordError('console.error: ' + Array.prototype.slice.call(arguments).join(' '));
    consoleError.apply(null, arguments);
  };


  // ---- Small helpers -------------------------------------------------------------------------

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) {
      if (key === 'text') {
        node.textContent = attributes[key];
      } else if (key === 'className') {
        node.className = attributes[key];
      } else {
        node.setAttribute(key, attributes[key]);
      }
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) {
        node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  function isNumber(value) {
    return typeof value === 'number' && isFinite(value);
  }

  function isDistribution(value) {
    return value !== null && typeof value === 'object' && isNumber(value.mean);
  }

  function isRatio(metric) {
    return /ratio|coverage|accuracy/.test(metric);
  }

  function formatNumber(value, digits) {
    if (!isNumber(value)) {
      return '-';
    }
    if (Math.abs(value) >= 1e6) {
      return value.toExponential(3);
    }
    return value.toFixed(digits);
  }

  function digitsFor(metric) {
    return isRatio(metric) ? 3 : 1;
  }

  function halfWidth(distribution) {
    var ci = distribution && distribution.ci95;
    return Array.isArray(ci) && isNumber(ci[0]) && isNumber(ci[1]) ? (ci[1] - ci[0]) / 2 : null;
  }

  // "0.612 ± 0.004" (mean and 95% half-width), or "-".
  function withInterval(distribution, digits) {
    if (!isDistribution(distribution)) {
      return '-';
    }
    var half = halfWidth(distribution);
    return formatNumber(distribution.mean, digits) +
           (half === null ? '' : ' ± ' + formatNumber(half, digits));
  }

  function intervalText(distribution, digits) {
    var ci = distribution && distribution.ci95;
    if (!Array.isArray(ci) || !isNumber(ci[0]) || !isNumber(ci[1])) {
      return '-';
    }
    return '[' + formatNumber(ci[0], digits) + ', ' + formatNumber(ci[1], digits) + ']';
  }

  // Metrics in the order of memcarlo's metric table (analysis/src/metrics.cpp), whatever order the
  // JSON has them in; others after them, by name.
  var metricOrder = ['latency_cycles', 'l1_hit_ratio', 'l1_read_hit_ratio', 'l1_sector_hit_ratio',
                     'l1_sector_read_hit_ratio', 'l1_sector_lookup_hit_ratio', 'l1_inflight_ratio',
                     'l2_hit_ratio', 'l2_sector_hit_ratio', 'l2_read_hit_ratio', 'l2_sector_read_hit_ratio',
                     'l2_write_hit_ratio', 'l2_sector_write_hit_ratio', 'dram_latency_cycles',
                     'prefetch_accuracy', 'prefetch_coverage', 'prefetch_late_ratio'];

  function byMetricOrder(a, b) {
    var x = metricOrder.indexOf(a) < 0 ? metricOrder.length : metricOrder.indexOf(a);
    var y = metricOrder.indexOf(b) < 0 ? metricOrder.length : metricOrder.indexOf(b);
    return x - y || (a < b ? -1 : a > b ? 1 : 0);
  }

  function metricLabel(metric) {
    return metric.replace(/_/g, ' ').replace(/\bl1\b/g, 'L1').replace(/\bl2\b/g, 'L2')
        .replace(/\bdram\b/g, 'DRAM');
  }

  function section(title, children) {
    return element('section', {}, [element('h2', { text: title })].concat(children));
  }

  function keyValueTable(rows) {
    return element('table', { className: 'key-value' }, rows.map(function (row) {
      return element('tr', {}, [element('th', { text: row[0] }), element('td', { text: String(row[1]) })]);
    }));
  }

  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
                 '#7f7f7f', '#bcbd22', '#17becf'];

  function transparent(color, alpha) {
    var value = parseInt(color.slice(1), 16);
    return 'rgba(' + ((value >> 16) & 255) + ',' + ((value >> 8) & 255) + ',' + (value & 255) + ',' +
           alpha + ')';
  }

  // A chart in a box of fixed height; recorded for the status.
  function makeChart(container, name, config) {
    var box = element('div', { className: 'chart-box' });
    var canvas = element('canvas', { 'data-chart': name, 'aria-label': name, role: 'img' });
    box.appendChild(canvas);
    container.appendChild(box);
    config.options = config.options || {};
    config.options.animation = false;
    config.options.responsive = true;
    config.options.maintainAspectRatio = false;
    var chart = new Chart(canvas.getContext('2d'), config);
    chart.memcarloName = name;
    charts.push(chart);
    return chart;
  }

  function destroyCharts(list) {
    list.forEach(function (chart) {
      var index = charts.indexOf(chart);
      if (index >= 0) {
        charts.splice(index, 1);
      }
      chart.destroy();
    });
  }

  function titled(text) {
    return { display: true, text: text };
  }

  // "lo–hi" per bin, with enough digits that neighbouring bins read differently.
  function binLabels(edges, digits) {
    var width = Infinity;
    for (var j = 0; j + 1 < edges.length; ++j) {
      if (edges[j + 1] - edges[j] > 0) {
        width = Math.min(width, edges[j + 1] - edges[j]);
      }
    }
    if (isFinite(width)) {
      digits = Math.min(8, Math.max(digits, Math.ceil(-Math.log10(width))));
    }
    var labels = [];
    for (var i = 0; i + 1 < edges.length; ++i) {
      labels.push(formatNumber(edges[i], digits) + '–' + formatNumber(edges[i + 1], digits));
    }
    return labels;
  }

  function loadLocation(load) {
    return (load.file || '?') + ':' + load.line + ':' + load.column;
  }

  function loadLabel(load) {
    return '#' + load.id + '  ' + loadLocation(load) + '  ' + load.expression + ' (' + load.kind + ')';
  }

  function inputsSection(report) {
    var inputs = report.inputs;
    var hierarchy = inputs.hierarchy || {};
    var stop = inputs.stop_rule;
    var rows = [
      ['trace', inputs.trace],
      ['trace SHA-256', inputs.trace_sha256 || '-'],
      ['hierarchy', (hierarchy.name || '?') + (Array.isArray(hierarchy.overrides) && hierarchy.overrides.length ? ' with --set ' + hierarchy.overrides.join(' ') : '')],
      ['seed', inputs.seed],
      ['trials', inputs.trials],
      ['stop rule', stop ? 'until every 95% half-width ≤ ' + stop.until_ci + ' (at most ' + stop.max_trials + ' trials)' +
                           (typeof stop.converged === 'boolean' ? (stop.converged ? ', converged' : ', NOT converged') : '')
                         : 'fixed number of trials'],
      ['producer', report.producer || '-']
    ];
    if (Array.isArray(inputs.varied_keys)) {
      rows.splice(3, 0, ['varied', inputs.varied_keys.join(', ') + (inputs.mode ? ' (' + inputs.mode + ')' : '')]);
    }
    var children = [keyValueTable(rows)];
    var parameters = hierarchy.parameters;
    if (parameters && typeof parameters === 'object') {
      var keys = Object.keys(parameters).sort();
      children.push(element('details', {}, [
        element('summary', { text: 'Hierarchy parameters (' + keys.length + ')' }),
        element('table', { className: 'key-value parameters' }, keys.map(function (key) {
          var value = parameters[key];
          return element('tr', {}, [element('th', { text: key }),
                                    element('td', { text: typeof value === 'object' ? JSON.stringify(value) : String(value) })]);
        }))
      ]));
    }
    return section('Inputs', children);
  }

  function metricsTable(metrics) {
    var table = element('table', { className: 'data metrics' });
    table.appendChild(element('thead', {}, [element('tr', {}, ['metric', 'mean ± 95% half-width', '95% interval', 'stddev', 'min', 'max', 'trials'].map(function (title) {
      return element('th', { text: title });
    }))]));
    var body = element('tbody');
    Object.keys(metrics).sort(byMetricOrder).forEach(function (metric) {
      var d = metrics[metric];
      var digits = digitsFor(metric);
      body.appendChild(element('tr', {}, [
        element('td', { text: metricLabel(metric) }),
        element('td', { className: 'number', text: withInterval(d, digits) }),
        element('td', { className: 'number', text: intervalText(d, digits) }),
        element('td', { className: 'number', text: isDistribution(d) ? formatNumber(d.stddev, digits + 1) : '-' }),
        element('td', { className: 'number', text: isDistribution(d) ? formatNumber(d.min, digits) : '-' }),
        element('td', { className: 'number', text: isDistribution(d) ? formatNumber(d.max, digits) : '-' }),
        element('td', { className: 'number', text: isDistribution(d) && isNumber(d.trials) ? String(d.trials) : '-' })
      ]));
    });
    table.appendChild(body);
    return table;
  }

  // ---- Entry ----------------------------------------------------------------------------------

  function recordCharts() {
    status.charts = charts.map(function (chart) {
      return {
        name: chart.memcarloName,
        type: chart.config.type,
        points: chart.data.datasets.map(function (dataset, index) {
          return chart.getDatasetMeta(index).data.length;
        })
      };
    });
    writeStatus();
  }

  function render() {
    var app = document.getElementById('app');
    try {
      if (typeof Chart === 'undefined') {
        throw new Error('Chart.js is missing from the page');
      }
      Chart.defaults.font.size = 12;
      var report = JSON.parse(document.getElementById('report-data').textContent);
      app.textContent = '';
      if (report.schema === 'memcarlo-sweep') {
        api.renderSweep(app, report);
      } else {
        api.renderSimulation(app, report);
      }
      app.appendChild(element('footer', { text: 'Plots drawn with Chart.js ' + (Chart.version || '') + ' (MIT License), built into this page.' }));
      status.done = true;
    } catch (error) {
      recordError('render failed: ' + (error && error.stack ? error.stack : error));
      app.appendChild(element('p', { className: 'error', text: 'The report could not be drawn: ' + error }));
    }
    recordCharts();
  }

  // The helpers the other parts of the page's script use; they add renderSimulation and
  // renderSweep (report_simulation.js, report_sweep.js).
  var api = {
    element: element, isNumber: isNumber, isDistribution: isDistribution, isRatio: isRatio,
    formatNumber: formatNumber, digitsFor: digitsFor, halfWidth: halfWidth,
    withInterval: withInterval, intervalText: intervalText, metricOrder: metricOrder,
    byMetricOrder: byMetricOrder, metricLabel: metricLabel, section: section,
    keyValueTable: keyValueTable, palette: palette, transparent: transparent, makeChart: makeChart,
    destroyCharts: destroyCharts, titled: titled, binLabels: binLabels, loadLocation: loadLocation,
    loadLabel: loadLabel, inputsSection: inputsSection, metricsTable: metricsTable,
    recordCharts: recordCharts, render: render, status: status
  };
  return api;
})();
