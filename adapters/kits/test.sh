#!/usr/bin/env bash
# The adapter kits' own tests, one per language (PROTOCOL.md, "Adapter kits"):
#   adapters/kits/test.sh
# Needs python3, node, go, cargo and a JDK (JAVA_HOME first); quiet on success
# but for each runner's closing line. The Rust kit (../shared/protocol.rs) is
# tested inside an adapter that includes it (oxidized-chunks, the lightest).
set -euo pipefail
cd "$(dirname "$0")"
java_bin=${JAVA_HOME:+$JAVA_HOME/bin/}
for tool in python3 node go "${java_bin}javac"; do
    command -v "$tool" >/dev/null || { echo "kits/test.sh: \`$tool\` not found" >&2; exit 2; }
done
# Each runner's whole output on a failure, else its count.
run() {
    local out
    out=$("$@" 2>&1) || { echo "$out" >&2; echo "kits/test.sh: \`$*\` failed" >&2; exit 1; }
    echo "$out" | grep -E "$pattern" | tr '\n' ' ' | sed 's/ $/\n/'
}
pattern='^(Ran|OK)'; (cd python && run python3 -m unittest)
pattern='^# (pass|fail) '; (cd js && run node --test)
pattern='^ok'; (cd go && run go test ./...)
pattern='^test result'; (cd ../oxidized-chunks && CARGO_TARGET_DIR=../target/oxidized-chunks run cargo test --locked)
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
"${java_bin}javac" -Xlint:all -Werror -d "$classes" java/paletted/adapter/*.java
"${java_bin}java" -cp "$classes" paletted.adapter.KitTest
