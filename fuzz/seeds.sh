#!/usr/bin/env bash
# Rebuilds the committed seed corpora, fuzz/seeds/<target>/, from cases/ops,
# cases/golden, snapshots/, cases/known-divergences.toml and the real-world
# fixtures (rig/tests/worlds). Small by construction (examples/seeds.rs caps
# each target at 160 inputs of at most 12 KiB, 64 KiB for world).
set -euo pipefail
cd "$(dirname "$0")"
cargo run --quiet --release --example seeds -- .. seeds
for d in seeds/*/; do
  printf '%s %s inputs, %s bytes\n' "$(basename "$d")" "$(ls "$d" | wc -l)" "$(cat "$d"* | wc -c)"
done
