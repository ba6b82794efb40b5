// The script of memcarlo's HTML report, its first part: the status, the error capture, the helpers
// and the entry (reports/src/html_report.cpp builds report_*.js into the page, this one first).
// It reads the report from the element report-data (JSON) and memcarlo's metric table from the
// element metric-table (both written by html_report.cpp), builds the tables and draws the plots with
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

  // memcarlo's metric table, which html_report.cpp writes into the page (the element
  // metric-table) from analysis/metrics.hpp: the metrics in the table's order, each with its
  // unit, scope, counter group and whether it stays in [0, 1], and the sweep key families. The
  // script keeps no list of metrics of its own.
  var metricTable = (function () {
    var element = document.getElementById('metric-table');
    var table = element ? JSON.parse(element.textContent) : {};
    return { metrics: table.metrics || [], sweepActsOn: table.sweep_acts_on || [],
             sweepOtherKeys: table.sweep_other_keys || [] };
  })();

  // The first line of the table named `metric` (a load line and an aggregate line of one name
  // share their unit), or null for a name the table lacks.
  function metricLine(metric) {
    for (var i = 0; i < metricTable.metrics.length; i++) {
      if (metricTable.metrics[i].name === metric) {
        return metricTable.metrics[i];
      }
    }
    return null;
  }

  function isRatio(metric) {
    var line = metricLine(metric);
    return line !== null && line.unit === 'ratio';
  }

  // A ratio that cannot leave [0, 1] (the extra reads of prefetching are ratios to the demand
  // reads, which can pass 1).
  function isBoundedRatio(metric) {
    var line = metricLine(metric);
    return line !== null && line.bounded === true;
  }

  // The per-load metrics of counter group `group` (the table's order), split by whether they
  // stay in [0, 1].
  function loadMetricsOfGroup(group, bounded) {
    return metricTable.metrics.filter(function (line) {
      return line.group === group && line.scope !== 'aggregate' && line.bounded === bounded;
    }).map(function (line) { return line.name; });
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

  // Metrics in the order of memcarlo's metric table, whatever order the JSON has them in; others
  // after them, by name.
  var metricOrder = [];
  metricTable.metrics.forEach(function (line) {
    if (metricOrder.indexOf(line.name) < 0) {
      metricOrder.push(line.name);
    }
  });

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
    // The cell holds the box and what goes under the chart (the key of shortened labels).
    var cell = element('div', { className: 'chart-cell' });
    var box = element('div', { className: 'chart-box' });
    var canvas = element('canvas', { 'data-chart': name, 'aria-label': name, role: 'img' });
    box.appendChild(canvas);
    cell.appendChild(box);
    container.appendChild(cell);
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

  // Whiskers over the bars of a chart: each dataset's `intervals` ([low, high] per bar, or null),
  // drawn inside the y axis's range (a ratio's interval stops at 0 and 1).
  var intervalPlugin = {
    id: 'memcarloIntervals',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      var y = chart.scales.y;
      chart.data.datasets.forEach(function (dataset, d) {
        var meta = chart.getDatasetMeta(d);
        if (!Array.isArray(dataset.intervals) || meta.hidden) {
          return;
        }
        ctx.save();
        ctx.strokeStyle = '#222';
        ctx.lineWidth = 1.2;
        meta.data.forEach(function (bar, i) {
          var interval = dataset.intervals[i];
          if (!interval || !bar || !isNumber(bar.x)) {
            return;
          }
          var low = y.getPixelForValue(Math.max(y.min, Math.min(y.max, interval[0])));
          var high = y.getPixelForValue(Math.max(y.min, Math.min(y.max, interval[1])));
          var cap = Math.max(2, Math.min(6, (bar.width || 8) / 4));
          ctx.beginPath();
          ctx.moveTo(bar.x, low);
          ctx.lineTo(bar.x, high);
          ctx.moveTo(bar.x - cap, low);
          ctx.lineTo(bar.x + cap, low);
          ctx.moveTo(bar.x - cap, high);
          ctx.lineTo(bar.x + cap, high);
          ctx.stroke();
        });
        ctx.restore();
      });
    }
  };

  function textWidth(chart, font, text) {
    chart.ctx.save();
    chart.ctx.font = font.string;
    var width = 0;
    (Array.isArray(text) ? text : [text]).forEach(function (line) {
      width = Math.max(width, chart.ctx.measureText(String(line)).width);
    });
    chart.ctx.restore();
    return width;
  }

  // The boxes of the text a chart drew, in its canvas's CSS pixels: tick labels of every scale,
  // legend items and the title ({text, left, top, right, bottom, rotation in degrees}).
  function textBoxes(chart) {
    var boxes = [];
    Object.keys(chart.scales).forEach(function (id) {
      var scale = chart.scales[id];
      if (!scale.options.display || !scale.options.ticks.display) {
        return;
      }
      var items = scale._labelItems || scale._computeLabelItems(chart.chartArea);
      items.forEach(function (item) {
        var lines = Array.isArray(item.label) ? item.label : [item.label];
        var width = textWidth(chart, item.font, lines);
        var x = item.translation[0];
        var y = item.translation[1] + item.textOffset;
        var left = item.textAlign === 'center' ? x - width / 2 : item.textAlign === 'right' ? x - width : x;
        var height = item.font.size + (lines.length - 1) * item.font.lineHeight;
        var top = item.textBaseline === 'middle' ? y - item.font.size / 2 : item.textBaseline === 'bottom' ? y - item.font.size : y;
        boxes.push({ text: lines.join(' '), scale: id, left: left, top: top, right: left + width, bottom: top + height,
                     rotation: scale.labelRotation || 0 });
      });
    });
    if (chart.legend && chart.legend.options.display && Array.isArray(chart.legend.legendHitBoxes)) {
      chart.legend.legendHitBoxes.forEach(function (box, i) {
        var item = chart.legend.legendItems[i];
        boxes.push({ text: item ? item.text : '', scale: 'legend', left: box.left, top: box.top,
                     right: box.left + box.width, bottom: box.top + box.height, rotation: 0 });
      });
    }
    var title = chart.titleBlock;
    if (title && title.options.display && title.options.text) {
      var font = Chart.helpers.toFont(title.options.font);
      var width = textWidth(chart, font, title.options.text);
      var middle = title.left + title.width / 2;
      boxes.push({ text: String(title.options.text), scale: 'title', left: middle - width / 2,
                   top: title.top + title.height / 2 - font.size / 2, right: middle + width / 2,
                   bottom: title.top + title.height / 2 + font.size / 2, rotation: 0, block_left: title.left,
                   block_right: title.left + title.width });
    }
    return boxes;
  }

  // Category labels that do not fit their slot side by side become letters, with the key below
  // the chart ("a = fermi-c2050 · b = v100"); if even letters do not fit, Chart.js skips some.
  function shortenLabels(chart) {
    var x = chart.scales.x;
    var labels = chart.data.labels;
    if (!x || x.type !== 'category' || !Array.isArray(labels) || labels.length === 0) {
      return;
    }
    var font = Chart.helpers.toFont(x.options.ticks.font);
    var slot = x.width / labels.length;
    var widest = 0;
    labels.forEach(function (label) { widest = Math.max(widest, textWidth(chart, font, String(label))); });
    if (widest <= slot - 6) {
      return;
    }
    var letters = labels.map(function (label, i) {
      var code = 'abcdefghijklmnopqrstuvwxyz';
      return i < code.length ? code[i] : code[Math.floor(i / code.length) - 1] + code[i % code.length];
    });
    var key = labels.map(function (label, i) { return letters[i] + ' = ' + label; }).join(' · ');
    chart.data.labels = letters;
    var lettersFit = letters.every(function (letter) { return textWidth(chart, font, letter) <= slot - 6; });
    x.options.ticks.autoSkip = !lettersFit;
    chart.update();
    chart.canvas.parentNode.parentNode.appendChild(
        element('p', { className: 'label-key', 'data-key-of': chart.memcarloName, text: (x.options.title.text || 'x') + ': ' + key }));
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
    var emulation = inputs.emulation;
    if (emulation && typeof emulation === 'object') {
      var partial = Array.isArray(emulation.partial_launches) ? emulation.partial_launches : [];
      rows.splice(rows.length - 1, 0, ['emulation', emulation.stopped_after_trace
        ? 'stopped after the traced launches' + partial.map(function (launch) {
            return '; launch ' + launch.index + ' (' + launch.kernel + ') ran ' + launch.blocks_run + ' of ' + launch.blocks + ' blocks';
          }).join('') + '; the program\'s own checks did not run'
        : 'the program ran to its end']);
    }
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
      var scales = {};
      Object.keys(chart.scales).forEach(function (id) {
        var scale = chart.scales[id];
        scales[id] = { type: scale.type, min: scale.min, max: scale.max, rotation: scale.labelRotation || 0 };
      });
      return {
        name: chart.memcarloName,
        type: chart.config.type,
        points: chart.data.datasets.map(function (dataset, index) {
          return chart.getDatasetMeta(index).data.length;
        }),
        datasets: chart.data.datasets.map(function (dataset) { return dataset.label; }),
        labels: Array.isArray(chart.data.labels) ? chart.data.labels.map(String) : [],
        scales: scales,
        width: chart.width,
        height: chart.height,
        texts: textBoxes(chart)
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
      if (report.schema === 'memcarlo-study') {
        api.renderStudy(app, report);
      } else if (report.schema === 'memcarlo-sweep') {
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
    isBoundedRatio: isBoundedRatio, metricTable: metricTable, loadMetricsOfGroup: loadMetricsOfGroup,
    intervalPlugin: intervalPlugin, shortenLabels: shortenLabels,
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
