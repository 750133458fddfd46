#!/usr/bin/env bash
# Measures the judge's per-move overhead with two instant-moving libraries.
# Usage: judge/scripts/overhead.sh [PAIRS] [extra judge options...]
# Needs: cc, python3, and a release build (cargo build -p gravity4-judge --release).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
judge=${JUDGE:-${CARGO_TARGET_DIR:-$here/../target}/release/judge}
pairs=${1:-200}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -I "$here/tests/fixtures" -o "$work/fast.so" "$here/tests/fixtures/fast.c"
cp "$work/fast.so" "$work/fast2.so"
start=$(date +%s.%N)
"$judge" match "$work/fast.so" "$work/fast2.so" --pairs "$pairs" --seed 1 --quiet --out "$work/run" "$@" >/dev/null
end=$(date +%s.%N)
python3 - "$work/run/games.jsonl" "$start" "$end" <<'PY'
import json, statistics as st, sys
games = [json.loads(l) for l in open(sys.argv[1])]
wall = float(sys.argv[3]) - float(sys.argv[2])
ms = sorted(m for g in games for m in g["move_ms"])
cpu = [c or 0.0 for g in games for c in g["cpu_ms"]]
n = len(ms)
print(f"games {len(games)}, moves {n}, run wall {wall:.2f} s")
print(f"per move (parent wall clock, request sent -> reply read): median {st.median(ms):.3f} ms, "
      f"mean {st.mean(ms):.3f} ms, p90 {ms[int(.9 * n)]:.3f} ms, p99 {ms[int(.99 * n)]:.3f} ms")
print(f"library CPU per move (getPoint thread): mean {st.mean(cpu):.4f} ms")
print(f"whole run per move (spawning, referee, fsync'd log included): {1000 * wall / n:.3f} ms; per game {1000 * wall / len(games):.2f} ms")
PY
