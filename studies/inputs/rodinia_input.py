#!/usr/bin/env python3
"""Inputs for Rodinia programs whose data/ folder the public repository does not ship.
Deterministic (seeded).
  rodinia_input.py nn RECORDS FILES LIST   FILES hurricane record files of RECORDS lines in all
                                           (the format of the suite's hurricane_gen.c: year,
                                           month, day, hour, number, name, latitude, longitude,
                                           speed, pressure) and LIST naming them (nn's first
                                           argument)
  rodinia_input.py cfd ELEMENTS FILE       a mesh for cfd's euler3d: ELEMENTS, then per element its
                                           area and 4 x (neighbour, normal x y z); the elements
                                           form a 3D grid of 8-element rows (neighbours +-1 along
                                           a row, +-8 across; Fortran numbering, -2 (far field)
                                           off the grid's edge)
  rodinia_input.py srad ROWS COLS FILE     an ultrasound-like image for srad_v1 (its
                                           data/srad/image.pgm, 502 x 458 in the suite): an ASCII
                                           PGM (P2; srad_v1 skips three header lines) of ROWS x
                                           COLS grey levels 0..255, a bright disc on a dark
                                           background with multiplicative speckle"""
import random
import sys

generator = random.Random(1)
kind = sys.argv[1] if len(sys.argv) > 1 else ""
if kind == "nn":
    records, files, list_path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    names = ["ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON", "HELENE"]
    with open(list_path, "w") as listing:
        for index in range(files):
            path = "cane%d_%d.db" % (files, index)
            listing.write(path + "\n")
            with open(path, "w") as out:
                for _ in range(records // files + (index < records % files)):
                    out.write("%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n" % (
                        generator.randint(1950, 2004), generator.randint(1, 12),
                        generator.randint(1, 28), generator.choice([0, 6, 12, 18]),
                        generator.randint(1, 28), generator.choice(names),
                        generator.uniform(7, 70), generator.uniform(0, 358),
                        generator.randint(10, 164), generator.randint(0, 899)))
elif kind == "cfd":
    elements, path = int(sys.argv[2]), sys.argv[3]
    row = 8
    with open(path, "w") as out:
        out.write("%d\n" % elements)
        for element in range(elements):
            parts = ["%.6f" % generator.uniform(0.5, 1.5)]
            for offset, normal in ((-1, (-1, 0, 0)), (1, (1, 0, 0)), (-row, (0, -1, 0)),
                                   (row, (0, 1, 0))):
                neighbour = element + offset
                same_row = abs(offset) != 1 or neighbour // row == element // row
                number = neighbour + 1 if 0 <= neighbour < elements and same_row else -2
                parts.append("%d %.6f %.6f %.6f" % ((number,) + tuple(0.01 * n for n in normal)))
            out.write(" ".join(parts) + "\n")
elif kind == "srad":
    rows, cols, path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(path, "w") as out:
        out.write("P2\n%d %d\n255\n" % (cols, rows))
        for r in range(rows):
            line = []
            for c in range(cols):
                inside = (r - rows / 2) ** 2 + (c - cols / 2) ** 2 < (min(rows, cols) / 3) ** 2
                level = (170 if inside else 60) * generator.uniform(0.6, 1.4)
                line.append("%d" % min(255, max(1, int(level))))
            out.write(" ".join(line) + "\n")
else:
    sys.exit("rodinia_input.py: unknown kind '%s' (expected nn, cfd or srad)" % kind)
