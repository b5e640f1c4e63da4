#!/usr/bin/env bash
# Builds (installs) the conformance adapters, outside the default build:
#   adapters/build.sh                 # all of them
#   adapters/build.sh prismarine-chunk go-mc
# Quiet on success. Each lands under adapters/target/<adapter>/ (a target
# dir each: azalea's RUSTC_BOOTSTRAP=1 would otherwise make the crates both
# share rebuild at every switch); node_modules in adapters/prismarine-chunk/.
# Every build is pinned: Cargo.lock, package-lock.json, go.sum, an exact
# Maven version, a requirements file with hashes. See adapters/README.md.
set -euo pipefail
cd "$(dirname "$0")"
all="prismarine-chunk oxidized-chunks azalea-world go-mc minestom amulet valence fastanvil anvil-parser2"

need() {
    command -v "$1" >/dev/null || { echo "build.sh: $2 needs \`$1\`, which is not on the PATH" >&2; exit 2; }
}

# Runs a command with its output kept back unless it fails (Maven prints colour
# codes even when quiet, go its downloads).
quiet() {
    local log
    log=$(mktemp)
    "$@" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
    rm -f "$log"
}

# A JDK of at least 25 (Minestom's): JAVA_HOME first, then /usr/lib/jvm.
jdk25() {
    local d v
    for d in ${JAVA_HOME:-} /usr/lib/jvm/*; do
        [ -x "$d/bin/javac" ] || continue
        v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$d/release" 2>/dev/null)
        if [ "${v:-0}" -ge 25 ]; then echo "$d"; return; fi
    done
    echo "build.sh: minestom needs a JDK of 25 or newer (JAVA_HOME or /usr/lib/jvm); none found" >&2
    exit 2
}

minestom() {
    local jdk out version
    jdk=$(jdk25)
    need mvn minestom
    out=$PWD/target/minestom
    mkdir -p "$out"
    version=$(sed -n 's:.*<version>\(20[0-9.a-z-]*\)</version>.*:\1:p' minestom/pom.xml)
    JAVA_HOME=$jdk MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" quiet mvn -q -B -f minestom/pom.xml \
        dependency:build-classpath -Dmdep.outputFile="$out/classpath.txt"
    rm -rf "$out/classes"
    "$jdk/bin/javac" -Xlint:all,-processing -Werror -d "$out/classes" -cp "$(cat "$out/classpath.txt")" \
        kits/java/paletted/adapter/Kit.java minestom/Adapter.java
    # The launcher: this JDK and the resolved class path, fixed at build time; hot
    # exceptions keep their messages (the JIT drops them by default).
    printf '#!/bin/sh\nexec "%s/bin/java" -XX:-OmitStackTraceInFastThrow -Dminestom.version=%s -cp "%s/classes:%s" paletted.adapter.minestom.Adapter "$@"\n' \
        "$jdk" "$version" "$out" "$(cat "$out/classpath.txt")" >"$out/adapter-minestom"
    chmod +x "$out/adapter-minestom"
}

for adapter in ${@:-$all}; do
    case "$adapter" in
    prismarine-chunk) need npm "$adapter"; (cd prismarine-chunk && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ;;
    oxidized-chunks) (cd oxidized-chunks && CARGO_TARGET_DIR=../target/oxidized-chunks cargo build --locked --quiet) ;;
    # azalea-world 0.16 uses unstable features (E0554 on stable Rust).
    azalea-world) (cd azalea-world && CARGO_TARGET_DIR=../target/azalea-world RUSTC_BOOTSTRAP=1 cargo build --locked --quiet) ;;
    go-mc) need go "$adapter"; (cd go-mc && GOFLAGS=-mod=readonly quiet go build -o ../target/go-mc/adapter-go-mc .) ;;
    minestom) minestom ;;
    amulet)
        need python3 "$adapter"
        # The lock pins CPython 3.11 wheels (numpy, lz4, amulet-rocksdb).
        python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || {
            echo "build.sh: amulet's lock (amulet/requirements.txt) is for CPython 3.11; python3 is $(python3 -V)" >&2
            exit 2
        }
        [ -x target/amulet/venv/bin/python ] || python3 -m venv target/amulet/venv
        target/amulet/venv/bin/pip install -q --disable-pip-version-check --require-hashes --no-deps \
            -r amulet/requirements.txt
        ;;
    valence) (cd valence && CARGO_TARGET_DIR=../target/valence cargo build --locked --quiet) ;;
    fastanvil) (cd fastanvil && CARGO_TARGET_DIR=../target/fastanvil cargo build --locked --quiet) ;;
    anvil-parser2)
        # Pure-Python wheels (requirements.txt): any CPython 3.
        need python3 "$adapter"
        [ -x target/anvil-parser2/venv/bin/python ] || python3 -m venv target/anvil-parser2/venv
        target/anvil-parser2/venv/bin/pip install -q --disable-pip-version-check --require-hashes --no-deps \
            -r anvil-parser2/requirements.txt
        ;;
    *) echo "build.sh: no adapter \`$adapter\` ($all)" >&2; exit 2 ;;
    esac
done
