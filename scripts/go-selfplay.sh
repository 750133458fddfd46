#!/usr/bin/env bash
# Training records for the Go engine's move model (issue 49): GNU Go self-play from the
# judge's varied openings, sharded over GNU parallel as the judge's shards are, resumable,
# at low priority. GNU Go is nearly deterministic, so games from the empty board repeat:
# every board starts from the judge's opening (2 or 4 stones off the edge, drawn from the
# board seed) and the two sides run with different `--seed`s; a game whose moves another
# game already played is kept once.
#
#   scripts/go-selfplay.sh                       9x9, 2000 games, into data/go-selfplay/9x9
#   SIZE=13 GAMES=300 scripts/go-selfplay.sh     13x13, 300 games
#   GAMES=8 SHARDS=2 LEVEL=1 OUT=/tmp/gs scripts/go-selfplay.sh    a quick look
#
# Settings (environment): SIZE (9), GAMES (2000: games played, GAMES/2 boards with colours
# swapped; fewer are unique), LEVEL (10), KOMI (7), SHARDS (8: parts of the schedule, each
# a run directory OUT/shard-I), JOBS (2: shards at once, one game each), SEED (49: the
# schedule's; the same SEED gives the same openings), OUT (data/go-selfplay/SIZExSIZE),
# JUDGE (target/release/judge, built when missing), GNUGO (/usr/games/gnugo).
#
# Run it again with the same settings to go on after a stop: a shard with a run.json is
# resumed (`judge --resume`: only its missing games are played). At the end every shard's
# SGF files are gathered, one per distinct game, into OUT/records/ (named by the SHA-256 of
# the game's moves, so gathering twice adds nothing), the directory the trainer reads, and a
# line says how many games, how many distinct, and the CPU time. Exit status: 0 when every
# shard finished.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

SIZE=${SIZE:-9}
GAMES=${GAMES:-2000}
LEVEL=${LEVEL:-10}
KOMI=${KOMI:-7}
SHARDS=${SHARDS:-8}
JOBS=${JOBS:-2}
SEED=${SEED:-49}
OUT=${OUT:-data/go-selfplay/${SIZE}x${SIZE}}
JUDGE=${JUDGE:-target/release/judge}
GNUGO=${GNUGO:-/usr/games/gnugo}

die() { echo "go-selfplay: $*" >&2; exit 2; }

[ -x "$GNUGO" ] || die "GNU Go not found at $GNUGO (apt-get install -y gnugo, or GNUGO=...)"
command -v parallel >/dev/null || die "GNU parallel not found (apt-get install -y parallel)"
[[ "$GAMES" =~ ^[1-9][0-9]*$ && "$SHARDS" =~ ^[1-9][0-9]*$ ]] || die "GAMES and SHARDS are positive integers"
if [ ! -x "$JUDGE" ]; then
    echo "go-selfplay: building $JUDGE" >&2
    cargo build --release -p gravity4-judge
fi

PAIRS=$(((GAMES + 1) / 2))
# Chinese (area) scoring, dead stones captured before passing, the judge's superko; the
# two sides' own generators seeded apart so that a board's two games may differ.
RULES="--mode gtp --level $LEVEL --chinese-rules --capture-all-dead --positional-superko"
BLACK="gtp:$GNUGO $RULES --seed 1"
WHITE="gtp:$GNUGO $RULES --seed 2"
mkdir -p "$OUT"

# One shard: resumed when its run directory has a run.json, else started.
play_shard() {
    local i=$1 dir="$OUT/shard-$1" where
    if [ -f "$dir/run.json" ]; then where=(--resume "$dir"); else where=(--out "$dir"); fi
    "$JUDGE" match --game go --size "$SIZE" --komi "$KOMI" "$BLACK" "$WHITE" \
        --pairs "$PAIRS" --seed "$SEED" --shard "$i/$SHARDS" --concurrency 1 \
        --move-limit-ms 60000 "${where[@]}" -q > "$OUT/shard-$i.out" 2>&1
}
export -f play_shard
export OUT SIZE KOMI BLACK WHITE PAIRS SEED SHARDS JUDGE

start=$(date +%s)
status=0
# Low priority: a background batch that takes only what the machine leaves.
seq "$SHARDS" | nice -n 19 parallel -j "$JOBS" --halt never play_shard {} || status=$?

mkdir -p "$OUT/records"
played=0
for sgf in "$OUT"/shard-*/sgf/*.sgf; do
    [ -f "$sgf" ] || continue
    played=$((played + 1))
    # The moves after the root node: a game is its moves, whatever the players' names.
    key=$(sed -n '2,$p' "$sgf" | tr -d '\n' | sha256sum | cut -c1-16)
    [ -f "$OUT/records/$key.sgf" ] || cp "$sgf" "$OUT/records/$key.sgf"
done
distinct=$(find "$OUT/records" -name '*.sgf' | wc -l)
echo "go-selfplay: ${SIZE}x${SIZE}, GNU Go level $LEVEL: $played games played, $distinct distinct in $OUT/records ($(( $(date +%s) - start )) s this run; shards' output in $OUT/shard-*.out)"
[ "$status" = 0 ] || echo "go-selfplay: $status shard(s) did not finish; run the same command again to resume" >&2
exit "$status"
