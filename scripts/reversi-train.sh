#!/usr/bin/env bash
# Trains the Reversi engine's learned evaluation (issue 50): self-play games labelled by the
# exact solver, sharded over GNU parallel as the judge's shards are, resumable, at low
# priority; then the least-squares fit of the pattern tables, written as a weights file.
#
#   scripts/reversi-train.sh                          the shipped tables' run (seed 50)
#   GAMES=200 CHUNK=100 OUT=/tmp/rt scripts/reversi-train.sh    a quick look
#   STEP=fit scripts/reversi-train.sh                 refit from the data already made
#
# Settings (environment): GAMES (50000), START (0: the first game's number; a second
# machine or session can take START=N GAMES=M while the first plays 0..N), CHUNK (1000 games a shard), JOBS (2 shards at once),
# SEED (50), DEPTH (2: the policy's search plies), EXACT (16: the solver plays and labels
# from this many empties), RULE (standard), OUT (/var/tmp/reversi-train/RULE: data and
# logs, never in the repository), STEP (all, gen or fit), REVERSI (target/release/reversi,
# built when missing; copied into OUT so that a rebuild does not change a running shard),
# PRIORITY (low: scripts/low-priority.sh, which yields to everything, even other
# low-priority work; nice: `nice -n 10` in the caller's session, a fair share beside other
# sessions; the shipped run used nice with JOBS=1 on a machine loaded by 4 developers, where
# low priority made 8 KB of data in 4 minutes).
#
# A shard writes OUT/data/games-FIRST.bin.part and renames it when done, so running the
# same command again plays only the missing shards. The fit writes OUT/weights.bin (copy it
# to reversi/weights/RULE.bin to ship it), OUT/holdout.txt (held-back positions for the
# test) and prints the validation error, the data size and the time.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

GAMES=${GAMES:-50000}
START=${START:-0}
CHUNK=${CHUNK:-1000}
JOBS=${JOBS:-2}
SEED=${SEED:-50}
DEPTH=${DEPTH:-2}
EXACT=${EXACT:-16}
RULE=${RULE:-standard}
OUT=${OUT:-/var/tmp/reversi-train/$RULE}
STEP=${STEP:-all}
PRIORITY=${PRIORITY:-low}
REVERSI=${REVERSI:-target/release/reversi}

die() { echo "reversi-train: $*" >&2; exit 2; }

command -v parallel >/dev/null || die "GNU parallel not found (apt-get install -y parallel)"
[[ "$GAMES" =~ ^[1-9][0-9]*$ && "$CHUNK" =~ ^[1-9][0-9]*$ && "$START" =~ ^[0-9]+$ ]] ||
    die "GAMES and CHUNK are positive integers, START an integer"
if [ ! -x "$REVERSI" ]; then
    echo "reversi-train: building $REVERSI" >&2
    nice -n 10 cargo build --release -p reversi
fi
mkdir -p "$OUT/data"
case "$PRIORITY" in
    low) RUN=(scripts/low-priority.sh) ;;
    nice) RUN=(nice -n 10) ;;
    *) die "PRIORITY is low or nice" ;;
esac
BIN="$OUT/reversi"
[ "$STEP" = fit ] || [ "$REVERSI" -ef "$BIN" ] || cp "$REVERSI" "$BIN"
export BIN OUT SEED DEPTH EXACT RULE CHUNK

# One shard: games FIRST..FIRST+CHUNK, skipped when its file is complete.
gen_shard() {
    local first=$1 file="$OUT/data/games-$1.bin"
    [ -f "$file" ] && return 0
    "$BIN" train gen --rule "$RULE" --seed "$SEED" --first-game "$first" --games "$CHUNK" \
        --depth "$DEPTH" --exact-empties "$EXACT" --out "$file.part" >> "$OUT/gen.log" 2>&1
    mv "$file.part" "$file"
}
export -f gen_shard

start=$(date +%s)
if [ "$STEP" != fit ]; then
    seq "$START" "$CHUNK" $((START + GAMES - 1)) |
        "${RUN[@]}" parallel -j "$JOBS" --halt never gen_shard {}
    echo "reversi-train: games made in $(( $(date +%s) - start )) s (log: $OUT/gen.log)"
fi
if [ "$STEP" != gen ]; then
    "${RUN[@]}" "$REVERSI" train fit --seed "$SEED" --exact-empties "$EXACT" --out "$OUT/weights.bin" \
        --holdout "$OUT/holdout.txt" "$OUT"/data/games-*.bin | tee "$OUT/fit.log"
fi
