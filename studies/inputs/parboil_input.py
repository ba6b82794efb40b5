#!/usr/bin/env python3
"""Inputs for Parboil programs when the suite's datasets/ folder is not at hand (the public
repository does not ship it). Deterministic (seeded).
  parboil_input.py stencil NX NY NZ FILE   raw little-endian float32 grid, x fastest (stencil's -i)
  parboil_input.py matrix ROWS COLS FILE   "ROWS COLS" then ROWS*COLS values, column-major text
                                           (sgemm's -i A and B^T, as its io.cc reads them)
  parboil_input.py histo W H HW HH FILE    uint32 W H HW HH, then W*H bin numbers below HW*HH
                                           (histo's -i): normal around the middle bin, sd HW*HH/8,
                                           clipped, so some bins overflow as in the suite's image
  parboil_input.py spmv N PER_ROW MTX VEC  an N x N Matrix Market matrix (coordinate real general),
                                           row r with 1 + (r * 7 % PER_ROW) entries at random
                                           columns (rows of different lengths, as JDS sorts them),
                                           and VEC: N raw float32 (spmv's -i MTX,VEC); read by our
                                           shim/convert_dataset.h
  parboil_input.py mriq K X FILE           int32 K X, then kx ky kz (K), x y z (X), phiR phiI (K)
                                           raw float32 (mri-q's -i, as its file.cc reads it)"""
import random
import struct
import sys

generator = random.Random(1)
kind = sys.argv[1]
if kind == "stencil":
    nx, ny, nz, path = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    with open(path, "wb") as out:
        count = nx * ny * nz
        out.write(struct.pack("<%df" % count, *(generator.random() for _ in range(count))))
elif kind == "matrix":
    rows, cols, path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(path, "w") as out:
        out.write("%d %d\n" % (rows, cols))
        out.write(" ".join("%.6f" % generator.random() for _ in range(rows * cols)))
        out.write("\n")
elif kind == "histo":
    width, height, histo_width, histo_height = (int(value) for value in sys.argv[2:6])
    bins = histo_width * histo_height
    values = (min(bins - 1, max(0, int(generator.gauss(bins / 2, bins / 8))))
              for _ in range(width * height))
    with open(sys.argv[6], "wb") as out:
        out.write(struct.pack("<4I", width, height, histo_width, histo_height))
        out.write(struct.pack("<%dI" % (width * height), *values))
elif kind == "spmv":
    n, per_row, matrix_path, vector_path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    entries = []
    for row in range(n):
        for column in sorted(generator.sample(range(n), 1 + (row * 7) % per_row)):
            entries.append((row + 1, column + 1, generator.random()))
    with open(matrix_path, "w") as out:
        out.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n, n, len(entries)))
        out.write("".join("%d %d %.6f\n" % entry for entry in entries))
    with open(vector_path, "wb") as out:
        out.write(struct.pack("<%df" % n, *(generator.random() for _ in range(n))))
elif kind == "mriq":
    k, x, path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(path, "wb") as out:
        out.write(struct.pack("<2i", k, x))
        for count in (k, k, k, x, x, x, k, k):
            out.write(struct.pack("<%df" % count, *(generator.uniform(-0.5, 0.5) for _ in range(count))))
else:
    sys.exit("parboil_input.py: unknown kind '%s' (expected stencil, matrix, histo, spmv or mriq)"
             % kind)
