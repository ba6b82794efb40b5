#!/usr/bin/env python3
"""A graph for Rodinia's bfs when the suite's data/ folder is not at hand, in the format bfs reads:
the node count; per node "first-edge edge-count"; the source node (0); the edge count; per edge
"destination cost". Undirected like the suite's graphs (each random edge stored both ways), each
node starting with 1-5 random neighbours, costs 1-10. Deterministic (seeded).
Usage: bfs_input.py NODES FILE"""
import random
import sys

nodes, path = int(sys.argv[1]), sys.argv[2]
generator = random.Random(1)
adjacency = [[] for _ in range(nodes)]
for node in range(nodes):
    for _ in range(generator.randint(1, 5)):
        other = generator.randrange(nodes)
        if other == node:
            continue
        cost = generator.randint(1, 10)
        adjacency[node].append((other, cost))
        adjacency[other].append((node, cost))
with open(path, "w") as out:
    out.write("%d\n" % nodes)
    first = 0
    for edges in adjacency:
        out.write("%d %d\n" % (first, len(edges)))
        first += len(edges)
    out.write("\n0\n\n%d\n" % first)
    for edges in adjacency:
        for other, cost in edges:
            out.write("%d %d\n" % (other, cost))
