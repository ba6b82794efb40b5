// The HTML report's page of a sweep report: the points with their paired differences, and per
// metric its mean with a 95% band against the varied parameters next to its difference from the
// baseline.
'use strict';

(function (page) {
  var element = page.element;
  var isNumber = page.isNumber;
  var isDistribution = page.isDistribution;
  var digitsFor = page.digitsFor;
  var withInterval = page.withInterval;
  var byMetricOrder = page.byMetricOrder;
  var metricLabel = page.metricLabel;
  var section = page.section;
  var palette = page.palette;
  var transparent = page.transparent;
  var makeChart = page.makeChart;
  var destroyCharts = page.destroyCharts;
  var titled = page.titled;
  var loadLabel = page.loadLabel;
  var inputsSection = page.inputsSection;
  var recordCharts = page.recordCharts;
  var status = page.status;

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
      // The metrics the sweep pairs with the baseline first, then the others.
      var paired = function (metric) {
        return points.some(function (point) { return scopeOf(point, scope).differences[metric] !== undefined; }) ? 0 : 1;
      };
      metrics.sort(function (a, b) { return paired(a) - paired(b) || byMetricOrder(a, b); });
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

  page.renderSweep = renderSweep;
})(memcarloReport);
