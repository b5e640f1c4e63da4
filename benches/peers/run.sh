#!/usr/bin/env bash
# paletted against its peers in one criterion run. azalea-world 0.16 needs
# nightly features: try it with RUSTC_BOOTSTRAP=1 and, if it does not build
# here, run without it and say so. Extra arguments go to criterion, e.g.
#   ./run.sh --warm-up-time 1 --measurement-time 2 get/
set -u
cd "$(dirname "$0")"
if RUSTC_BOOTSTRAP=1 cargo bench --features azalea --no-run; then
    exec env RUSTC_BOOTSTRAP=1 cargo bench --features azalea --bench peers -- "$@"
fi
echo "run.sh: azalea-world did not build (it needs nightly features); benchmarking without it" >&2
exec cargo bench --bench peers -- "$@"
