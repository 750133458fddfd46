#!/usr/bin/env bash
# The rules check of issue 37: a Go engine against GNU Go levels 1-10 on 9x9 through the
# judge (`judge gauntlet --game go`, every game kept as DIR/sgf/ID.sgf), then a summary:
# the verdicts (an illegal move, or a `play` refused: each side must accept every move of
# the other) and, for every game ended by two passes, the judge's Tromp-Taylor score
# against GNU Go's `final_score` (Chinese rules) on the judge's own SGF of the game, every
# mismatch listed. Every SGF must load into GNU Go and into our engine (`loadsgf`).
#
#   scripts/go-vs-gnugo.sh                          ours at --move-ms 1000 against GNU Go
#                                                   levels 1..10, 10 pairs each: 200 games
#   PAIRS=1 LEVELS="1 2" scripts/go-vs-gnugo.sh     a quick look: 4 games
#   ENGINE="gtp:/usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead --positional-superko" \
#       scripts/go-vs-gnugo.sh                      GNU Go against GNU Go, the same checks
#   scripts/go-vs-gnugo.sh --check DIR              only the summary, of a run already played
#
# Settings (environment): ENGINE (default "gtp:target/release/go-engine gtp --move-ms
# $MOVE_MS"), MOVE_MS (1000), LEVELS ("1 2 3 4 5 6 7 8 9 10"), PAIRS (boards per level, 10;
# each played twice, colours swapped), SEED (37), SIZE (9), KOMI (7.5), MOVE_LIMIT_MS (30000:
# GNU Go plays by level, not by clock, and its level 10 may think for seconds), CONCURRENCY
# (1: a strength reading wants the machine to itself; the rules check does not care), OUT
# (runs/go-vs-gnugo-SEED; a run directory that holds games already is resumed), JUDGE
# (target/release/judge), GNUGO (/usr/games/gnugo), GO_ENGINE (target/release/go-engine:
# the binary the SGF files are loaded into; the check says so when it is missing). Exit
# status 0 when there was no illegal or refused move, every SGF loaded and at least 98 % of
# the scored games agree, else 1.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

GNUGO=${GNUGO:-/usr/games/gnugo}
GO_ENGINE=${GO_ENGINE:-target/release/go-engine}
JUDGE=${JUDGE:-target/release/judge}
MOVE_MS=${MOVE_MS:-1000}
ENGINE=${ENGINE:-"gtp:target/release/go-engine gtp --move-ms $MOVE_MS"}
LEVELS=${LEVELS:-"1 2 3 4 5 6 7 8 9 10"}
PAIRS=${PAIRS:-10}
SEED=${SEED:-37}
SIZE=${SIZE:-9}
KOMI=${KOMI:-7.5}
MOVE_LIMIT_MS=${MOVE_LIMIT_MS:-30000}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-runs/go-vs-gnugo-$SEED}
# The players' rules: Chinese (area) scoring, dead stones captured before passing (the
# judge removes none), the same superko as the judge's.
GNUGO_RULES="--chinese-rules --capture-all-dead --positional-superko"

die() { echo "go-vs-gnugo: $*" >&2; exit 2; }

[ -x "$GNUGO" ] || die "GNU Go not found at $GNUGO (apt-get install -y gnugo, or GNUGO=...)"

