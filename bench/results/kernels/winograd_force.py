"""Builds a tuning table that forces Winograd: for every key whose candidates in an ml_bench --tune
log include a Winograd tile, the fastest Winograd tile measured there; other keys keep the table's
choice. Usage: winograd_force.py TUNE_LOG TABLE_IN TABLE_OUT"""
import re
import sys

log, table_in, table_out = sys.argv[1:4]
best = {}
for line in open(log):
    m = re.match(r"\s+tune .* (winograd_\S+)\s+([0-9.]+) ms\s+\[(.*)\]\s*$", line)
    if m and (m.group(3) not in best or float(m.group(2)) < best[m.group(3)][1]):
        best[m.group(3)] = (m.group(1), float(m.group(2)))
with open(table_out, "w") as out:
    for line in open(table_in):
        key, candidate, ms = line.rstrip("\n").split("\t")
        if key in best:
            candidate, ms = best[key][0], str(best[key][1])
        out.write(f"{key}\t{candidate}\t{ms}\n")
print(f"winograd_force: {len(best)} keys forced onto Winograd")
