#!/usr/bin/env bash
# Builds (installs) the conformance adapters, outside the default build:
#   adapters/build.sh                 # all three
#   adapters/build.sh prismarine-chunk oxidized-chunks
# Quiet on success. Binaries land in adapters/target/<adapter>/debug/ (a
# target dir each: azalea's RUSTC_BOOTSTRAP=1 would otherwise make the crates
# both share rebuild at every switch); node_modules in
# adapters/prismarine-chunk/. See adapters/README.md.
set -euo pipefail
cd "$(dirname "$0")"
for adapter in "${@:-prismarine-chunk oxidized-chunks azalea-world}"; do
    for a in $adapter; do
        case "$a" in
        prismarine-chunk) (cd prismarine-chunk && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ;;
        oxidized-chunks) (cd oxidized-chunks && CARGO_TARGET_DIR=../target/oxidized-chunks cargo build --locked --quiet) ;;
        # azalea-world 0.16 uses unstable features (E0554 on stable Rust).
        azalea-world) (cd azalea-world && CARGO_TARGET_DIR=../target/azalea-world RUSTC_BOOTSTRAP=1 cargo build --locked --quiet) ;;
        *) echo "build.sh: no adapter \`$a\` (prismarine-chunk, oxidized-chunks, azalea-world)" >&2; exit 2 ;;
        esac
    done
done
