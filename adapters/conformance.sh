#!/usr/bin/env bash
# CONFORMANCE.md from the recorded set: builds the adapters, then runs
# `rig conformance` over every recorded case through each (and paletted's own
# containers, behind `rig adapter paletted`, for the grid's first column).
#   adapters/conformance.sh           # rewrite CONFORMANCE.md, CONFORMANCE-details.md
#                                     # and CONFORMANCE.html
#   adapters/conformance.sh --check   # CI: fail if any of them is stale
# A peer's divergences never fail this; a stale table does.
set -euo pipefail
cd "$(dirname "$0")/.."
adapters/build.sh
rig=(cargo run --quiet --release -p rig --)
mode=()
[ "${1:-}" = --check ] && mode=(--check)
"${rig[@]}" conformance \
  --executor "paletted=rig adapter paletted" \
  --executor "prismarine-chunk=node adapters/prismarine-chunk/adapter.js" \
  --executor "azalea-world=adapters/target/azalea-world/debug/adapter-azalea-world" \
  --executor "oxidized-chunks=adapters/target/oxidized-chunks/debug/adapter-oxidized-chunks" \
  --executor "minestom=adapters/target/minestom/adapter-minestom" \
  --executor "go-mc=adapters/target/go-mc/adapter-go-mc" \
  --executor "amulet=adapters/target/amulet/venv/bin/python adapters/amulet/adapter.py" \
  --executor "valence=adapters/target/valence/debug/adapter-valence" \
  --findings adapters/SUMMARY.md --date 2026-12-01 \
  --out CONFORMANCE.md --details CONFORMANCE-details.md --html CONFORMANCE.html "${mode[@]}"
