#!/usr/bin/env bash
# The long run: every target (or those named) for RUNS executions each
# (default 10 million), one after the other, from the growing corpus
# (fuzz/corpus/<target>, gitignored) and the seeds. Prints, for each, the
# figures BENCHMARKS.md records: executions, seconds, exec/s, corpus size.
# Stops at the first crash (the input is in fuzz/artifacts/<target>/).
#   fuzz/long.sh                    all targets, 10M runs each
#   RUNS=1000000 fuzz/long.sh read  one target, 1M runs
#   FAST=1 fuzz/long.sh              built without compare tracing (about 2.5x
#                                    the executions a second; edge coverage
#                                    still guides it) in target-fast/
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
runs=${RUNS:-10000000}
flags=(-s none -a)
if [ "${FAST:-0}" = 1 ]; then
  flags+=(--no-trace-compares --target-dir target-fast)
fi
cargo fuzz build "${flags[@]}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
printf '%-15s %12s %8s %8s %8s %10s\n' target runs seconds exec/s corpus bytes
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "logs"
  start=$(date +%s)
  cargo fuzz run "${flags[@]}" "$t" "corpus/$t" "seeds/$t" -- \
    -runs="$runs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 >"logs/$t.log" 2>&1 \
    || { echo "$t: CRASH (logs/$t.log)"; tail -n 30 "logs/$t.log"; exit 1; }
  secs=$(( $(date +%s) - start ))
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "logs/$t.log")
  printf '%-15s %12s %8s %8s %8s %10s\n' "$t" "$done_runs" "$secs" "$rate" \
    "$(ls "corpus/$t" | wc -l)" "$(du -sb "corpus/$t" | cut -f1)"
done
