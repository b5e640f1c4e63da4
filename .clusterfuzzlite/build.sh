#!/bin/bash -eu
# Builds every target of fuzz/ with the sanitizer ClusterFuzzLite asks for
# and copies the binaries and seed corpora ($OUT/<target>_seed_corpus.zip).
cd "$SRC/paletted"
cargo fuzz build -O --debug-assertions
release=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
  cp "$release/$target" "$OUT/"
  if [ -d "fuzz/seeds/$target" ]; then
    (cd "fuzz/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
done
