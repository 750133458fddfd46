#!/usr/bin/env bash
# A/B self-play of the Go engine through the judge (issue 49's measurement plan): this
# build's go-engine with settings A against this build with settings B, or against the
# engine of an older commit, built into the ignored target/at/COMMIT; paired openings,
# colours swapped, the judge's SPRT (or a fixed number of pairs), resumable.
#
#   scripts/go-ab.sh NAME A B
#       A, B: GO_* settings as KEY=VALUE,KEY=VALUE ("-" for none); B may be at:COMMIT[/SETTINGS]
#   scripts/go-ab.sh model-vs-hand GO_MODEL=shipped GO_MODEL=none        keep/drop, 9x9, 200 ms
#   MOVE_MS=1000 PAIRS=100 SPRT=none scripts/go-ab.sh vs-fe552d9 - at:fe552d9    the yardstick
#
# Settings (environment): SIZE (9), KOMI (7), MOVE_MS (200: each side's budget a move),
# PAIRS (200: boards, each played twice), SEED (49), SPRT ("elo0=0 elo1=30 alpha=0.05
# beta=0.05"; "none" plays every pair), CONCURRENCY (1), OUT (runs/go-ab/NAME),
# MOVE_LIMIT_MS (the judge's limit a move: 10 times MOVE_MS, at least 6000), MAIN_TIME
# (unset: none; seconds of absolute time on each side's game clock, which the engines
# then share out themselves: the judge sends time_settings and MOVE_MS is only their
# fallback).
# Both engines are copied into the run directory first, and their SHA-256 written to
# OUT/engines.txt, so a rebuild during the run changes nothing. Run it again with the same
# settings to resume (the judge's --resume). Exit status: the judge's.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

die() { echo "go-ab: $*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: scripts/go-ab.sh NAME A B (see the top of the script)"
NAME=$1 A=$2 B=$3
SIZE=${SIZE:-9}
KOMI=${KOMI:-7}
MOVE_MS=${MOVE_MS:-200}
PAIRS=${PAIRS:-200}
SEED=${SEED:-49}
SPRT=${SPRT:-elo0=0 elo1=30 alpha=0.05 beta=0.05}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-runs/go-ab/$NAME}
LIMIT=$((MOVE_MS * 10 > 6000 ? MOVE_MS * 10 : 6000))
MOVE_LIMIT_MS=${MOVE_LIMIT_MS:-$LIMIT}
JUDGE=target/release/judge

# The go-engine of commit $1, built once into target/at/$1 (a detached worktree).
engine_at() {
    local commit=$1 dir=target/at/$1
    if [ ! -x "$dir/target/release/go-engine" ]; then
        [ -d "$dir" ] || git worktree add --detach -f "$dir" "$commit" >&2
        (cd "$dir" && cargo build --release -q -p go-engine) >&2
    fi
    echo "$dir/target/release/go-engine"
}

# The player of a side: its engine copied to OUT/$2 and the judge's gtp: form with its
# settings ("-" none).
player() {
    local spec=$1 name=$2 engine=target/release/go-engine settings=$1
    if [[ "$spec" == at:* ]]; then
        local rest=${spec#at:}
        engine=$(engine_at "${rest%%/*}")
        settings=-
        [[ "$rest" == */* ]] && settings=${rest#*/}
    fi
    [ -f "$OUT/$name" ] || cp "$engine" "$OUT/$name"
    local env=""
    [ "$settings" != "-" ] && env="@$settings"
    echo "gtp:$ROOT/$OUT/$name gtp --move-ms $MOVE_MS$env"
}

cargo build --release -q -p gravity4-judge -p go-engine
mkdir -p "$OUT"
PA=$(player "$A" engine-a)
PB=$(player "$B" engine-b)
(cd "$OUT" && sha256sum engine-a engine-b) > "$OUT/engines.txt"
echo "go-ab: $NAME: A = $PA, B = $PB ($(git rev-parse --short HEAD); machine: $(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/notes.txt"

args=(--game go --size "$SIZE" --komi "$KOMI" --pairs "$PAIRS" --seed "$SEED"
    --concurrency "$CONCURRENCY" --move-limit-ms "$MOVE_LIMIT_MS")
[ -n "${MAIN_TIME:-}" ] && args+=(--main-time "$MAIN_TIME")
sprt=()
# shellcheck disable=SC2206 # the SPRT's words are separate arguments
[ "$SPRT" != none ] && sprt=(--sprt $SPRT)
if [ -f "$OUT/run/run.json" ]; then
    exec "$JUDGE" match "$PA" "$PB" "${args[@]}" --resume "$OUT/run" "${sprt[@]}"
fi
exec "$JUDGE" match "$PA" "$PB" "${args[@]}" --out "$OUT/run" "${sprt[@]}"