check() {
    local dir=$1
    [ -f "$dir/games.jsonl" ] || die "$dir/games.jsonl: no games to check"
    python3 - "$dir" "$GNUGO" "$GNUGO_RULES" "$GO_ENGINE" <<'PY'
import json, os, subprocess, sys
from collections import Counter

dir, gnugo, rules, engine = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
# Everything the check says goes to the terminal and to score-check.txt, so that the run's
# directory keeps the whole verdict beside its log.
report = []
def say(line):
    print(line)
    report.append(line)

games = [json.loads(l) for l in open(os.path.join(dir, "games.jsonl")) if l.strip()]
by = Counter(g["termination"] for g in games)
say(f"games: {len(games)} ({', '.join(f'{t} {n}' for t, n in sorted(by.items()))})")

# Verdicts: an illegal move, a refused `play` (the engine would not accept its opponent's
# legal move), anything else that is not the rules' end.
illegal = [g for g in games if g["termination"] == "illegal"]
refused = [g for g in games if "refused the opponent's legal move" in (g.get("detail") or "")]
other = [g for g in games
         if g["termination"] not in ("score", "resign", "illegal") and g not in refused]
def who(g):
    return g["first"] if g.get("loser") == "first" else g["second"]
for title, group in (("illegal moves", illegal), ("refused moves", refused), ("other verdicts", other)):
    say(f"{title}: {len(group)}")
    for g in group:
        say(f"  {g['id']}: {who(g)} lost by {g['termination']}: {g.get('detail', '')}")

def margin(result):
    """Black's margin of a result: the judge writes `B+2`, `W+0.5` and `Draw`, GNU Go
    `B+2.0` with an integer komi and 0 for a draw; None for anything else."""
    if result in ("0", "Draw"):
        return 0.0
    side, plus, points = result.partition("+")
    try:
        value = float(points)
    except ValueError:
        return None
    if not plus or side not in ("B", "W"):
        return None
    return value if side == "B" else -value

# GNU Go scores each game the judge scored (two passes), from the judge's SGF; every SGF,
# resigned games' too, must load.
files = [(g, os.path.join(dir, "sgf", g["id"] + ".sgf")) for g in games]
missing = [g["id"] for g, f in files if not os.path.isfile(f)]
script = "".join(f"loadsgf {os.path.abspath(f)}\nfinal_score\n" for g, f in files if os.path.isfile(f))
out = subprocess.run([gnugo, "--mode", "gtp", *rules], input=script + "quit\n",
                     capture_output=True, text=True, check=True).stdout
answers = [a.strip() for a in out.split("\n\n") if a.strip()]
present = [(g, f) for g, f in files if os.path.isfile(f)]
refused_sgf, scored, agree, mismatches = [], 0, 0, []
for k, (g, f) in enumerate(present):
    loaded, score = answers[2 * k], answers[2 * k + 1]
    if not loaded.startswith("="):
        refused_sgf.append(f"{g['id']}: {loaded}")
        continue
    if g["termination"] != "score":
        continue
    scored += 1
    theirs = score.lstrip("= ").strip()
    ours = g.get("detail") or ""
    if margin(theirs) is not None and margin(theirs) == margin(ours):
        agree += 1
    else:
        mismatches.append(f"{g['id']}: judge {ours}, GNU Go final_score {theirs} ({f})")
say(f"SGF: {len(present) - len(refused_sgf)} of {len(games)} loaded by GNU Go"
      + (f"; missing: {', '.join(missing)}" if missing else ""))
for r in refused_sgf:
    say(f"  loadsgf refused {r}")
# Our engine loads every file too (its answer to loadsgf is the side to move).
if os.access(engine, os.X_OK):
    script = "".join(f"loadsgf {os.path.abspath(f)}\n" for g, f in present)
    out = subprocess.run([engine, "gtp"], input=script + "quit\n",
                         capture_output=True, text=True).stdout
    # One answer a file, then quit's; a missing answer (the engine died) is a refusal.
    ours = [a.strip() for a in out.split("\n\n") if a.strip()][:len(present)]
    ours += ["(no answer)"] * (len(present) - len(ours))
    for (g, f), answer in zip(present, ours):
        if not answer.startswith("="):
            refused_sgf.append(f"{g['id']} (go-engine): {answer}")
            say(f"  go-engine loadsgf refused {g['id']}: {answer}")
    say(f"SGF: {sum(a.startswith('=') for a in ours)} of {len(games)} loaded by {engine}")
else:
    say(f"SGF: not loaded into our engine ({engine} not found)")
share = 100.0 * agree / scored if scored else 100.0
say(f"score check: {agree} of {scored} games ended by two passes agree ({share:.1f} %)")
for m in mismatches:
    say(f"  mismatch {m}")
with open(os.path.join(dir, "score-check.txt"), "w") as f:
    f.writelines(line + "\n" for line in report)
print(f"written to {os.path.join(dir, 'score-check.txt')}")
ok = not illegal and not refused and not missing and not refused_sgf and share >= 98.0
sys.exit(0 if ok else 1)
PY
}

if [ "${1:-}" = "--check" ]; then
    [ $# -eq 2 ] || die "usage: scripts/go-vs-gnugo.sh --check DIR"
    check "$2"
    exit
fi
[ $# -eq 0 ] || die "unknown arguments: $* (settings are environment variables; see the top of the script)"

[ -x "$JUDGE" ] || die "$JUDGE not found: cargo build --release -p gravity4-judge (or JUDGE=...)"
case "$ENGINE" in
    gtp:target/release/go-engine*)
        [ -x target/release/go-engine ] || die "target/release/go-engine not found: cargo build --release -p go-engine" ;;
esac

# One opponent per level, named by its level (an environment variable GNU Go ignores).
opponents=()
for level in $LEVELS; do
    opponents+=("gtp:$GNUGO --mode gtp --level $level $GNUGO_RULES@GNUGO_LEVEL=$level")
done
if [ -f "$OUT/games.jsonl" ]; then
    where=(--resume "$OUT")
else
    where=(--out "$OUT")
fi
echo "go-vs-gnugo: $ENGINE against GNU Go levels $LEVELS, $PAIRS pairs each, ${SIZE}x$SIZE komi $KOMI, seed $SEED, into $OUT" >&2
"$JUDGE" gauntlet "$ENGINE" --vs "${opponents[@]}" --game go --size "$SIZE" --komi "$KOMI" \
    --pairs "$PAIRS" --seed "$SEED" --move-limit-ms "$MOVE_LIMIT_MS" \
    --concurrency "$CONCURRENCY" "${where[@]}"
echo
check "$OUT"
