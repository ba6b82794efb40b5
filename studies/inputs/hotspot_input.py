#!/usr/bin/env python3
"""Inputs for Rodinia's hotspot when the suite's data/ folder is not at hand: a grid of SIZE x SIZE
temperatures (around 323-343 K) and one of power values (0-0.01 W), one number a line, as
hotspot reads them. Deterministic (seeded). Usage: hotspot_input.py SIZE TEMP_FILE POWER_FILE"""
import random
import sys

size, temp_file, power_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
generator = random.Random(1)
with open(temp_file, "w") as temp:
    for _ in range(size * size):
        temp.write("%.6f\n" % (323.0 + 20.0 * generator.random()))
with open(power_file, "w") as power:
    for _ in range(size * size):
        power.write("%.8f\n" % (0.01 * generator.random()))
