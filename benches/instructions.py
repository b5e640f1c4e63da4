#!/usr/bin/env python3
"""Reads the callgrind dumps of benches/instructions.sh: one dump per
measured call, in the order of the names the driver printed. Prints
instructions a pass (and an op) for each workload, then the target ratios."""

import pathlib
import re
import sys

d = pathlib.Path(sys.argv[1])
passes = int(sys.argv[2])
names = [line.split() for line in (d / "names").read_text().splitlines() if line.strip()]
dumps = sorted(
    (p for p in d.glob("cg.*.*") if re.fullmatch(r"cg\.\d+\.\d+", p.name)),
    key=lambda p: int(p.name.rsplit(".", 1)[1]),
)
if len(dumps) != len(names):
    sys.exit(f"instructions: {len(dumps)} dumps for {len(names)} workloads; see valgrind's log")
ir = {}
for (name, ops), dump in zip(names, dumps):
    total = next(
        int(line.split()[1])
        for line in dump.read_text().splitlines()
        if line.startswith(("summary:", "totals:"))
    )
    ir[name] = total / passes
    print(f"{name:<26} {ir[name]:>12.0f} Ir/pass {ir[name] / int(ops):>10.1f} Ir/op")


ops = {name: int(n) for name, n in names}


def ratio(label, num, den, per_op=False):
    if all(n in ir for n in num) and all(n in ir for n in den):
        scale = (lambda n: ir[n] / ops[n]) if per_op else (lambda n: ir[n])
        a, b = sum(scale(n) for n in num), sum(scale(n) for n in den)
        print(f"{label:<44} {a / b:6.2f}x")


print()
for s in ["flat", "17", "200", "300", "biome3"]:
    ratio(f"read/{s} / be_copy/{s}", [f"read/{s}"], [f"be_copy/{s}"])
    ratio(f"read_in_place/{s} / be_copy/{s}", [f"read_in_place/{s}"], [f"be_copy/{s}"])
    ratio(f"read_lenient/{s} / be_copy/{s}", [f"read_lenient/{s}"], [f"be_copy/{s}"])
    ratio(f"unpack/{s} / (clone_packed + be_copy)", [f"unpack/{s}"],
          [f"clone_packed/{s}", f"be_copy/{s}"])
    ratio(f"write/{s} / be_copy/{s}", [f"write/{s}"], [f"be_copy/{s}"])
for s, b in [("flat", 4), ("17", 5), ("200", 8), ("300", 16), ("biome3", 2)]:
    sb = {8: 9, 2: 4}.get(b, b)
    ratio(f"get/{s} / storage_get/{sb} (per op)", [f"get/{s}"], [f"storage_get/{sb}"], True)
    ratio(f"set/{s} / storage_set/{sb} (per op)", [f"set/{s}"], [f"storage_set/{sb}"], True)
for s in ["17", "200", "300"]:
    ratio(f"counts/{s} / counts/flat", [f"counts/{s}"], ["counts/flat"])
for s in ["flat", "17", "200", "300", "biome3"]:
    ratio(f"from_sets/{s} / from_values/{s}", [f"from_sets/{s}"], [f"from_values/{s}"])
    ratio(f"iter/{s} / storage_values/{s}", [f"iter/{s}"], [f"storage_values/{s}"])
    ratio(f"positions/{s} / storage_values/{s}", [f"positions/{s}"], [f"storage_values/{s}"])
