#!/usr/bin/env bash
# The quick fuzz for CI: installs cargo-fuzz if missing, builds every target,
# replays the committed crash reproducers (crashes/<target>/, until each is
# fixed and moved to seeds/), then fuzzes each target from its seeds for
# FUZZ_RUNS executions (default 5,000) from seed FUZZ_SEED (default 1), at
# most FUZZ_SECONDS (default 300). Quiet on success but for one line a target;
# on a crash prints the end of libFuzzer's log (the panic, the input's path
# under fuzz/artifacts/<target>/) and exits non-zero.
#   FUZZ_RUNS=200000 fuzz/ci.sh    longer
#   FUZZ_REPLAY=0 fuzz/ci.sh        skip the crash reproducers
set -euo pipefail
cd "$(dirname "$0")"
# cargo-fuzz needs nightly flags (-Z sanitizer options); the stable toolchain
# takes them with RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked --quiet
fi
# A fixed seed and a fixed number of runs: the same inputs on every machine,
# so CI's verdict does not depend on luck or speed (the long run, long.sh,
# explores at random). FUZZ_SECONDS caps the time as well.
runs=${FUZZ_RUNS:-5000}
seed=${FUZZ_SEED:-1}
seconds=${FUZZ_SECONDS:-300}
# No sanitizer: the crate forbids unsafe code, and ASan would halve the
# speed; -a keeps debug assertions and overflow checks on, as users' debug
# builds have them.
flags=(-s none -a)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cargo fuzz build "${flags[@]}" >"$log" 2>&1; then
  echo "fuzz: build failed"
  cat "$log"
  exit 1
fi
# The seed generator (examples/seeds.rs) builds too, or it rots unseen.
if ! cargo check --quiet --examples >"$log" 2>&1; then
  echo "fuzz: examples/seeds.rs does not build"
  cat "$log"
  exit 1
fi
failed=0
for t in $(cargo fuzz list); do
  if [ "${FUZZ_REPLAY:-1}" != 0 ] && [ -d "crashes/$t" ] && [ -n "$(ls -A "crashes/$t")" ]; then
    if ! cargo fuzz run "${flags[@]}" "$t" crashes/"$t"/* -- -rss_limit_mb=2048 >"$log" 2>&1; then
      echo "fuzz: $t: a committed crash reproducer still fails (crashes/$t/, see CRASHES.md):"
      grep -E "panicked|out-of-memory|deadly signal|Running:" "$log" | head -n 8
      failed=1
      continue
    fi
  fi
  mkdir -p "corpus/$t"
  if cargo fuzz run "${flags[@]}" "$t" "corpus/$t" "seeds/$t" -- \
      -seed="$seed" -runs="$runs" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 >"$log" 2>&1; then
    done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    echo "fuzz: $t: $done_runs runs, $rate/s, no crash"
  else
    echo "fuzz: $t: CRASH"
    tail -n 40 "$log"
    failed=1
  fi
done
exit "$failed"
