// The HTML report's page of a simulate report: the per-load table (sortable, the costliest loads
// highlighted), the per-load histograms, the convergence curves, kernels and allocations.
'use strict';

(function (page) {
  var element = page.element;
  var isNumber = page.isNumber;
  var isDistribution = page.isDistribution;
  var isRatio = page.isRatio;
  var formatNumber = page.formatNumber;
  var digitsFor = page.digitsFor;
  var withInterval = page.withInterval;
  var byMetricOrder = page.byMetricOrder;
  var metricLabel = page.metricLabel;
  var section = page.section;
  var keyValueTable = page.keyValueTable;
  var palette = page.palette;
  var transparent = page.transparent;
  var makeChart = page.makeChart;
  var destroyCharts = page.destroyCharts;
  var titled = page.titled;
  var binLabels = page.binLabels;
  var loadLocation = page.loadLocation;
  var loadLabel = page.loadLabel;
  var inputsSection = page.inputsSection;
  var metricsTable = page.metricsTable;
  var recordCharts = page.recordCharts;
  var status = page.status;

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

  // With a prefetcher on (prefetch.policy other than none), the loads table gains these columns
  // before the kernel's: the terminal table's prefetch column group, which the page's metric
  // table marks (prefetch_column).
  var prefetchColumns = page.metricTable.metrics.filter(function (line) {
    return line.prefetch_column === true && line.scope !== 'aggregate';
  }).map(function (line) { return line.name; }).map(function (metric) {
    return { title: metricLabel(metric), value: function (r) { return metricMean(r, metric); },
             text: function (r) { return isDistribution(r.load[metric]) ? withInterval(r.load[metric], 3) : '-'; },
             numeric: true, prefetch: true };
  });

  function hasPrefetchMetrics(loads) {
    return (loads || []).some(function (load) { return isDistribution(load.prefetch_coverage); });
  }

  function loadColumnsFor(rows) {
    var columns = loadColumns.slice();
    if (hasPrefetchMetrics(rows.map(function (r) { return r.load; }))) {
      columns.splice(columns.length - 1, 0, prefetchColumns[0], prefetchColumns[1], prefetchColumns[2]);
    }
    var kernels = {};
    rows.forEach(function (r) { kernels[r.kernel] = true; });
    return Object.keys(kernels).length > 1 ? columns : columns.filter(function (c) { return c.title !== 'kernel'; });
  }

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
    var columns = loadColumnsFor(rows);
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

  // With a prefetcher on: per load, how its prefetches fared (the ratios, mean with the 95%
  // interval as a bar behind it) and the extra L2 and DRAM reads they cost; loads in id order.
  var prefetchRatios = page.loadMetricsOfGroup('prefetch', true);
  var prefetchTraffic = page.loadMetricsOfGroup('prefetch', false);

  function prefetchChart(grid, name, loads, metrics, title, axis) {
    var shown = metrics.filter(function (metric) {
      return loads.some(function (load) { return isDistribution(load[metric]); });
    });
    if (shown.length === 0) {
      return null;
    }
    var datasets = [];
    shown.forEach(function (metric, index) {
      var color = palette[index % palette.length];
      datasets.push({ type: 'bar', label: metricLabel(metric), grouped: true,
                      data: loads.map(function (load) { var d = load[metric]; return isDistribution(d) && isNumber(d.mean) ? d.mean : null; }),
                      intervals: loads.map(function (load) { var d = load[metric]; return isDistribution(d) ? withInterval(d, digitsFor(metric)) : '-'; }),
                      backgroundColor: transparent(color, 0.75), borderColor: color, borderWidth: 1 });
    });
    return makeChart(grid, name, {
      type: 'bar',
      data: { labels: loads.map(function (load) { return '#' + load.id + ' ' + load.expression; }), datasets: datasets },
      options: {
        plugins: {
          title: titled(title),
          tooltip: { callbacks: { label: function (context) {
            return context.dataset.label + ': ' + context.dataset.intervals[context.dataIndex];
          } } }
        },
        scales: { x: { title: titled('load') }, y: { title: titled(axis), beginAtZero: true } }
      }
    });
  }

  function prefetchSection(app, report) {
    var loads = (report.loads || []).filter(function (load) {
      return prefetchRatios.concat(prefetchTraffic).some(function (metric) { return isDistribution(load[metric]); });
    }).sort(function (a, b) { return a.id - b.id; });
    var hierarchy = report.inputs && report.inputs.hierarchy ? report.inputs.hierarchy.parameters : null;
    var policy = hierarchy ? hierarchy['prefetch.policy'] : undefined;
    var grid = element('div', { className: 'chart-grid' });
    app.appendChild(section('Prefetching', [
      element('p', { className: 'note', text: 'Prefetcher: ' + (policy || 'on') + '. Coverage: demand accesses to a line a prefetch brought (or was bringing), over demand accesses. ' +
          'Accuracy: useful prefetches over prefetches issued; timely: used after the fill completed. Late: the demand arrived while the prefetch was in flight. ' +
          'Early eviction: evicted before any use. Useless: never used. Hover a bar for its 95% interval across trials.' }),
      grid]));
    prefetchChart(grid, 'prefetch-ratios', loads, prefetchRatios, 'Prefetch ratios per load (mean across trials)', 'ratio');
    prefetchChart(grid, 'prefetch-traffic', loads, prefetchTraffic, 'Extra reads the prefetches caused per load', 'reads');
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
    if (hasPrefetchMetrics(report.loads)) {
      prefetchSection(app, report);
    }
    var detailsSection = section('Per-load histograms', [details.element]);
    app.appendChild(detailsSection);
    // The costliest load first, or the one the address names (report.html#load=ID).
    var named = /^#load=(\d+)$/.exec(window.location.hash);
    var initial = named && rows.some(function (r) { return r.load.id === Number(named[1]); }) ? Number(named[1]) : details.first;
    if (initial !== null) {
      details.show(initial);
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

  page.renderSimulation = renderSimulation;
})(memcarloReport);
