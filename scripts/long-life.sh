#!/usr/bin/env bash
# The library over a long life: CALLS getPoint calls in one process, the course runner's way,
# at a budget of a millisecond or so, with every answer checked legal and the resident memory
# flat; then threads calling getPoint at once. Two hosts, side by side:
#   - scripts/long-life.cpp, a C++ host built with g++ that dlopens the library like the
#     course's runner (a new thread per call, never closed) and plays games against a random
#     player, self-play in one instance and random positions on random boards (M, N in
#     4..=12, the blocked cell anywhere), reading its own VmRSS every 1000 calls; then THREADS
#     threads at once, PER_THREAD calls each;
#   - the judge's --reuse-process mode: a self-play match in which each side's host is one
#     process for the whole run, no verdict allowed, its peak memory (VmHWM, which the judge
#     logs per game) first, last and peak, and the hosts' pids counted.
# With SANITIZE=1, instead: the library built with nightly's AddressSanitizer
# (`-Zsanitizer=address`, target/asan/) and the C++ host built with clang++ -fsanitize=address,
# so that one sanitizer runtime (the host's) serves both; LeakSanitizer on; any report fails.
#
# Usage: scripts/long-life.sh [CALLS]          (default 100000; SANITIZE=1: say 3000)
# Environment:
#   LIB         the library (default target/release/libgravity4.so, built when missing)
#   JUDGE       the judge (default target/release/judge, built when missing)
#   MOVE_MS     GRAVITY4_MOVE_MS, the budget per call (default 1)
#   THREADS, PER_THREAD   the concurrent phase (default 8 threads, 500 calls each)
#   SEED        the host's and the match's seed (default 1)
#   OUT         where the builds and the match go (default target/long-life/DATE)
# Run it beside other work through scripts/low-priority.sh.
set -euo pipefail

repo="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
calls="${1:-100000}"
move_ms="${MOVE_MS:-1}"
threads="${THREADS:-8}"
per_thread="${PER_THREAD:-500}"
seed="${SEED:-1}"
out="${OUT:-$repo/target/long-life/$(date +%Y%m%d-%H%M%S)}"
mkdir -p -- "$out"
out="$(realpath -- "$out")"
export GRAVITY4_MOVE_MS="$move_ms"

if [[ "${SANITIZE:-0}" == 1 ]]; then
    (cd "$repo" && RUSTFLAGS=-Zsanitizer=address cargo +nightly build -q --lib -p gravity4 \
        --profile ci --target x86_64-unknown-linux-gnu --target-dir target/asan)
    lib="$repo/target/asan/x86_64-unknown-linux-gnu/ci/libgravity4.so"
    clang++ -std=c++17 -O1 -g -fsanitize=address -fno-omit-frame-pointer -pthread \
        -o "$out/long-life-asan" "$repo/scripts/long-life.cpp" -ldl
    # The control: one answer never given back to clearPoint must be reported as a leak
    # of getPoint's, or the host's runtime does not see the library's allocations.
    LONG_LIFE_LEAK_ONE=1 ASAN_OPTIONS=detect_leaks=1 "$out/long-life-asan" "$lib" 20 1 1 "$seed" \
        >/dev/null 2>"$out/control.err" || true
    if ! grep -q "ERROR: LeakSanitizer" "$out/control.err" || ! grep -q "in getPoint" "$out/control.err"; then
        echo "long-life: FAIL: the sanitizer missed a deliberate leak ($out/control.err)" >&2
        exit 1
    fi
    echo "long-life: control: a Point not given back to clearPoint is reported by LeakSanitizer"
    # The host's own verdict on memory does not apply here: AddressSanitizer holds freed
    # memory in quarantine (256 MiB by default), so the resident size grows by design. What
    # counts is every answer legal and no sanitizer report.
    status=0
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
        "$out/long-life-asan" "$lib" "$calls" "$threads" "$per_thread" "$seed" \
        > >(tee "$out/asan.out") 2> >(tee "$out/asan.err" >&2) || status=$?
    sleep 0.2
    if grep -qE "ERROR: (Address|Leak)Sanitizer" "$out/asan.err" ||
        [[ "$(grep -c ': 0 illegal or NULL' "$out/asan.out")" != 2 ]]; then
        echo "long-life: FAIL under AddressSanitizer/LeakSanitizer (exit $status; $out/asan.err)" >&2
        exit 1
    fi
    echo "long-life: no AddressSanitizer or LeakSanitizer report, every answer legal"
    exit 0
