// The HTML report's page of a study report (memcarlo study): the papers' figure, one per metric
// the study names — the programs along the x axis, one bar per point with its 95% interval, the
// average over programs as the last group — then the table of every program x point with the
// change from the baseline, and the programs that failed with their stage and reason.
'use strict';

(function (page) {
  var element = page.element;
  var isNumber = page.isNumber;
  var section = page.section;
  var palette = page.palette;
  var transparent = page.transparent;
  var makeChart = page.makeChart;
  var titled = page.titled;
  var keyValueTable = page.keyValueTable;
  var intervalPlugin = page.intervalPlugin;
  var shortenLabels = page.shortenLabels;
  var formatNumber = page.formatNumber;
  var status = page.status;

  function interval(entry) {
    return entry && Array.isArray(entry.ci95) && isNumber(entry.ci95[0]) && isNumber(entry.ci95[1]) ? entry.ci95 : null;
  }

  function valueText(entry, digits) {
    if (!entry || !isNumber(entry.mean)) {
      return '-';
    }
    var ci = interval(entry);
    return formatNumber(entry.mean, digits) + (ci ? ' [' + formatNumber(ci[0], digits) + ', ' + formatNumber(ci[1], digits) + ']' : '');
  }

  function digitsOf(metric) {
    return metric.unit === 'ratio' ? 3 : 4;
  }

  function averageLabel(report) {
    return 'average (' + report.metrics.map(function (m) { return m.average; }).filter(function (v, i, a) { return a.indexOf(v) === i; }).join('/') + ')';
  }

  // One figure: programs (that ran) then the average group; a dataset per point.
  function metricChart(grid, report, ran, metric) {
    var labels = ran.map(function (program) { return program.name; }).concat(['average (' + metric.average + ')']);
    // On [0, 1] when the metric table says the ratio cannot leave it (not the extra reads of
    // prefetching).
    var bounded = metric.unit === 'ratio' && page.isBoundedRatio(metric.name);
    var datasets = report.points.map(function (point, p) {
      var color = palette[p % palette.length];
      var entries = ran.map(function (program) {
        return program.results && program.results[point.name] ? program.results[point.name][metric.name] : null;
      });
      entries.push(report.average[point.name] ? report.average[point.name][metric.name] : null);
      return {
        label: point.name + (point.baseline ? ' (baseline)' : ''),
        data: entries.map(function (entry) { return entry && isNumber(entry.mean) ? entry.mean : null; }),
        intervals: entries.map(interval),
        backgroundColor: transparent(color, 0.7), borderColor: color, borderWidth: 1
      };
    });
    var name = 'study-' + metric.name;
    return makeChart(grid, name, {
      type: 'bar',
      data: { labels: labels, datasets: datasets },
      options: {
        plugins: {
          title: titled(metric.label + ' per program and point (mean, 95% interval; average over programs last)'),
          legend: { display: true },
          tooltip: { callbacks: { label: function (context) {
            var ci = context.dataset.intervals[context.dataIndex];
            return context.dataset.label + ': ' + formatNumber(context.parsed.y, 4) +
                   (ci ? ' [' + formatNumber(ci[0], 4) + ', ' + formatNumber(ci[1], 4) + ']' : '');
          } } }
        },
        scales: {
          x: { title: titled('program'), ticks: { autoSkip: false, maxRotation: 0, minRotation: 0 } },
          y: bounded ? { title: titled(metric.label), min: 0, max: 1 } : { title: titled(metric.label), beginAtZero: true }
        }
      },
      plugins: [intervalPlugin]
    });
  }

  function changeText(entry, metric) {
    var change = entry ? entry[metric.change] : null;
    if (!change || !isNumber(change.mean)) {
      return '-';
    }
    var prefix = metric.change === 'ratio' ? '×' : (change.mean >= 0 ? '+' : '');
    return prefix + valueText(change, digitsOf(metric));
  }

  function resultsTable(report, ran) {
    var headers = ['program', 'point'];
    report.metrics.forEach(function (metric) {
      headers.push(metric.label);
      headers.push((metric.change === 'ratio' ? '÷ baseline ' : 'Δ baseline ') + metric.label);
    });
    var body = element('tbody');
    var rows = ran.map(function (program) { return { name: program.name, results: program.results }; });
    rows.push({ name: averageLabel(report), results: report.average });
    rows.forEach(function (row) {
      report.points.forEach(function (point) {
        var cells = [element('td', { text: row.name }), element('td', { text: point.name + (point.baseline ? ' *' : '') })];
        report.metrics.forEach(function (metric) {
          var entry = row.results && row.results[point.name] ? row.results[point.name][metric.name] : null;
          cells.push(element('td', { className: 'number', text: valueText(entry, digitsOf(metric)) }));
          cells.push(element('td', { className: 'number', text: point.baseline ? '-' : changeText(entry, metric) }));
        });
        body.appendChild(element('tr', { 'data-point': point.name, 'data-program': row.name }, cells));
      });
    });
    status.point_rows = body.children.length;
    return element('table', { id: 'study-table', className: 'data' }, [
      element('thead', {}, [element('tr', {}, headers.map(function (title) { return element('th', { text: title }); }))]), body]);
  }

  function failuresTable(report) {
    var body = element('tbody');
    report.failures.forEach(function (failure) {
      body.appendChild(element('tr', {}, [element('td', { text: failure.program }), element('td', { text: failure.stage }),
                                          element('td', { text: failure.reason })]));
    });
    return element('table', { id: 'failures-table', className: 'data' }, [
      element('thead', {}, [element('tr', {}, ['program', 'stage', 'reason'].map(function (t) { return element('th', { text: t }); }))]), body]);
  }

  function seconds(value) {
    return isNumber(value) ? formatNumber(value, 1) + ' s' : '-';
  }

  function renderStudy(app, report) {
    status.kind = 'study';
    var ran = report.programs.filter(function (program) { return program.status === 'ok'; });
    status.programs = ran.length;
    status.failures = report.failures.length;
    app.appendChild(element('h1', { text: 'memcarlo study: ' + report.study.name }));
    var performance = report.performance || {};
    app.appendChild(section('Study', [keyValueTable([
      ['description', report.study.description || '-'],
      ['study file', report.study.file],
      ['suite root', report.study.suite_root],
      ['programs', ran.length + ' ran, ' + report.failures.length + ' failed'],
      ['points', report.points.map(function (p) { return p.name + (p.baseline ? ' (baseline)' : ''); }).join(', ')],
      ['trials per point, seed', report.study.trials + ', ' + report.study.seed + ' (common random numbers)'],
      ['time', 'build ' + seconds(performance.build_seconds) + ', trace ' + seconds(performance.trace_seconds) +
               ', simulate ' + seconds(performance.simulate_seconds) + ', wall ' + seconds(performance.wall_seconds)]
    ])]));
    var grid = element('div', { className: 'chart-grid' });
    // Each metric's averaging method, as the first point that has an average states it (the
    // baseline may have none: a prefetcher's coverage without a prefetcher).
    var methods = report.metrics.map(function (metric) {
      var stated = report.points.map(function (point) {
        return report.average[point.name] ? report.average[point.name][metric.name] : null;
      }).filter(function (entry) { return entry && isNumber(entry.mean) && entry.method; })[0];
      return metric.label + ': ' + (stated ? stated.method : metric.average + ' mean over programs');
    });
    app.appendChild(section('Figures', [
      element('p', { className: 'note', id: 'methods-note', text: 'Whiskers: 95% interval of each mean over the trials; of the average over the programs. ' + methods.join('; ') + '.' }),
      grid]));
    var made = report.metrics.map(function (metric) { return metricChart(grid, report, ran, metric); });
    made.forEach(shortenLabels);
    app.appendChild(section('Programs and points', [
      element('p', { className: 'note', text: '* baseline. Δ: the paired difference from the baseline (common random numbers) with its 95% interval; ÷: the ratio to the baseline (latencies), averaged geometrically.' }),
      element('div', { className: 'table-scroll' }, [resultsTable(report, ran)])]));
    if (report.failures.length > 0) {
      app.appendChild(section('Programs that failed', [element('div', { className: 'table-scroll' }, [failuresTable(report)])]));
    }
  }

  page.renderStudy = renderStudy;
})(memcarloReport);
