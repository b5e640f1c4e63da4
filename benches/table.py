#!/usr/bin/env python3
"""BENCHMARKS.md's tables from criterion's results (median of each benchmark).

    python3 benches/table.py containers target/criterion
    python3 benches/table.py peers benches/peers/target/criterion

`containers` reads `cargo bench --bench containers` (ids like `get/flat`);
`peers` reads the peer crate's run (group `get/flat`, function = crate).
"""

import json
import pathlib
import sys

SECTIONS = ["flat", "17", "200", "300", "biome3"]
# Operations in one pass of a workload (the rest do one op a pass).
PER_PASS = {"get", "set", "get_and_set", "storage_get", "storage_set"}

# Minecraft's figures from issue 5 (another machine: a reference, not measured
# here), in ns per op; and the speed-up each target asks for.
REFERENCE = {
    "get/flat": (6.0, 3), "set/flat": (21.0, 3), "write/flat": (470.0, 3),
    "write/300": (1900.0, 3), "pack/flat": (11000.0, 5), "pack/300": (160000.0, 5),
    "counts/flat": (7600.0, 5), "ladder/blocks300": (300000.0, 5),
}
AZALEA_REFERENCE = {"get/flat": 2.4, "set/flat": 5.7, "write/flat": 450.0,
                    "ladder/blocks300": 800000.0}


def ops(name):
    group, _, rest = name.partition("/")
    if group in PER_PASS:
        return 64 if rest == "biome3" else 4096
    return 1


def load(root):
    """{(group_id, function_id or None): median ns}"""
    out = {}
    for bench in pathlib.Path(root).glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        out[(meta["group_id"], meta["function_id"])] = est["median"]["point_estimate"]
    return out


def fmt(ns):
    if ns >= 100_000:
        return f"{ns / 1000:,.0f} µs"
    if ns >= 10_000:
        return f"{ns / 1000:,.1f} µs"
    if ns >= 100:
        return f"{ns:,.0f} ns"
    return f"{ns:.1f} ns"


