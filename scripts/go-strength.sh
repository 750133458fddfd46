#!/usr/bin/env bash
# The strength benchmark of issue 37: go-engine at 5 s a move against GNU Go 3.8 level 10
# (`gnugo --mode gtp --level 10 --chinese-rules --capture-all-dead --positional-superko`) on
# a SIZE x SIZE board, komi 7, colours swapped on every opening (pairs), through the judge
# (scripts/go-vs-gnugo.sh, which also checks the rules: no illegal or refused move, the
# judge's score against GNU Go's final_score). Then the score, a draw counting one half,
# and the Elo difference with its 95 % interval, from the run's summary.json.
#
#   scripts/go-strength.sh 9        100 games on 9x9 into runs/go-strength-9
#   scripts/go-strength.sh 13       20 games on 13x13 into runs/go-strength-13 (19: the same)
#   GAMES=2 MOVE_MS=200 OUT=/tmp/gs scripts/go-strength.sh 9     a quick try of the command
#
# The same command on a run directory that holds games resumes it (the judge's --resume:
# refused if target/release/go-engine or GNU Go changed since the run started). GNU Go plays
# by level, not by clock: run it with nothing else on the machine, or the load is a handicap
# for our engine only (scripts/high-priority.sh gives the match the CPU first).
#
# Settings (environment): GAMES (100 on 9x9, 20 on 13x13 and 19x19; an odd number is rounded
# up to whole pairs), MOVE_MS (5000), OUT (runs/go-strength-SIZE), MOVE_LIMIT_MS (the judge's
# limit a move: 30000 on 9x9, 60000 on the larger boards, where GNU Go level 10 thinks
# longer); ENGINE, JUDGE and GNUGO as scripts/go-vs-gnugo.sh reads them. On 9x9 the call is
# exactly the one the first 9x9 match was started with,
#   MOVE_MS=5000 LEVELS=10 PAIRS=50 KOMI=7 SEED=37 OUT=runs/go-strength-9 scripts/go-vs-gnugo.sh
# so that run resumes under this command. Exit status: go-vs-gnugo.sh's (1 when the rules
# check found a fault), 2 for a usage error.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

die() { echo "go-strength: $*" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: scripts/go-strength.sh 9|13|19 (settings are environment variables; see the top of the script)"
SIZE=$1
case "$SIZE" in
    9) default_games=100 default_limit=30000 ;;
    13 | 19) default_games=20 default_limit=60000 ;;
    *) die "board size $SIZE: 9, 13 or 19" ;;
esac
GAMES=${GAMES:-$default_games}
[[ "$GAMES" =~ ^[1-9][0-9]*$ ]] || die "GAMES=$GAMES: a positive number of games"
PAIRS=$(((GAMES + 1) / 2))
MOVE_MS=${MOVE_MS:-5000}
OUT=${OUT:-runs/go-strength-$SIZE}
MOVE_LIMIT_MS=${MOVE_LIMIT_MS:-$default_limit}
JUDGE=${JUDGE:-target/release/judge}

echo "go-strength: ${SIZE}x$SIZE, komi 7, $((2 * PAIRS)) games, ours at $MOVE_MS ms a move against GNU Go level 10, into $OUT" >&2
status=0
MOVE_MS=$MOVE_MS LEVELS=10 PAIRS=$PAIRS KOMI=7 SEED=37 SIZE=$SIZE OUT=$OUT \
    MOVE_LIMIT_MS=$MOVE_LIMIT_MS JUDGE=$JUDGE scripts/go-vs-gnugo.sh || status=$?
[ -f "$OUT/games.jsonl" ] || exit "$status"

# The table of the run's whole pairs, and summary.json written afresh from them.
echo
"$JUDGE" report "$OUT" > /dev/null
python3 - "$OUT" <<'PY'
import json, os, sys

out = sys.argv[1]
summary = json.load(open(os.path.join(out, "summary.json")))
# The gauntlet's first player is ours; its row counts all its games against GNU Go.
first = json.load(open(os.path.join(out, "run.json")))["names"][0]
ours = next(p for p in summary["players"] if p["name"] == first)
w, d, l = ours["wins"], ours["draws"], ours["losses"]
n = w + d + l
score = (w + d / 2) / n if n else 0.0
# The judge writes null for an infinite Elo (a score of 0 or 100 %) or margin.
elo = ours.get("elo") or {}
if elo.get("elo") is None:
    elo_text = "Elo unbounded (a score of 0 or 100 %)"
elif elo.get("margin95") is None:
    elo_text = f"Elo {elo['elo']:+.0f} ± unbounded (95 %)"
else:
    elo_text = f"Elo {elo['elo']:+.0f} ± {elo['margin95']:.0f} (95 %)"
print(f"go-strength: {ours['name']} against GNU Go level 10: {w} won, {d} drawn, {l} lost "
      f"of {n}; score {100 * score:.1f} % (a draw one half); {elo_text}")
PY
exit "$status"
