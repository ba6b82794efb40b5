// The script of memcarlo's HTML report (reports/src/html_report.cpp builds it into the page).
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

  // ---- Histograms ----------------------------------------------------------------------------

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

  // The across-trial histogram of one metric distribution ({edges, counts}).
  function trialHistogram(container, name, metric, distribution) {
    var histogram = distribution && distribution.histogram;
    if (!histogram || !Array.isArray(histogram.edges) || !Array.isArray(histogram.counts) ||
        histogram.counts.length === 0) {
      container.appendChild(element('p', { className: 'note', text: metricLabel(metric) + ': no histogram (undefined in every trial)' }));
      return null;
    }
    return makeChart(container, name, {
      type: 'bar',
      data: {
        labels: binLabels(histogram.edges, isRatio(metric) ? 3 : 1),
        datasets: [{ label: 'trials', data: histogram.counts.slice(), backgroundColor: palette[0],
                     barPercentage: 1.0, categoryPercentage: 1.0 }]
      },
      options: {
        plugins: { title: titled(metricLabel(metric) + ' across trials: ' + withInterval(distribution, digitsFor(metric))),
                   legend: { display: false } },
        scales: { x: { title: titled(metricLabel(metric)) }, y: { title: titled('trials'), beginAtZero: true } }
      }
    });
  }

  var levelNames = { l1_hit: 'L1 hit', l1_inflight: 'L1 in-flight hit', l2: 'L2', dram: 'DRAM' };
  var levelColors = { l1_hit: '#2ca02c', l1_inflight: '#98df8a', l2: '#ff7f0e', dram: '#d62728' };

  // The per-access latency histogram (log-spaced bins, pooled over trials), stacked by the level
  // that served each access.
  function accessHistogram(container, name, histogram) {
    var datasets = [];
    var byLevel = histogram.by_level && typeof histogram.by_level === 'object' ? histogram.by_level : null;
    var shares = histogram.level_shares || {};
    var levelOrder = Object.keys(levelNames);
    if (byLevel && Object.keys(byLevel).length > 0) {
      // Fastest level at the bottom of each bar, whatever order the JSON has them in.
      Object.keys(byLevel).sort(function (a, b) {
        var x = levelOrder.indexOf(a) < 0 ? levelOrder.length : levelOrder.indexOf(a);
        var y = levelOrder.indexOf(b) < 0 ? levelOrder.length : levelOrder.indexOf(b);
        return x - y || (a < b ? -1 : a > b ? 1 : 0);
      }).forEach(function (level, index) {
        var share = shares[level];
        var color = levelColors[level] || palette[index % palette.length];
        datasets.push({
          label: (levelNames[level] || level) + (isNumber(share) ? ' (' + (100 * share).toFixed(1) + '%)' : ''),
          data: byLevel[level].slice(), backgroundColor: color, stack: 'levels',
          barPercentage: 1.0, categoryPercentage: 1.0
        });
      });
    } else {
      datasets.push({ label: 'accesses', data: histogram.counts.slice(), backgroundColor: palette[0],
                      barPercentage: 1.0, categoryPercentage: 1.0 });
    }
    var unit = histogram.unit || 'cycles';
    var access = histogram.access || 'access';
    var total = isNumber(histogram.accesses) ? histogram.accesses + ' accesses' : '';
    var trials = isNumber(histogram.trials) ? ' over ' + histogram.trials + ' trials' : '';
    return makeChart(container, name, {
      type: 'bar',
      data: { labels: binLabels(histogram.edges, 0), datasets: datasets },
      options: {
        plugins: { title: titled('Latency of each ' + access + ' (' + unit + '), log-spaced bins: ' + total + trials) },
        scales: { x: { stacked: true, title: titled('latency (' + unit + ')') },
                  y: { stacked: true, beginAtZero: true, title: titled('accesses') } }
      }
    });
  }

  // ---- Simulation report -----------------------------------------------------------------------

  function loadLocation(load) {
    return (load.file || '?') + ':' + load.line + ':' + load.column;
  }

  function loadKernel(load) {
    return Array.isArray(load.kernels) && load.kernels.length > 0 ? load.kernels.join(',') : (load.function || '?');
  }

  // Cost as the terminal table defines it (reports/src/table.cpp): requests × mean latency, the
  // cycles the load's warps wait for it, as a share of the total over the loads of its kernel(s).
  // Stores have no latency, hence no cost.
  function loadRows(loads) {
    var rows = loads.map(function (load) {
      var latency = load.latency_cycles;
      return {
        load: load,
        kernel: loadKernel(load),
        cycles: isDistribution(latency) ? load.requests * latency.mean : null,
        share: null
      };
    });
    var totals = {};
    rows.forEach(function (row) {
      if (row.cycles !== null) {
        totals[row.kernel] = (totals[row.kernel] || 0) + row.cycles;
      }
    });
    rows.forEach(function (row) {
      if (row.cycles !== null && totals[row.kernel] > 0) {
        row.share = row.cycles / totals[row.kernel];
      }
    });
    return rows;
  }

  function metricMean(row, metric) {
    var value = row.load[metric];
    return isDistribution(value) ? value.mean : null;
  }

  var loadColumns = [
    { title: 'cost', value: function (r) { return r.share; }, numeric: true, cost: true },
    { title: 'id', value: function (r) { return r.load.id; }, text: function (r) { return String(r.load.id); }, numeric: true, ascendingFirst: true },
    { title: 'location', value: function (r) { return loadLocation(r.load); }, text: function (r) { return loadLocation(r.load).replace(/\//g, '/\u200b'); }, className: 'wrap' },
    { title: 'expression', value: function (r) { return r.load.expression; }, text: function (r) { return r.load.expression; }, className: 'code wrap' },
    { title: 'kind', value: function (r) { return r.load.kind; }, text: function (r) { return r.load.kind; } },
    { title: 'requests', value: function (r) { return r.load.requests; }, text: function (r) { return String(r.load.requests); }, numeric: true },
    { title: 'trans./req.', value: function (r) { return r.load.transactions_per_request; }, text: function (r) { return formatNumber(r.load.transactions_per_request, 2); }, numeric: true },
    { title: 'L1 hit', value: function (r) { return metricMean(r, 'l1_hit_ratio'); }, text: function (r) { return withInterval(r.load.l1_hit_ratio, 3); }, numeric: true, ascendingFirst: true },
    { title: 'L2 hit', value: function (r) { return metricMean(r, 'l2_hit_ratio'); }, text: function (r) { return withInterval(r.load.l2_hit_ratio, 3); }, numeric: true, ascendingFirst: true },
    { title: 'latency (cycles)', value: function (r) { return metricMean(r, 'latency_cycles'); }, text: function (r) { return withInterval(r.load.latency_cycles, 1); }, numeric: true },
    { title: 'kernel', value: function (r) { return r.kernel; }, text: function (r) { return r.kernel; } }
  ];

  function costCell(row) {
    var cell = element('td', { className: 'cost' });
    if (row.share === null) {
      cell.textContent = '-';
      return cell;
    }
    var bar = element('div', { className: 'cost-bar' });
    bar.style.width = Math.max(1, Math.round(100 * row.share)) + '%';
    cell.appendChild(element('div', { className: 'cost-track' }, [bar]));
    cell.appendChild(element('span', { text: (100 * row.share).toFixed(1) + '%' }));
    return cell;
  }

  // The per-load table, sortable by any column (click a header; again to reverse); by cost first.
  function loadTable(rows, onSelect) {
    var kernels = {};
    rows.forEach(function (r) { kernels[r.kernel] = true; });
    var columns = Object.keys(kernels).length > 1 ? loadColumns : loadColumns.filter(function (c) { return c.title !== 'kernel'; });
    var table = element('table', { id: 'loads-table', className: 'data' });
    var head = element('tr');
    var body = element('tbody');
    var sortColumn = 0;  // cost
    var descending = true;
    // The loads that cost their kernel most: the largest shares that make up half of the total,
    // and any load above a fifth of it.
    var costly = {};
    var byCost = rows.filter(function (r) { return r.share !== null; })
        .sort(function (a, b) { return b.share - a.share; });
    var covered = {};
    byCost.forEach(function (r) {
      if ((covered[r.kernel] || 0) < 0.5 || r.share >= 0.2) {
        costly[r.load.id] = true;
      }
      covered[r.kernel] = (covered[r.kernel] || 0) + r.share;
    });

    function compare(a, b) {
      var column = columns[sortColumn];
      var x = column.value(a);
      var y = column.value(b);
      var xMissing = x === null || x === undefined;
      var yMissing = y === null || y === undefined;
      if (xMissing || yMissing) {
        return xMissing === yMissing ? a.load.id - b.load.id : (xMissing ? 1 : -1);  // missing last
      }
      var order = column.numeric ? x - y : String(x).localeCompare(String(y));
      if (order === 0) {
        return a.load.id - b.load.id;
      }
      return descending ? -order : order;
    }

    function fill() {
      body.textContent = '';
      rows.slice().sort(compare).forEach(function (row) {
        var tr = element('tr', { 'data-load': String(row.load.id) });
        if (costly[row.load.id]) {
          tr.className = 'costly';
        }
        columns.forEach(function (column) {
          tr.appendChild(column.cost ? costCell(row)
                                     : element('td', { text: column.text(row), title: column.text(row), className: (column.numeric ? 'number ' : '') + (column.className || '') }));
        });
        tr.addEventListener('click', function () { onSelect(row.load.id); });
        body.appendChild(tr);
      });
      Array.prototype.forEach.call(head.children, function (th, index) {
        th.setAttribute('aria-sort', index === sortColumn ? (descending ? 'descending' : 'ascending') : 'none');
        th.setAttribute('data-arrow', index === sortColumn ? (descending ? ' ▼' : ' ▲') : '');
      });
    }

    columns.forEach(function (column, index) {
      var th = element('th', { text: column.title, title: 'Sort by ' + column.title, tabindex: '0' });
      th.addEventListener('click', function () {
        if (sortColumn === index) {
          descending = !descending;
        } else {
          sortColumn = index;
          // First click: the loads that deserve a look first (most cost, requests, latency;
          // lowest hit ratios), as the terminal table's --sort orders them; text A to Z.
          descending = column.numeric === true && !column.ascendingFirst;
        }
        fill();
      });
      head.appendChild(th);
    });
    table.appendChild(element('thead', {}, [head]));
    table.appendChild(body);
    fill();
    status.load_rows = body.children.length;
    return table;
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

  function loadLabel(load) {
    return '#' + load.id + '  ' + loadLocation(load) + '  ' + load.expression + ' (' + load.kind + ')';
  }

  // Per load: the across-trial histograms of its metrics and, when the report has it, the
  // per-access latency histogram by level. One load at a time, chosen in the select box or by
  // clicking its row.
  function loadDetails(rows) {
    var container = element('div', { id: 'load-details' });
    var select = element('select', { id: 'load-select', 'aria-label': 'Load' });
    var grid = element('div', { className: 'chart-grid' });
    var shown = [];
    var ordered = rows.slice().sort(function (a, b) {
      return (b.share === null ? -1 : b.share) - (a.share === null ? -1 : a.share) || a.load.id - b.load.id;
    });
    ordered.forEach(function (row) {
      select.appendChild(element('option', { value: String(row.load.id), text: loadLabel(row.load) }));
    });

    function show(id) {
      destroyCharts(shown);
      shown = [];
      grid.textContent = '';
      var row = rows.filter(function (r) { return r.load.id === id; })[0];
      if (!row) {
        return;
      }
      select.value = String(id);
      var load = row.load;
      if (load.latency_histogram && Array.isArray(load.latency_histogram.counts)) {
        var wide = element('div', { className: 'wide' });
        grid.appendChild(wide);
        shown.push(accessHistogram(wide, 'load-' + id + '-access-latency', load.latency_histogram));
      } else {
        grid.appendChild(element('p', { className: 'note wide', text: 'This report has no per-access latency histogram for this load.' }));
      }
      var metrics = Object.keys(load).filter(function (key) { return isDistribution(load[key]); });
      metrics.sort(byMetricOrder);
      metrics.forEach(function (metric) {
        var chart = trialHistogram(grid, 'load-' + id + '-' + metric, metric, load[metric]);
        if (chart) {
          shown.push(chart);
        }
      });
      document.querySelectorAll('#loads-table tbody tr').forEach(function (tr) {
        tr.classList.toggle('selected', tr.getAttribute('data-load') === String(id));
      });
    }

    select.addEventListener('change', function () {
      show(Number(select.value));
      recordCharts();
    });
    container.appendChild(element('label', { className: 'select-label' }, ['Load: ', select]));
    container.appendChild(grid);
    return { element: container, show: show, first: ordered.length > 0 ? ordered[0].load.id : null };
  }

  // convergence.stddev: metric -> standard deviation after n = 1, 2, ... trials; ratios and
  // cycles on separate plots (their scales differ by orders of magnitude).
  function convergenceSection(app, convergence) {
    var series = convergence && convergence.stddev && typeof convergence.stddev === 'object' ? convergence.stddev : {};
    var names = Object.keys(series).filter(function (name) { return Array.isArray(series[name]) && series[name].length > 0; })
        .sort(byMetricOrder);
    var grid = element('div', { className: 'chart-grid' });
    var content = [element('p', { className: 'note', text: (convergence && convergence.description) || 'standard deviation after n trials' }), grid];
    app.appendChild(section('Convergence', content));  // before the charts: they size to it
    if (names.length === 0) {
      grid.appendChild(element('p', { className: 'note', text: 'No convergence series in this report.' }));
      return;
    }
    [['ratios', function (name) { return isRatio(name); }], ['cycles', function (name) { return !isRatio(name); }]].forEach(function (group) {
      var members = names.filter(group[1]);
      if (members.length === 0) {
        return;
      }
      var length = Math.max.apply(null, members.map(function (name) { return series[name].length; }));
      var labels = [];
      for (var n = 1; n <= length; ++n) {
        labels.push(n);
      }
      makeChart(grid, 'convergence-' + group[0], {
        type: 'line',
        data: {
          labels: labels,
          datasets: members.map(function (name, index) {
            return { label: metricLabel(name), data: series[name].map(function (v) { return isNumber(v) ? v : null; }),
                     borderColor: palette[index % palette.length], backgroundColor: palette[index % palette.length],
                     pointRadius: 0, borderWidth: 1.5, spanGaps: true };
          })
        },
        options: {
          plugins: { title: titled('Standard deviation after n trials (' + group[0] + ')') },
          scales: { x: { title: titled('trials') }, y: { title: titled('stddev'), beginAtZero: true } }
        }
      });
    });
  }

  function namedAggregates(title, list, nameKey, metricsOf) {
    if (!Array.isArray(list) || list.length === 0) {
      return null;
    }
    var children = list.map(function (entry) {
      var metrics = metricsOf(entry);
      var shown = {};
      Object.keys(metrics || {}).forEach(function (key) {
        if (key !== nameKey && (metrics[key] === null || isDistribution(metrics[key]))) {
          shown[key] = metrics[key];
        }
      });
      return element('details', {}, [element('summary', { text: String(entry[nameKey]) + (isNumber(entry.launches) ? ' (' + entry.launches + ' launches)' : '') }),
                                     metricsTable(shown)]);
    });
    return section(title, children);
  }

  function renderSimulation(app, report) {
    status.kind = 'simulation';
    app.appendChild(element('h1', { text: 'memcarlo report: ' + report.inputs.trace }));
    app.appendChild(inputsSection(report));
    app.appendChild(section('Overall', [metricsTable(report.overall)]));
    var rows = loadRows(report.loads);
    var details = loadDetails(rows);
    var table = loadTable(rows, function (id) {
      details.show(id);
      recordCharts();
      details.element.scrollIntoView({ block: 'nearest' });
    });
    var kernelNames = {};
    rows.forEach(function (r) { kernelNames[r.kernel] = true; });
    var single = Object.keys(kernelNames).length === 1 ? 'All in kernel ' + Object.keys(kernelNames)[0] + '. ' : '';
    app.appendChild(section('Loads', [
      element('p', { className: 'note', text: single + 'One row per static load or store. Cost: requests × mean latency, the cycles its warps wait for it, as a share of its kernel\'s total over its loads; the loads that cost most are highlighted. Click a column header to sort, a row to see its histograms.' }),
      element('div', { className: 'table-scroll' }, [table])
    ]));
    var detailsSection = section('Per-load histograms', [details.element]);
    app.appendChild(detailsSection);
    if (details.first !== null) {
      details.show(details.first);
    } else {
      details.element.appendChild(element('p', { className: 'note', text: 'This report has no loads.' }));
    }
    convergenceSection(app, report.convergence);
    var kernels = namedAggregates('Kernels', report.kernels, 'kernel', function (k) { return k.overall; });
    if (kernels) {
      app.appendChild(kernels);
    }
    var allocations = namedAggregates('Allocations', report.allocations, 'name', function (a) { return a; });
    if (allocations) {
      app.appendChild(allocations);
    }
    if (report.performance && typeof report.performance === 'object') {
      app.appendChild(section('Performance', [keyValueTable(Object.keys(report.performance).map(function (key) {
        return [key.replace(/_/g, ' '), report.performance[key]];
      }))]));
    }
  }

  // ---- Sweep report ---------------------------------------------------------------------------

  function pointLabel(point) {
    var parameters = point.parameters || {};
    var keys = Object.keys(parameters);
    return keys.length === 0 ? 'point ' + point.index : keys.map(function (key) { return key + '=' + parameters[key]; }).join(' ');
  }

  // The x axis label of a point: the value alone when a single key varies (it names the axis).
  function axisLabel(point) {
    var keys = Object.keys(point.parameters || {});
    return keys.length === 1 ? String(point.parameters[keys[0]]) : pointLabel(point);
  }

  function findById(list, id) {
    return (Array.isArray(list) ? list : []).filter(function (entry) { return entry && entry.id === id; })[0] || null;
  }

  // The distributions and differences of one scope (the overall figures or one load) per point.
  function scopeOf(point, scope) {
    var difference = point.difference || {};
    if (scope === 'overall') {
      return { metrics: point.overall || {}, differences: difference.overall || {} };
    }
    var id = Number(scope);
    return { metrics: findById(point.loads, id) || {}, differences: findById(difference.loads, id) || {} };
  }

  function ciOf(value, side) {
    return value && Array.isArray(value.ci95) && isNumber(value.ci95[side]) ? value.ci95[side] : null;
  }

  function sweepMetricCharts(grid, points, scope, metric, made) {
    var labels = points.map(axisLabel);
    var values = points.map(function (point) { return scopeOf(point, scope).metrics[metric]; });
    var differences = points.map(function (point) { return scopeOf(point, scope).differences[metric]; });
    var color = palette[0];
    made.push(makeChart(grid, 'sweep-' + scope + '-' + metric, {
      type: 'line',
      data: {
        labels: labels,
        datasets: [
          { label: '95% low', data: values.map(function (v) { return ciOf(v, 0); }), borderWidth: 0, pointRadius: 0, fill: false, borderColor: transparent(color, 0) },
          { label: '95% interval', data: values.map(function (v) { return ciOf(v, 1); }), borderWidth: 0, pointRadius: 0, fill: '-1',
            backgroundColor: transparent(color, 0.25), borderColor: transparent(color, 0) },
          { label: 'mean', data: values.map(function (v) { return isDistribution(v) ? v.mean : null; }), borderColor: color, backgroundColor: color, fill: false }
        ]
      },
      options: {
        plugins: { title: titled(metricLabel(metric) + ' (mean, 95% interval band)'),
                   legend: { labels: { filter: function (item) { return item.text !== '95% low'; } } } },
        scales: { x: { title: titled(points.length > 0 && Object.keys(points[0].parameters || {}).length === 1 ? Object.keys(points[0].parameters)[0] : 'point') },
                  y: { title: titled(metricLabel(metric)) } }
      }
    }));
    // The sweep pairs only some metrics with the baseline; the others get no difference plot.
    var compared = differences.some(function (d) { return d !== undefined; });
    if (!compared) {
      grid.appendChild(element('p', { className: 'note', text: metricLabel(metric) + ': the sweep report gives no paired difference for this metric.' }));
      return;
    }
    var differenceColor = palette[1];
    made.push(makeChart(grid, 'sweep-' + scope + '-' + metric + '-difference', {
      type: 'bar',
      data: {
        labels: labels,
        datasets: [
          { type: 'bar', label: 'paired 95% interval', data: differences.map(function (d) {
            var low = ciOf(d, 0);
            var high = ciOf(d, 1);
            return low === null || high === null ? null : [low, high];
          }), backgroundColor: transparent(differenceColor, 0.35), borderColor: differenceColor, borderWidth: 1, barPercentage: 0.5 },
          { type: 'line', label: 'mean difference', data: differences.map(function (d) { return d && isNumber(d.mean) ? d.mean : null; }),
            borderColor: differenceColor, backgroundColor: differenceColor, showLine: false, pointRadius: 4 }
        ]
      },
      options: {
        plugins: { title: titled(metricLabel(metric) + ': difference from the baseline (paired)') },
        scales: { y: { title: titled('Δ ' + metricLabel(metric)) } }
      }
    }));
  }

  function sweepTable(points) {
    var metrics = ['l1_read_hit_ratio', 'l2_read_hit_ratio', 'dram_latency_cycles'].filter(function (metric) {
      return points.some(function (point) { return point.overall && metric in point.overall; });
    });
    var headers = ['#', 'parameters', 'trials'];
    metrics.forEach(function (metric) {
      headers.push(metricLabel(metric));
      headers.push('Δ ' + metricLabel(metric));
    });
    var body = element('tbody');
    points.forEach(function (point, index) {
      var cells = [element('td', { className: 'number', text: String(index) + (index === 0 ? '*' : '') }),
                   element('td', { text: pointLabel(point) }),
                   element('td', { className: 'number', text: isNumber(point.trials) ? String(point.trials) : '-' })];
      metrics.forEach(function (metric) {
        var digits = digitsFor(metric);
        var d = point.overall[metric];
        var difference = point.difference && point.difference.overall ? point.difference.overall[metric] : null;
        cells.push(element('td', { className: 'number', text: withInterval(d, digits) }));
        cells.push(element('td', { className: 'number', text: difference && isNumber(difference.mean) ? (difference.mean >= 0 ? '+' : '') + withInterval(difference, digits) : '-' }));
      });
      body.appendChild(element('tr', { 'data-point': String(index) }, cells));
    });
    status.point_rows = body.children.length;
    return element('table', { id: 'points-table', className: 'data' }, [
      element('thead', {}, [element('tr', {}, headers.map(function (title) { return element('th', { text: title }); }))]), body]);
  }

  function renderSweep(app, report) {
    status.kind = 'sweep';
    var points = report.points;
    app.appendChild(element('h1', { text: 'memcarlo sweep: ' + report.inputs.trace }));
    app.appendChild(inputsSection(report));
    app.appendChild(section('Points', [
      element('p', { className: 'note', text: '* baseline. Δ: this point minus the baseline, mean of the per-trial differences over common random numbers, ± paired 95% half-width.' }),
      element('div', { className: 'table-scroll' }, [sweepTable(points)])
    ]));
    var select = element('select', { id: 'scope-select', 'aria-label': 'Scope' });
    select.appendChild(element('option', { value: 'overall', text: 'overall' }));
    (points[0].loads || []).forEach(function (load) {
      select.appendChild(element('option', { value: String(load.id), text: loadLabel(load) }));
    });
    var grid = element('div', { className: 'chart-grid' });
    var made = [];
    function show(scope) {
      destroyCharts(made);
      made = [];
      grid.textContent = '';
      var metrics = [];
      points.forEach(function (point) {
        var scoped = scopeOf(point, scope).metrics;
        Object.keys(scoped).forEach(function (key) {
          if (isDistribution(scoped[key]) && metrics.indexOf(key) < 0) {
            metrics.push(key);
          }
        });
      });
      metrics.sort(byMetricOrder);
      metrics.forEach(function (metric) { sweepMetricCharts(grid, points, scope, metric, made); });
      if (metrics.length === 0) {
        grid.appendChild(element('p', { className: 'note', text: 'No metric is defined here.' }));
      }
    }
    select.addEventListener('change', function () {
      show(select.value);
      recordCharts();
    });
    app.appendChild(section('Metrics against the varied parameters', [
      element('p', { className: 'note', text: 'Left: each metric per point, mean and 95% interval band. Right: its paired difference from the baseline (point 0), 95% interval as a bar, mean as a dot.' }),
      element('label', { className: 'select-label' }, ['Scope: ', select]), grid]));
    show('overall');
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
        renderSweep(app, report);
      } else {
        renderSimulation(app, report);
      }
      app.appendChild(element('footer', { text: 'Plots drawn with Chart.js ' + (Chart.version || '') + ' (MIT License), built into this page.' }));
      status.done = true;
    } catch (error) {
      recordError('render failed: ' + (error && error.stack ? error.stack : error));
      app.appendChild(element('p', { className: 'error', text: 'The report could not be drawn: ' + error }));
    }
    recordCharts();
  }

  return { render: render, status: status };
})();