def containers(root):
    r = {g: ns for (g, f), ns in load(root).items() if f is None}
    groups = []
    for name in r:
        g = name.split("/")[0]
        if g not in groups:
            groups.append(g)
    order = ["get", "set", "get_and_set", "write", "be_copy", "serialized_size", "read",
             "read_in_place", "pack", "unpack", "clone_packed", "counts", "from_values",
             "from_sets", "iter", "positions", "storage_values"]
    print("Time per pass (per op where a pass holds many: 4,096 for block states, 64 for biomes).\n")
    print("| workload | " + " | ".join(SECTIONS) + " |")
    print("|---" * (len(SECTIONS) + 1) + "|")
    for g in order:
        cells = []
        for s in SECTIONS:
            ns = r.get(f"{g}/{s}")
            if ns is None:
                cells.append("-")
            elif ops(f"{g}/{s}") > 1:
                cells.append(f"{ns / ops(f'{g}/{s}'):.2f} ns/op")
            else:
                cells.append(fmt(ns))
        print(f"| {g} | " + " | ".join(cells) + " |")
    def ratio(label, num, den):
        print(f"| {label} | " + " | ".join(
            f"{r[num(s)] / r[den(s)]:.2f}x" if num(s) in r and den(s) in r else "-"
            for s in SECTIONS) + " |")

    ratio("write ÷ be_copy", lambda s: f"write/{s}", lambda s: f"be_copy/{s}")
    ratio("from_sets ÷ from_values", lambda s: f"from_sets/{s}", lambda s: f"from_values/{s}")
    ratio("iter ÷ storage_values", lambda s: f"iter/{s}", lambda s: f"storage_values/{s}")
    ratio("positions ÷ storage_values", lambda s: f"positions/{s}",
          lambda s: f"storage_values/{s}")
    # Per op, against the bit storage's width nearest the section's (8 and 2
    # bits are not timed: 9 and 4 stand in, as in benches/instructions.py).
    width = {"flat": 4, "17": 5, "200": 9, "300": 16, "biome3": 4}
    for op in ["get", "set"]:
        print(f"| {op} ÷ storage_{op} (per op) | " + " | ".join(
            f"{r[f'{op}/{s}'] / ops(f'{op}/{s}') / (r[f'storage_{op}/{width[s]}'] / 4096):.2f}x"
            if f"{op}/{s}" in r and f"storage_{op}/{width[s]}" in r else "-"
            for s in SECTIONS) + " |")
    print()
    print("| workload | 4 bits | 5 bits | 9 bits | 16 bits |")
    print("|---|---|---|---|---|")
    for g in ["storage_get", "storage_set", "storage_fill"]:
        cells = []
        for b in ["4", "5", "9", "16"]:
            ns = r.get(f"{g}/{b}")
            cells.append("-" if ns is None else
                         (f"{ns / 4096:.2f} ns/op" if g != "storage_fill" else fmt(ns)))
        print(f"| {g} | " + " | ".join(cells) + " |")
    print()
    print("| ladder | time |")
    print("|---|---|")
    for name in ["ladder/blocks300", "ladder/biomes20"]:
        if name in r:
            print(f"| {name} | {fmt(r[name])} |")
    print()
    print("Against Minecraft's reference figures (issue 5; **reference, not measured here**):\n")
    print("| workload | Rust here | Minecraft (reference) | reference ÷ Rust | target | met? |")
    print("|---|---|---|---|---|---|")
    for name, (ref, want) in REFERENCE.items():
        if name not in r:
            continue
        per_op = r[name] / ops(name)
        ratio = ref / per_op
        print(f"| {name} | {fmt(per_op)} | {fmt(ref)} | {ratio:.2f}x | ≥ {want}x | "
              f"{'yes' if ratio >= want else 'no'} |")
    if "write/flat" in r and "be_copy/flat" in r:
        m = r["write/flat"] / r["be_copy/flat"]
        print(f"| write/flat ÷ be_copy/flat | {m:.2f}x | | | ≤ 3x | {'yes' if m <= 3 else 'no'} |")


def peers(root):
    r = load(root)
    names = []
    for (g, _f) in r:
        if g not in names:
            names.append(g)
    crates = ["paletted", "azalea", "oxidized"]
    print("| workload | paletted | azalea-world | azalea ÷ paletted | oxidized-chunks | oxidized ÷ paletted |")
    print("|---|---|---|---|---|---|")
    shared = {c: [] for c in crates[1:]}
    for g in sorted(names, key=lambda n: (n.split("/")[0], n)):
        base = r.get((g, "paletted"))
        cells = [fmt(base) if base else "-"]
        for c in crates[1:]:
            ns = r.get((g, c))
            if ns is None or base is None:
                cells += ["cannot", ""] if base else ["-", ""]
            else:
                cells += [fmt(ns), f"{ns / base:.2f}x"]
                shared[c].append((g, ns / base))
        # The peers' reads and unpacks validate nothing: they are timed
        # beside both of ours.
        op = g.split("/")[0]
        lenient = op.endswith("_lenient")
        label = f"{g} (peers: their {op.removesuffix('_lenient')})" if lenient else g
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    for c, rows in shared.items():
        if not rows:
            continue
        # Against a peer's read or unpack, the strict form and the lenient
        # one are two forms of one workload: the lenient one (the same work)
        # counts.
        rows = [(g, x) for g, x in rows if not g.startswith(("read/", "unpack/"))]
        behind = [g for g, x in rows if x < 1.0]
        ahead = sum(1 for _, x in rows if x >= 1.5)
        print(f"- {c}: {len(rows)} shared workloads (strict `read` and `unpack` rows aside); "
              f"at least 1.0x on {len(rows) - len(behind)}, at least 1.5x on {ahead}; "
              f"behind on: {', '.join(behind) if behind else 'none'}")


if __name__ == "__main__":
    {"containers": containers, "peers": peers}[sys.argv[1]](sys.argv[2])
