#!/usr/bin/env bash
# CONFORMANCE.md from the recorded set: builds the adapters, then runs
# `rig conformance` over every recorded case through each (and paletted's own
# containers, behind `rig adapter paletted`, for the grid's first column).
# An implementation of a version before 26.x meets the vanilla chunk packets
# of tests/packets (tests/packets/install, run when missing) until recordings of its
# version come back.
#   adapters/conformance.sh           # rewrite CONFORMANCE.md, CONFORMANCE-details.md
#                                     # and CONFORMANCE.html
#   adapters/conformance.sh --check   # CI: fail if any of them is stale
# A peer's divergences never fail this; a stale table does.
set -euo pipefail
cd "$(dirname "$0")/.."
adapters/build.sh
[ -d tests/packets/node_modules/minecraft-packets ] || tests/packets/install
rig=(cargo run --quiet --release -p rig --)
mode=()
[ "${1:-}" = --check ] && mode=(--check)
# --case-timeout 300: go-mc allocates the long count a read claims (up to 160,195,575 longs)
# and answers a line past the 256 MiB limit in about a minute under load; at the default 60 s
# the reason the details give for those 12 cases changed from run to run.
"${rig[@]}" conformance --case-timeout 300 \
  --executor "paletted=rig adapter paletted" \
  --executor "paletted@1.20.1=rig adapter paletted --minecraft 1.20.1" \
  --executor "prismarine-chunk=node adapters/prismarine-chunk/adapter.js" \
  --executor "prismarine-chunk@1.20.1=node adapters/prismarine-chunk/adapter.js --minecraft 1.20.1" \
  --executor "azalea-world=adapters/target/azalea-world/debug/adapter-azalea-world" \
  --executor "oxidized-chunks=adapters/target/oxidized-chunks/debug/adapter-oxidized-chunks" \
  --executor "minestom=adapters/target/minestom/adapter-minestom" \
  --executor "go-mc=adapters/target/go-mc/adapter-go-mc" \
  --executor "amulet=adapters/target/amulet/venv/bin/python adapters/amulet/adapter.py" \
  --executor "valence=adapters/target/valence/debug/adapter-valence" \
  --executor "fastanvil=adapters/target/fastanvil/debug/adapter-fastanvil" \
  --executor "anvil-parser2=adapters/target/anvil-parser2/venv/bin/python adapters/anvil-parser2/adapter.py" \
  --findings adapters/SUMMARY.md --date 2026-12-03 \
  --out CONFORMANCE.md --details CONFORMANCE-details.md --html CONFORMANCE.html "${mode[@]}"
