// The HTML report's page of a sweep report: the points with their paired differences, and per
// metric its mean and its paired difference from the baseline, each with its 95% interval, laid
// out by the varied keys: one key, a bar per point; two keys, bars grouped by the first key and
// coloured by the second; more, small multiples (one panel per value of the other keys). Points
// that do not form such a grid (--zip, --points) get a bar each.
'use strict';

(function (page) {
  var element = page.element;
  var isNumber = page.isNumber;
  var isDistribution = page.isDistribution;
  var isBoundedRatio = page.isBoundedRatio;
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
  var intervalPlugin = page.intervalPlugin;
  var shortenLabels = page.shortenLabels;
  var status = page.status;

  function pointLabel(point) {
    var parameters = point.parameters || {};
    var keys = Object.keys(parameters);
    return keys.length === 0 ? 'point ' + point.index : keys.map(function (key) { return key + '=' + parameters[key]; }).join(' ');
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

  // How the points are laid out: `keys` (the varied keys), each key's values in the order the
  // points first give them, and the point at each combination. A layout with a grid needs every
  // point to give every key and no two points the same values; otherwise the points are a list.
  function layoutOf(report) {
    var points = report.points;
    var keys = Array.isArray(report.inputs.varied_keys) ? report.inputs.varied_keys.slice() : [];
    var values = keys.map(function () { return []; });
    var at = {};
    var grid = keys.length > 0 && report.inputs.mode !== 'zip';
    points.forEach(function (point, index) {
      var parameters = point.parameters || {};
      var combination = keys.map(function (key, k) {
        if (!(key in parameters)) {
          grid = false;
          return '';
        }
        var value = String(parameters[key]);
        if (values[k].indexOf(value) < 0) {
          values[k].push(value);
        }
        return value;
      });
      var name = JSON.stringify(combination);
      if (name in at) {
        grid = false;
      }
      at[name] = index;
    });
    return { keys: keys, values: values, at: at, grid: grid };
  }

  function pointAt(layout, combination) {
    var index = layout.at[JSON.stringify(combination)];
    return index === undefined ? null : index;
  }

  function ciOf(value, side) {
    return value && Array.isArray(value.ci95) && isNumber(value.ci95[side]) ? value.ci95[side] : null;
  }

  function meanOf(value) {
    return value && isNumber(value.mean) ? value.mean : null;
  }


  // The panels of one metric: for each combination of the keys after the second, the bars of the
  // first key (categories) by the second (datasets). Without a grid: one panel, a bar per point.
  function panelsOf(layout, points) {
    if (!layout.grid) {
      return [{ title: null, categories: points.map(function (point, index) { return { label: String(index), index: [index] }; }),
                series: [{ label: null, pick: function (category) { return category.index[0]; } }] }];
    }
    var first = layout.values[0];
    var second = layout.keys.length > 1 ? layout.values[1] : [null];
    var rest = [[]];
    for (var k = 2; k < layout.keys.length; ++k) {
      var next = [];
      rest.forEach(function (prefix) {
        layout.values[k].forEach(function (value) { next.push(prefix.concat([value])); });
      });
      rest = next;
    }
    return rest.map(function (others) {
      return {
        title: others.length === 0 ? null : others.map(function (value, o) { return layout.keys[o + 2] + '=' + value; }).join(', '),
        categories: first.map(function (value) { return { label: value, value: value }; }),
        series: second.map(function (value) {
          return {
            label: value === null ? null : layout.keys[1] + '=' + value,
            pick: function (category) {
              return pointAt(layout, [category.value].concat(value === null ? [] : [value]).concat(others));
            }
          };
        })
      };
    });
  }

  // The y range of a panel set: ratios on [0, 1]; otherwise the means and interval ends, with 0.
  function valueRange(entries, bounded) {
    if (bounded) {
      return { min: 0, max: 1, bounded: true };
    }
    var low = 0;
    var high = 0;
    entries.forEach(function (entry) {
      [meanOf(entry), ciOf(entry, 0), ciOf(entry, 1)].forEach(function (v) {
        if (v !== null) {
          low = Math.min(low, v);
          high = Math.max(high, v);
        }
      });
    });
    if (low === high) {
      high = low + 1;
    }
    return { min: low, max: high, bounded: false };
  }

  function barChart(container, name, panel, entryOf, title, axisTitle, range, xTitle) {
    var datasets = panel.series.map(function (series, s) {
      var color = palette[s % palette.length];
      var entries = panel.categories.map(function (category) {
        var index = series.pick(category);
        return index === null ? null : entryOf(index);
      });
      return {
        label: series.label === null ? 'mean' : series.label,
        data: entries.map(meanOf),
        intervals: entries.map(function (entry) {
          var low = ciOf(entry, 0);
          var high = ciOf(entry, 1);
          return low === null || high === null ? null : [low, high];
        }),
        backgroundColor: transparent(color, 0.7), borderColor: color, borderWidth: 1
      };
    });
    var chart = makeChart(container, name, {
      type: 'bar',
      data: { labels: panel.categories.map(function (category) { return category.label; }), datasets: datasets },
      options: {
        plugins: {
          title: titled(title),
          legend: { display: panel.series.length > 1 || panel.series[0].label !== null },
          tooltip: { callbacks: { label: function (context) {
            var interval = context.dataset.intervals[context.dataIndex];
            return context.dataset.label + ': ' + page.formatNumber(context.parsed.y, 4) +
                   (interval ? ' [' + page.formatNumber(interval[0], 4) + ', ' + page.formatNumber(interval[1], 4) + ']' : '');
          } } }
        },
        scales: {
          x: { title: titled(xTitle), ticks: { autoSkip: false, maxRotation: 0, minRotation: 0 } },
          // Ratios exactly on [0, 1]; other axes from the bars and whiskers, rounded by Chart.js.
          y: range.bounded ? { title: titled(axisTitle), min: range.min, max: range.max }
                           : { title: titled(axisTitle), suggestedMin: range.min, suggestedMax: range.max }
        }
      },
      plugins: [intervalPlugin]
    });
    return chart;
  }

  // Value and paired difference of one metric, each as the panels of the layout.
  function sweepMetricCharts(grid, layout, points, scope, metric, made) {
    var panels = panelsOf(layout, points);
    var values = points.map(function (point) { return scopeOf(point, scope).metrics[metric]; });
    var differences = points.map(function (point) { return scopeOf(point, scope).differences[metric]; });
    var bounded = isBoundedRatio(metric);
    var xTitle = layout.grid ? layout.keys[0] : 'point';
    var small = panels.length > 1;
    [['', values, metricLabel(metric) + ' (mean, 95% interval)', metricLabel(metric), valueRange(values, bounded)],
     ['-difference', differences, 'Δ ' + metricLabel(metric) + ' from the baseline (paired, 95% interval)', 'Δ ' + metricLabel(metric),
      valueRange(differences, false)]].forEach(function (kind) {
      var container = small ? element('div', { className: 'small-multiples wide' }) : grid;
      if (small) {
        grid.appendChild(container);
      }
      panels.forEach(function (panel, p) {
        var name = 'sweep-' + scope + '-' + metric + kind[0] + (small ? '-' + p : '');
        var title = small ? kind[3] + ': ' + panel.title : kind[2];
        made.push(barChart(container, name, panel, function (index) { return kind[1][index]; }, title, kind[3], kind[4], xTitle));
      });
    });
  }

  // The overall metrics the varied keys act on, as the terminal table chooses them
  // (reports/src/sweep_report.cpp, sweep_table_metrics, whose families html_report.cpp writes
  // into the page's metric table), then the latency X.
  var actsOn = page.metricTable.sweepActsOn.map(function (family) { return [family.prefix, family.metrics]; });
  var otherKeys = page.metricTable.sweepOtherKeys;

  function tableMetrics(points, keys) {
    var wanted = [];
    keys.forEach(function (key) {
      var family = actsOn.filter(function (entry) { return key.indexOf(entry[0]) === 0; })[0];
      (family ? family[1] : otherKeys).forEach(function (metric) {
        if (wanted.indexOf(metric) < 0) {
          wanted.push(metric);
        }
      });
    });
    var reported = function (metric) {
      return points.some(function (point) { return point.overall && isDistribution(point.overall[metric]); });
    };
    var shown = wanted.filter(reported);
    return (shown.length > 0 ? shown : otherKeys).concat(['latency_cycles']).filter(function (metric) {
      return points.some(function (point) { return point.overall && metric in point.overall; });
    });
  }

  function sweepTable(points, keys) {
    var metrics = tableMetrics(points, keys);
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

  function layoutNote(layout, points) {
    if (!layout.grid) {
      return 'Points as given (' + points.length + '): a bar each, labelled by its number in the table above.';
    }
    var text = 'Bars by ' + layout.keys[0];
    if (layout.keys.length > 1) {
      text += ', coloured by ' + layout.keys[1] + ' (legend)';
    }
    if (layout.keys.length > 2) {
      text += '; one panel per ' + layout.keys.slice(2).join(' × ');
    }
    return text + '. Whiskers: 95% interval (of the mean on the left, of the paired difference from the baseline, point 0, on the right).';
  }

  function renderSweep(app, report) {
    status.kind = 'sweep';
    var points = report.points;
    var layout = layoutOf(report);
    status.layout = { keys: layout.keys, grid: layout.grid };
    app.appendChild(element('h1', { text: 'memcarlo sweep: ' + report.inputs.trace }));
    app.appendChild(inputsSection(report));
    app.appendChild(section('Points', [
      element('p', { className: 'note', text: '* baseline. Δ: this point minus the baseline, mean of the per-trial differences over common random numbers, ± paired 95% half-width.' }),
      element('div', { className: 'table-scroll' }, [sweepTable(points, layout.keys)])
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
      metrics.forEach(function (metric) { sweepMetricCharts(grid, layout, points, scope, metric, made); });
      made.forEach(shortenLabels);
      if (metrics.length === 0) {
        grid.appendChild(element('p', { className: 'note', text: 'No metric is defined here.' }));
      }
    }
    select.addEventListener('change', function () {
      show(select.value);
      recordCharts();
    });
    app.appendChild(section('Metrics against the varied parameters', [
      element('p', { className: 'note', id: 'layout-note', text: layoutNote(layout, points) }),
      element('label', { className: 'select-label' }, ['Scope: ', select]), grid]));
    show('overall');
  }

  page.renderSweep = renderSweep;
})(memcarloReport);
