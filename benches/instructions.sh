#!/bin/sh
# Instructions a pass of every workload, counted by callgrind (see
# benches/instructions.rs), and the ratios BENCHMARKS.md's targets use.
#   benches/instructions.sh [passes] [prefix ...]
set -eu
cd "$(dirname "$0")/.."
cargo bench --bench instructions --no-run 2>/dev/null
bin=$(ls -t target/release/deps/instructions-* | grep -v '\.d$' | head -1)
dir=$(mktemp -d)
passes=${1:-20}
[ $# -gt 0 ] && shift
valgrind --tool=callgrind --collect-atstart=no --toggle-collect='instructions::measured' \
    --dump-after='instructions::measured' --callgrind-out-file="$dir/cg.%p" \
    "$bin" "$passes" "$@" >"$dir/names" 2>"$dir/log"
python3 benches/instructions.py "$dir" "$passes" || { cat "$dir/log" >&2; exit 1; }
rm -rf "$dir"