fi

lib="${LIB:-$repo/target/release/libgravity4.so}"
judge="${JUDGE:-$repo/target/release/judge}"
if [[ ! -e "$lib" || ! -e "$judge" ]]; then
    (cd "$repo" && cargo build --release -q -p gravity4 -p gravity4-judge)
fi
# A private copy, so that its path finds the judge's hosts of it in /proc.
cp -- "$lib" "$out/libgravity4.so"
lib="$out/libgravity4.so"
g++ -std=c++17 -O2 -Wall -Wextra -pthread -o "$out/long-life" "$repo/scripts/long-life.cpp" -ldl

failed=0
"$out/long-life" "$lib" "$calls" "$threads" "$per_thread" "$seed" >"$out/host.out" 2>&1 &
host=$!

# The judge: a self-play match, one kept host per side; about 54 moves a game at 1 ms
# (measured), so CALLS/108 boards played both ways (the calls made are counted from the log).
pairs=$(((calls + 107) / 108))
"$judge" match "$lib" "$lib" --pairs "$pairs" --seed "$seed" --reuse-process --concurrency 1 \
    --quiet --out "$out/match" >"$out/match.out" 2>&1 &
match=$!
: >"$out/host-pids"
while kill -0 "$match" 2>/dev/null; do
    for cmd in $(grep -lsF -- "$lib" /proc/[0-9]*/cmdline); do
        if [[ "$(tr '\0' ' ' 2>/dev/null <"$cmd")" == "judge host "* ]]; then
            pid="${cmd#/proc/}"
            echo "${pid%/cmdline}" >>"$out/host-pids"
        fi
    done
    sleep 1
done
wait "$match" || {
    echo "long-life: FAIL: the judge exited with an error:" >&2
    tail -5 "$out/match.out" >&2
    failed=1
}
wait "$host" || failed=1
cat "$out/host.out"

python3 - "$out" <<'EOF' || failed=1
import collections, json, os, sys

out = sys.argv[1]
games = [json.loads(l) for l in open(os.path.join(out, "match", "games.jsonl"))]
calls = sum(len(g["moves"]) for g in games)
verdicts = collections.Counter(g["termination"] for g in games if g["termination"] not in ("four", "full"))
pids = sorted(set(open(os.path.join(out, "host-pids")).read().split()))
ok = not verdicts
for side in (0, 1):
    peaks = [g["peak_rss_kb"][side] for g in games if g["peak_rss_kb"][side]]
    third = max(1, len(peaks) // 3)
    head, tail = max(peaks[:third]), max(peaks[-third:])
    flat = tail <= 1.25 * head + 4096
    ok &= flat
    print(f"  side {side}: host peak RSS (VmHWM) after its first game {peaks[0] / 1024:.1f} MiB, "
          f"after game {third} {peaks[third - 1] / 1024:.1f}, after its last {peaks[-1] / 1024:.1f} "
          f"({'flat' if flat else 'GROWING'})")
ms = [t for g in games for t in g["move_ms"]]
print(f"long-life: judge --reuse-process: {len(games)} games, {calls} getPoint calls, "
      f"verdicts {dict(verdicts) or 'none'}, host processes seen {len(pids)} (2 sides), "
      f"move time mean {sum(ms) / len(ms):.2f} ms, worst {max(ms):.1f} ms")
ok &= len(pids) <= 2
sys.exit(0 if ok else 1)
EOF
if ((failed)); then
    echo "long-life: FAILED ($out)" >&2
    exit 1
fi
echo "long-life: passed ($out)"
