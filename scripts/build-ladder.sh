#!/usr/bin/env bash
# Builds the ladder of numbered opponents (ladder/, its own cargo workspace) and puts each rung
# as N.so, the name the course's numbered AIs use, in one directory.
#
# Usage: scripts/build-ladder.sh [DIR]
#   DIR  where N.so go; default $GRAVITY4_LADDER_DIR, else target/ladder/ under the repo root.
#        A relative DIR is taken from the current directory.
# Environment:
#   GRAVITY4_LADDER_DIR  the default for DIR.
#   CARGO                the cargo to run (default: cargo).
# Intermediate build files go to target/ladder-build/ (kept apart from the root workspace's
# target dir, whose `gravity4` is built with its `abi` feature on; the ladder's is not).
# Works from any current directory.
set -euo pipefail

repo="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-${GRAVITY4_LADDER_DIR:-$repo/target/ladder}}"
build="$repo/target/ladder-build"

"${CARGO:-cargo}" build --release --manifest-path "$repo/ladder/Cargo.toml" --target-dir "$build"

mkdir -p -- "$out"
out="$(cd -- "$out" && pwd)"
count=0
for lib in "$build"/release/libladder_rung_*.so; do
    [[ -e "$lib" ]] || continue
    n="${lib##*/libladder_rung_}"
    n="${n%.so}"
    cp -- "$lib" "$out/$n.so"
    count=$((count + 1))
done
if ((count == 0)); then
    echo "build-ladder: no libladder_rung_*.so found in $build/release" >&2
    exit 1
fi
echo "build-ladder: $count rungs in $out:"
ls -1v -- "$out"/*.so
