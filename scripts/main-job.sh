#!/usr/bin/env bash
# The main job: build the library, the judge and the ladder of numbered opponents, then play
# libgravity4.so against every rung and print the results table (W/D/L, the course's 2/1/0
# points, Elo with its 95% margin per opponent).
#
# Defaults keep it to about five minutes on 2 cores: 100 ms per move for our library
# (GRAVITY4_MOVE_MS; the UCT rungs scale with it) and 2 boards per rung, each played twice
# with colours swapped. Environment overrides:
#   GRAVITY4_MOVE_MS  per-move budget in ms (course default 2000)
#   PAIRS             boards per rung (default 2)
#   SEED              board seed (default 1)
#   LADDER            directory of numbered opponents (default target/ladder, built here);
#                     point it at the course's own 2.so ... 100.so to play those instead
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo build --release -p gravity4 -p gravity4-judge
ladder=${LADDER:-target/ladder}
if [[ -z "${LADDER:-}" ]]; then
    scripts/build-ladder.sh "$ladder"
fi

export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-100}
pairs=${PAIRS:-2}
target/release/judge gauntlet target/release/libgravity4.so --vs "$ladder" \
    --pairs "$pairs" --seed "${SEED:-1}"

cat <<MSG

Played at GRAVITY4_MOVE_MS=$GRAVITY4_MOVE_MS with $pairs boards per rung. At the course's full
time limit (2000 ms per move; the judge allows 3000) and more boards:
    GRAVITY4_MOVE_MS=2000 PAIRS=10 scripts/main-job.sh
MSG
