#!/usr/bin/env python3
"""One Markdown table from several `memcarlo sweep` reports (scripts/example-sweep.sh).

usage: example_sweep_table.py [--metrics M1,M2] NAME=SWEEP.json ...

Per example and point: the varied parameters, each chosen overall metric (mean ± 95% half-width)
and the change of the load latency X against the sweep's baseline (its first point): the
requests-weighted mean of the loads' paired latency differences, in cycles per request and as a
percentage of the baseline's requests-weighted X. Its ± is the requests-weighted mean of the loads'
paired half-widths, an upper bound on the half-width of the weighted mean (the loads' differences
are correlated within a trial, so their half-widths do not add in quadrature).
"""
import argparse
import json
import sys


def half_width(distribution):
    ci = distribution.get("ci95") if isinstance(distribution, dict) else None
    if not ci or ci[0] is None or ci[1] is None:
        return None
    return (ci[1] - ci[0]) / 2


def format_distribution(distribution, digits):
    if not isinstance(distribution, dict) or distribution.get("mean") is None:
        return "-"
    hw = half_width(distribution)
    text = f"{distribution['mean']:.{digits}f}"
    return text + (f" ±{hw:.{digits}f}" if hw is not None else "")


def latency_change(baseline, point):
    """(cycles, half-width bound, percent) or None when no load has a latency in both points."""
    base_loads = {load["id"]: load for load in baseline.get("loads", [])}
    differences = {d["id"]: d for d in (point.get("difference") or {}).get("loads", [])}
    weight = total = bound = base_total = 0.0
    for load in point.get("loads", []):
        base = base_loads.get(load["id"])
        diff = differences.get(load["id"], {}).get("latency_cycles")
        if base is None or not isinstance(diff, dict) or diff.get("mean") is None:
            continue
        base_x = base.get("latency_cycles")
        if not isinstance(base_x, dict) or base_x.get("mean") is None:
            continue
        requests = float(load.get("requests") or 0)
        weight += requests
        total += requests * diff["mean"]
        bound += requests * (half_width(diff) or 0.0)
        base_total += requests * base_x["mean"]
    if weight == 0:
        return None
    percent = 100.0 * total / base_total if base_total > 0 else None
    return total / weight, bound / weight, percent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", default="l1_read_hit_ratio,l2_read_hit_ratio")
    parser.add_argument("sweeps", nargs="+", metavar="NAME=SWEEP.json")
    options = parser.parse_args()
    metrics = [m for m in options.metrics.split(",") if m]
    header = ["example", "point"] + [m.replace("_", " ") for m in metrics] + ["ΔX cycles/request", "ΔX %"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for entry in options.sweeps:
        name, _, path = entry.partition("=")
        try:
            with open(path) as file:
                sweep = json.load(file)
            points = sweep["points"]
        except (OSError, ValueError, KeyError) as error:
            print(f"example_sweep_table.py: {path}: not a sweep report ({error})", file=sys.stderr)
            return 2
        varied = sweep.get("inputs", {}).get("varied_keys") or []
        for point in points:
            parameters = point.get("parameters", {})
            label = ", ".join(str(parameters[k]) for k in varied if k in parameters) or str(point["index"])
            cells = [name, label]
            for metric in metrics:
                value = point.get("overall", {}).get(metric)
                cells.append(format_distribution(value, 1 if metric.endswith("cycles") else 3))
            change = latency_change(points[0], point) if point is not points[0] else None
            if change is None:
                cells += ["(baseline)" if point is points[0] else "-", "-"]
            else:
                cycles, bound, percent = change
                cells.append(f"{cycles:+.1f} ±{bound:.1f}")
                cells.append(f"{percent:+.1f}%" if percent is not None else "-")
            print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
