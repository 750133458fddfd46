#!/usr/bin/env bash
# Reproduces the measurements in STRENGTH.md with the judge.
#
#   scripts/strength.sh chain   each technique against the configuration before it
#                               (paired boards, GRAVITY4_MOVE_MS=50, SPRT elo0=0 elo1=30,
#                               at most 200 boards = 400 games)
#   scripts/strength.sh tune    the exploration constant at GRAVITY4_MOVE_MS=200 (steps 5
#                               and 6), same SPRT
#   scripts/strength.sh late    the playout rule and the endgame solver at GRAVITY4_MOVE_MS=100
#                               (keep-threats, the threat-ordered solver up to 40 empties),
#                               same SPRT, seeds 31 and 37 as STRENGTH.md reports
#   scripts/strength.sh sequences  threat sequences (forced chains of threats proven at
#                               expansion) at GRAVITY4_MOVE_MS=100, same SPRT, seed 41
#   scripts/strength.sh early-stop  the default (whole budget unless the root is decided)
#                               vs the "cannot be overtaken" early stop, at
#                               GRAVITY4_MOVE_MS=100, same SPRT, seed 47
#   scripts/strength.sh endgame-reach  the solver tried earlier the longer the move (44
#                               empties at 200 ms, 57 at 2 s), its table kept between
#                               moves, vs commit 5b794f6 (40 empties, a table per move),
#                               at GRAVITY4_MOVE_MS=200, same SPRT, seed 59
#   scripts/strength.sh forced  a forced move (one candidate) searching its whole budget
#                               vs commit 79736f9 (played at once), at GRAVITY4_MOVE_MS=200,
#                               same SPRT, seed 71
#   scripts/strength.sh lgr     last good replies with forgetting in the playouts (the
#                               default since step 22b) vs without them
#                               (GRAVITY4_DISABLE=last-good-reply), this build on both
#                               sides, at GRAVITY4_MOVE_MS=200, same SPRT, seed 3501
#   scripts/strength.sh ppa     playout policy adaptation on top of last good replies
#                               (GRAVITY4_ENABLE=policy-adaptation) vs the replies alone,
#                               at GRAVITY4_MOVE_MS=200, same SPRT, seed 3506
#   scripts/strength.sh ppa-rate  the default with policy adaptation's step
#                               GRAVITY4_PPA_RATE=$PPA_RATE (default 0.64) vs the default
#                               (0.32), at GRAVITY4_MOVE_MS=200, same SPRT, seed 3601
#   scripts/strength.sh exploration  the default with GRAVITY4_EXPLORATION=$EXPLORATION
#                               (default 0.35) vs the default (0.5), at GRAVITY4_MOVE_MS=200,
#                               same SPRT, seed 3602
#   scripts/strength.sh value-model  issue 51: the learned evaluation as a prior of new
#                               nodes (GRAVITY4_ENABLE=value-model, GRAVITY4_MODEL_PRIOR=$PRIOR,
#                               default 4, GRAVITY4_MODEL_DEPTH=$DEPTH, default 144: every
#                               node) vs the default, this build on both sides, at
#                               GRAVITY4_MOVE_MS=200, same SPRT, seed 5101
#   scripts/strength.sh ab      this build with SWITCHES (TAG names the run) vs SWITCHES_B
#                               (default: the default) at GRAVITY4_MOVE_MS=200, the SPRT of
#                               step 22, seed HINT_SEED (3700): a hint; steps 26, 27 and 29
#                               are AT=e00eaf7 SWITCHES=GRAVITY4_ENABLE=keep-learned
#                               (ppa-loser, ppa-follow-ups) with HINT_SEED=3604 (3605, 3609),
#                               the default without last good replies
#                               GRAVITY4_DISABLE=last-good-reply with 3608
#   scripts/strength.sh ab-2s   this build with SWITCHES (GRAVITY4_DISABLE=reuse, say;
#                               TAG names the run) vs this build's default at 2000 ms,
#                               FULL_PAIRS boards (50), seed FULL_SEED (2210), one game at a
#                               time; RESUME=1 continues on the same copy, SHARD=I/N plays
#                               part I of N: a hint's confirmation at length
#   scripts/strength.sh ppa-pairs  the default (with policy adaptation's pair weights since
#                               step 28) vs GRAVITY4_DISABLE=ppa-pairs, at
#                               GRAVITY4_MOVE_MS=200, same SPRT, seed 3606
#   scripts/strength.sh ppa-2s  the same pair at 2000 ms (step 22g at length), FULL_PAIRS
#                               boards (60), seed 2207, one game at a time; RESUME=1 continues
#   scripts/strength.sh vs-d600866  this build (SWITCHES=GRAVITY4_DISABLE=reuse, say; TAG
#                               names the run) vs d600866's default at 2000 ms, 100 boards,
#                               seed FULL_SEED (2201), one game at a time; RESUME=1 continues the run
#                               on its own copy of the library, SHARD=I/N plays part I of N
#   scripts/strength.sh vs-488d092  issue 39: this build's default vs 488d092's, the same
#                               search with fewer instructions (tests/exactness.rs), at
#                               GRAVITY4_MOVE_MS (1000; run it again at 2000), FULL_PAIRS
#                               boards (100 at 1000 ms, 50 at 2000: 200 and 100 games), seed
#                               FULL_SEED (3901), one game at a time on a quiet machine;
#                               RESUME=1 continues, SHARD=I/N plays part I of N
#   scripts/strength.sh field   issue 17 against another program: d600866's default vs
#                               this build's default and each of CANDIDATES (player
#                               settings separated by ';'), a gauntlet on shared boards, at
#                               2000 ms, FULL_PAIRS boards (25), seed FULL_SEED (2206), TAG
#                               names the run; RESUME=1 continues, SHARD=I/N plays part of it
#   scripts/strength.sh ablation  the default vs itself with TECHNIQUE switched off
#                               (tactical-playouts, keep-threats, threat-sequences, reuse,
#                               endgame, last-good-reply, policy-adaptation or ppa-pairs) at
#                               2000 ms, 100 boards, a seed per technique (2601-2608), one game at a
#                               time; RESUME=1
#                               continues, SHARD=I/N plays part I of N (judge merge joins them)
#   scripts/strength.sh ablation-field  the ablation measured against another program: field
#                               with CANDIDATES the default with each of those eight switched
#                               off (run field-ablation-2000; FULL_PAIRS 25 boards, 450 games)
#   scripts/strength.sh ablation-table  the table of that run (or of RUN=DIR) as Markdown
#                               for STRENGTH.md, from its whole pairs so far
#                               (scripts/ablation-table.py)
#   scripts/strength.sh full    default vs classic at the full 2000 ms budget
#   scripts/strength.sh reversi  Reversi: default (strong) vs classic at 5000 ms, 50 paired
#                               openings, RULE=standard|no-adjacent, seed REVERSI_SEED
#                               (2111; the run directory names any other); RESUME=1
#   scripts/strength.sh reversi-rhino  Reversi: default (or PROFILE, e.g. alphabeta) vs
#                               gtp-rhino -l RHINO_LEVEL (4) with our budget REVERSI_MOVE_MS
#                               (1000), 10 pairs, seed 2121
#   scripts/strength.sh ladder  default vs every rung of target/ladder (run
#                               scripts/build-ladder.sh first) at GRAVITY4_MOVE_MS
#                               (default 2000); LADDER_RUNGS="10" plays only rung 10;
#                               RESUME=1 continues the run on its own library copy
#
# The commands of the experiments that left the library (reply sequences, progressive bias,
# the graph search, first-play urgency, two-move and exact replies, move averages, the
# policy prior, the transposition table) are in this script at the last commit that has
# each: commit e00eaf7 for those issue 36 removed, commit ded8363 for progressive bias.
# `ab`, `ab-2s` and `vs-d600866` play the library built at commit AT (under target/at/)
# when AT is set: AT=e00eaf7 SWITCHES=... for the pruned switches of steps 26-30.
#
# Runs land in runs/strength/<name>/ (games.jsonl, summary.json); the tables print as they
# finish. CONCURRENCY sets the games played at once (default: the number of cores); two
# commands can share a 2-core machine with CONCURRENCY=1 each.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo build --release -q -p gravity4 -p gravity4-judge
LIB=target/release/libgravity4.so
JUDGE=target/release/judge
OUT=runs/strength
SEED=${STRENGTH_SEED:-2026}
CONCURRENCY=(${CONCURRENCY:+--concurrency "$CONCURRENCY"})

# A/B match between two players (LIB.so[@KEY=VALUE,...]) with the SPRT of STRENGTH.md.
sprt_match() {
    local name=$1 a=$2 b=$3 pairs=${4:-200} seed=${5:-$SEED}
    rm -rf "$OUT/$name"
    "$JUDGE" match "$a" "$b" --pairs "$pairs" --seed "$seed" --out "$OUT/$name" -q \
        "${CONCURRENCY[@]}" --sprt elo0=0 elo1=30 alpha=0.05 beta=0.05
}

# A/B match between two configurations of the same library file.
ab() {
    sprt_match "$1" "$LIB@$2" "$LIB@$3" "${@:4}"
}

# Copies library $1 to $OUT/libs/$2.so and prints that path: the matches play copies, so
# a rebuild while they run changes neither side.
copy_of() {
    replace_file "$1" "$OUT/libs/$2.so" && echo "$OUT/libs/$2.so"
}

# Copies file $1 to $2 by a rename, never writing into $2 itself: a match still running on
# the old copy keeps its file (overwriting a library in place that a player has mapped
# crashed that player with SIGBUS once).
replace_file() {
    mkdir -p "$(dirname "$2")" && cp "$1" "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"
}

# This build's copy named $1 for the run in directory $2: when that run is resumed (RESUME=1
# and $2 exists) an existing copy is kept as it is (the run's log pins its SHA-256, so a
# resumed run must play the same file even after the code has changed); a new run copies
# this build, even over a copy of the same name left by another run. A run resumed on a
# machine that lacks it continues from its snapshot in docs/runs/ (what a session leaves;
# the judge refuses the resume if this build is not the file the run played).
run_copy() {
    local snapshot
    snapshot=docs/runs/$(basename "$2")
    if [ "${RESUME:-0}" = 1 ] && [ ! -d "$2" ] && [ -f "$snapshot/run.json" ]; then
        echo "resuming $2 from its snapshot $snapshot" >&2
        mkdir -p "$(dirname "$2")" && cp -r "$snapshot" "$2"
    fi
    if [ "${RESUME:-0}" = 1 ] && [ -d "$2" ] && [ -f "$OUT/libs/$1.so" ]; then
        echo "$OUT/libs/$1.so"
    else
        copy_of "$LIB" "$1"
    fi
}

# The run directory $1 as judge arguments, one a line: --resume when RESUME=1 and it exists,
# else a new run (--out, after removing any old one); SHARD=I/N adds --shard.
run_dir_args() {
    if [ "${RESUME:-0}" = 1 ] && [ -d "$1" ]; then printf '%s\n' --resume "$1"; else
        rm -rf "$1" && printf '%s\n' --out "$1"
    fi
    if [ -n "${SHARD:-}" ]; then printf '%s\n' --shard "$SHARD"; fi
}

# A long, resumable match in run directory $1 between players $2 and $3: $4 boards, seed $5,
# one game at a time unless CONCURRENCY says otherwise; RESUME=1 continues the run and
# SHARD=I/N plays part of it (see run_dir_args).
long_match() {
    local dir=$1 a=$2 b=$3 pairs=$4 seed=$5 where one
    mapfile -t where < <(run_dir_args "$dir")
    one=("${CONCURRENCY[@]}") && [ ${#one[@]} -gt 0 ] || one=(--concurrency 1)
    "$JUDGE" match "$a" "$b" --pairs "$pairs" --seed "$seed" -q "${one[@]}" "${where[@]}"
}

# A/B match between two configurations ($4, $5) of a copy of library $2 named $3.
ab_of_copy() {
    local name=$1 copy
    copy=$(copy_of "$2" "$3")
    sprt_match "$name" "$copy@$4" "$copy@$5" "${@:6}"
}

# The library as built at commit $1, in a worktree under target/at/ (for A/B runs against
# an earlier version); prints its path.
library_at() {
    local commit=$1 dir=target/at/$1
    if [ ! -f "$dir/target/release/libgravity4.so" ]; then
        rm -rf "$dir"
        git worktree add --detach -f "$dir" "$commit" >&2
        (cd "$dir" && cargo build --release -q -p gravity4) >&2
    fi
    echo "$dir/target/release/libgravity4.so"
}

# The commit whose library command $1 plays instead of this build's: AT for the commands
# that take it, "" for the others.
library_commit() {
    case $1 in
    ab | ab-2s | vs-d600866) echo "${AT:-}" ;;
    *) echo "" ;;
    esac
}

# A step 22 hint: configurations $2 and $3 of a copy of this build named after the
# command, at GRAVITY4_MOVE_MS (default 200), with the SPRT, seed $4; the run directory is
# $1-MS.
step_22_hint() {
    export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-200}
    ab_of_copy "$1-$GRAVITY4_MOVE_MS" "$LIB" "$COMMAND" "$2" "$3" 200 "$4"
}

# A/B match of this build (copied as $2.so) against the library of commit $3 (copied as
# $3.so), with the SPRT; $4 pairs, seed $5.
vs_commit() {
    local name=$1 ours base
    ours=$(copy_of "$LIB" "$2")
    base=$(copy_of "$(library_at "$3")" "$3")
    sprt_match "$name" "$ours" "$base" "$4" "$5"
}

# The techniques of issue 17's ablation, for both of its commands (ablation, ablation-field).
ABLATION_TECHNIQUES=(tactical-playouts keep-threats threat-sequences reuse endgame
    last-good-reply policy-adaptation ppa-pairs)

# Everything runs inside main, called on the script's last line: bash reads a script as it
# runs it, so a run of hours would otherwise go on reading this file after its match ends,
# at a stale offset if the file was edited meanwhile.
main() {
    COMMAND=${1:-chain}
    local at
    at=$(library_commit "$COMMAND")
    if [ -n "$at" ]; then
        LIB=$(library_at "$at")
        echo "strength.sh: $COMMAND plays the library of $at" >&2
    fi
    case "$COMMAND" in
    chain)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-50}
        ab 1-solver-vs-classic \
            "GRAVITY4_DISABLE=tactical-playouts,reuse,endgame" "GRAVITY4_PROFILE=classic"
        ab 2-tactical-playouts \
            "GRAVITY4_DISABLE=reuse,endgame" "GRAVITY4_DISABLE=tactical-playouts,reuse,endgame"
        ab 3-reuse "GRAVITY4_DISABLE=endgame" "GRAVITY4_DISABLE=reuse,endgame"
        ab 4-endgame "GRAVITY4_PROFILE=strong" "GRAVITY4_DISABLE=endgame"
        ;;
    tune)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-200}
        # The seeds are those of the runs STRENGTH.md reports (step 7's transposition table
        # is at commit e00eaf7 with the rest of this command).
        ab 5-exploration-0.5 GRAVITY4_EXPLORATION=0.5 GRAVITY4_EXPLORATION=0.8 200 7
        ab 6-exploration-0.3 GRAVITY4_EXPLORATION=0.3 GRAVITY4_EXPLORATION=0.5 51 13
        ;;
    late)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-100}
        ab 8-keep-threats "GRAVITY4_PROFILE=strong" "GRAVITY4_DISABLE=keep-threats" 200 31
        ab 9-endgame-40 "GRAVITY4_PROFILE=strong" "GRAVITY4_DISABLE=endgame" 200 37
        ;;
    sequences)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-100}
        ab 10-threat-sequences "GRAVITY4_PROFILE=strong" "GRAVITY4_DISABLE=threat-sequences" 200 41
        ;;
    early-stop)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-100}
        # Step 12 (seed 47) ran when the early stop was the default: A DISABLE=early-stop, B the
        # default. Now the default has no early stop, so the same pair is A default, B ENABLE.
        ab 12-no-early-stop "GRAVITY4_PROFILE=strong" "GRAVITY4_ENABLE=early-stop" 200 47
        ;;
    endgame-reach)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-200}
        vs_commit 14-endgame-reach endgame-reach 5b794f6 200 59
        ;;
    forced)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-200}
        # Step 17: a forced move searches its whole budget, for the subtree tree reuse keeps,
        # against commit 79736f9, which played it at the first clock check (seed 71).
        vs_commit 17-forced-moves forced 79736f9 200 71
        ;;
    lgr | ppa)
        # Issue 17, step 22, hints: the learned playout policies, this build on both sides.
        # The base of each is what the default was then, last good replies alone; written
        # against today's default (which has policy adaptation and its pairs since) so that
        # they still measure the same pairs of settings.
        local replies=GRAVITY4_DISABLE=policy-adaptation
        case $COMMAND in
        lgr) step_22_hint 22-last-good-reply "$replies" "$replies,last-good-reply" 3501 ;;
        ppa) step_22_hint 22g-policy-adaptation GRAVITY4_DISABLE=ppa-pairs "$replies" 3506 ;;
        esac
        ;;
    ppa-rate)
        # Issue 17, step 23, a hint: policy adaptation's step tuned, this build on both sides.
        rate=${PPA_RATE:-0.64}
        step_22_hint "23-ppa-rate-$rate" \
            "GRAVITY4_PPA_RATE=$rate" GRAVITY4_PROFILE=strong 3601
        ;;
    exploration)
        # Issue 17, step 24, a hint: the exploration constant retuned with the learned
        # playout policies on, this build on both sides.
        c=${EXPLORATION:-0.35}
        step_22_hint "24-exploration-$c" \
            "GRAVITY4_EXPLORATION=$c" GRAVITY4_PROFILE=strong 3602
        ;;
    value-model)
        # Issue 51, a hint: the learned evaluation's prior, this build on both sides.
        prior=${PRIOR:-4} depth=${DEPTH:-144}
        # Every node (the first run's) keeps the first run's name.
        name=51-value-model-$prior && [ "$depth" = 144 ] || name=$name-depth-$depth
        step_22_hint "$name" "GRAVITY4_ENABLE=value-model,GRAVITY4_MODEL_PRIOR=$prior,GRAVITY4_MODEL_DEPTH=$depth" \
            GRAVITY4_PROFILE=strong 5101
        ;;
    ab)
        # A hint: any two configurations of this build, with the SPRT.
        tag=${TAG:?ab needs TAG (the run is ab-TAG-MS)} switches=${SWITCHES:?ab needs SWITCHES}
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-200}
        # Its own copy of the library (libs/hint-TAG.so), so hints of different builds can
        # overlap, and apart from ab-2s's copy of the same TAG.
        ab_of_copy "ab-$tag-$GRAVITY4_MOVE_MS" "$LIB" "hint-$tag" "$switches" \
            "${SWITCHES_B:-GRAVITY4_PROFILE=strong}" 200 "${HINT_SEED:-3700}"
        ;;
    ab-2s)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        # A hint confirmed at length: this build with SWITCHES against its own default, on
        # one copy of the library (libs/ab-TAG.so); RESUME=1 continues on the same copy.
        tag=${TAG:?ab-2s needs TAG (the run is ab-TAG-MS)} switches=${SWITCHES:?ab-2s needs SWITCHES}
        dir=$OUT/ab-$tag-$GRAVITY4_MOVE_MS
        lib=$(run_copy "ab-$tag" "$dir")
        long_match "$dir" "$lib@$switches" "$lib@GRAVITY4_PROFILE=strong" \
            "${FULL_PAIRS:-50}" "${FULL_SEED:-2210}"
        ;;
    ppa-pairs)
        # Issue 17, step 28, a hint: policy adaptation with pair weights (previous cell, cell).
        # The default since the step, so A is the default and B the default without pairs.
        step_22_hint 28-ppa-pairs GRAVITY4_PROFILE=strong GRAVITY4_DISABLE=ppa-pairs 3606
        ;;
    vs-d600866)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        # Issue 17's measure: this build (with SWITCHES, e.g. GRAVITY4_DISABLE=reuse) against the
        # default of d600866 at the full 2 s, 100 boards (200 games), one game at a time. It takes
        # hours: RESUME=1 continues the run directory of the same TAG instead of starting over.
        tag=${TAG:-default} dir=$OUT/full-vs-d600866-${TAG:-default}
        ours=$(run_copy "$tag" "$dir") && ours=$ours${SWITCHES:+@$SWITCHES}
        base=$(copy_of "$(library_at d600866)" d600866)
        long_match "$dir" "$ours" "$base" "${FULL_PAIRS:-100}" "${FULL_SEED:-2201}"
        ;;
    vs-488d092)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-1000}
        # Issue 39's measure of what the speed buys: the same search as 488d092's (bit for
        # bit at a fixed iteration count), so any score away from 50 % is the iterations.
        dir=$OUT/speed-vs-488d092-$GRAVITY4_MOVE_MS
        ours=$(run_copy "speed-39-$GRAVITY4_MOVE_MS" "$dir")
        base=$(copy_of "$(library_at 488d092)" 488d092)
        local pairs=$((GRAVITY4_MOVE_MS >= 2000 ? 50 : 100))
        long_match "$dir" "$ours" "$base" "${FULL_PAIRS:-$pairs}" "${FULL_SEED:-3901}"
        ;;
    field | ablation-field)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        if [ "$COMMAND" = ablation-field ]; then
            # Issue 17's ablation table through d600866: each technique of the ablation
            # switched off in turn, all on the same boards as the default itself.
            TAG=${TAG:-ablation}
            CANDIDATES=""
            for t in "${ABLATION_TECHNIQUES[@]}"; do
                CANDIDATES+="GRAVITY4_DISABLE=$t;"
            done
        fi
        # Issue 17, measured against another program instead of in self-play: d600866's
        # default against this build's default and each configuration of CANDIDATES (a
        # semicolon list of player settings, e.g. "GRAVITY4_DISABLE=ppa-pairs;
        # GRAVITY4_DISABLE=reuse"), a gauntlet whose pairings all play the same boards
        # (a board depends only on the seed and the pair), so any two of ours compare
        # board by board. FULL_PAIRS boards (25), seed FULL_SEED (2206, the boards of the
        # default's measures against d600866), one game at a time unless CONCURRENCY says;
        # TAG names the run (field-TAG-MS), RESUME=1 continues it on the same copies.
        tag=${TAG:?field needs TAG (the run is field-TAG-MS)}
        dir=$OUT/field-$tag-$GRAVITY4_MOVE_MS
        lib=$(run_copy "field-$tag" "$dir")
        ours=("$lib@GRAVITY4_PROFILE=strong")
        IFS=';' read -ra candidates <<<"${CANDIDATES:-}"
        for c in "${candidates[@]}"; do
            c=$(echo "$c" | tr -d ' ')
            if [ -n "$c" ]; then ours+=("$lib@$c"); fi
        done
        base=$(copy_of "$(library_at d600866)" d600866)
        mapfile -t where < <(run_dir_args "$dir")
        one=("${CONCURRENCY[@]}") && [ ${#one[@]} -gt 0 ] || one=(--concurrency 1)
        "$JUDGE" gauntlet "$base" --vs "${ours[@]}" --pairs "${FULL_PAIRS:-25}" \
            --seed "${FULL_SEED:-2206}" -q "${one[@]}" "${where[@]}"
        ;;
    ablation-table)
        dir=${RUN:-$OUT/field-ablation-${GRAVITY4_MOVE_MS:-2000}}
        "$JUDGE" report "$dir" >/dev/null
        scripts/ablation-table.py "$dir"
        ;;
    ppa-2s)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        # Step 22g at length: this build with playout policy adaptation (without the pairs
        # of step 28) against itself without it (both with last good replies, the default
        # then), at the full 2 s, FULL_PAIRS boards (60), one game at a time, seed 2207.
        # (The archived run played 6192eeb's library, whose switches were ENABLE=
        # policy-adaptation and PROFILE=strong for the same two settings.)
        dir=$OUT/22g-policy-adaptation-$GRAVITY4_MOVE_MS
        lib=$(run_copy ppa-2s "$dir")
        long_match "$dir" "$lib@GRAVITY4_DISABLE=ppa-pairs" "$lib@GRAVITY4_DISABLE=policy-adaptation" \
            "${FULL_PAIRS:-60}" 2207
        ;;
    ablation)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        # Issue 17's ablation table: the default against itself with TECHNIQUE switched off,
        # this build on both sides (copied as libs/ablation-TECHNIQUE.so), at the full 2 s,
        # FULL_PAIRS boards (100), one game at a time, a seed of its own per technique.
        technique=${TECHNIQUE:-}
        case $technique in
        tactical-playouts) seed=2601 ;; keep-threats) seed=2602 ;; threat-sequences) seed=2603 ;;
        reuse) seed=2604 ;; endgame) seed=2605 ;; last-good-reply) seed=2606 ;;
        policy-adaptation) seed=2607 ;; ppa-pairs) seed=2608 ;;
        *)
            echo "TECHNIQUE must be one of ${ABLATION_TECHNIQUES[*]}" >&2
            exit 2
            ;;
        esac
        dir=$OUT/ablation-$technique-$GRAVITY4_MOVE_MS
        lib=$(run_copy "ablation-$technique" "$dir")
        long_match "$dir" "$lib@GRAVITY4_PROFILE=strong" "$lib@GRAVITY4_DISABLE=$technique" \
            "${FULL_PAIRS:-100}" "$seed"
        ;;
    full)
        export GRAVITY4_MOVE_MS=2000
        rm -rf "$OUT/full-default-vs-classic"
        "$JUDGE" match "$LIB@GRAVITY4_PROFILE=strong" "$LIB@GRAVITY4_PROFILE=classic" \
            --pairs "${FULL_PAIRS:-25}" --seed "$SEED" --out "$OUT/full-default-vs-classic" -q \
            "${CONCURRENCY[@]}"
        ;;
    ladder)
        export GRAVITY4_MOVE_MS=${GRAVITY4_MOVE_MS:-2000}
        # LADDER_RUNGS="9 10" plays only those rungs (the run directory names them).
        vs=(target/ladder) name=ladder-$GRAVITY4_MOVE_MS-seed$SEED
        if [ -n "${LADDER_RUNGS:-}" ]; then
            vs=() && for r in $LADDER_RUNGS; do vs+=("target/ladder/$r.so"); done
            name=$name-rungs-${LADDER_RUNGS// /-}
        fi
        # Its own copy of this build (libs/NAME.so), so that RESUME=1 can continue the run
        # after the code has changed.
        lib=$(run_copy "$name" "$OUT/$name")
        mapfile -t where < <(run_dir_args "$OUT/$name")
        "$JUDGE" gauntlet "$lib" --vs "${vs[@]}" --pairs "${LADDER_PAIRS:-2}" --seed "$SEED" \
            -q "${CONCURRENCY[@]}" "${where[@]}"
        ;;
    reversi)
        # Issue 21's measure: Reversi's default engine against the classic one at the course's
        # 5 s a move (REVERSI_MOVE_MS), 50 paired openings (100 games) under RULE (standard or
        # no-adjacent), both as GTP engines, one game at a time; RESUME=1 continues the run.
        rule=${RULE:-standard} ms=${REVERSI_MOVE_MS:-5000}
        cargo build --release -q -p reversi
        replace_file target/release/reversi "$OUT/libs/reversi-$rule"
        engine="$OUT/libs/reversi-$rule gtp --rule $rule --move-ms $ms"
        seed=${REVERSI_SEED:-2111}
        dir=$OUT/reversi-$rule-$ms${REVERSI_SEED:+-seed$seed}
        if [ "${RESUME:-0}" = 1 ] && [ -d "$dir" ]; then where=(--resume "$dir"); else
            rm -rf "$dir" && where=(--out "$dir")
        fi
        one=("${CONCURRENCY[@]}") && [ ${#one[@]} -gt 0 ] || one=(--concurrency 1)
        "$JUDGE" match --game reversi --rule "$rule" "gtp:$engine@REVERSI_PROFILE=strong" \
            "gtp:$engine@REVERSI_PROFILE=classic" --pairs "${REVERSI_PAIRS:-50}" --seed "$seed" -q \
            "${one[@]}" "${where[@]}"
        ;;
    reversi-rhino)
        # Our default Reversi engine against Debian's gtp-rhino (package grhino) at level
        # RHINO_LEVEL (default 4), standard rules, both over GTP; REVERSI_MOVE_MS (default 1000)
        # is our budget: set it to gtp-rhino's mean time per move from an earlier run's
        # report for a match at equal time. The move limit is 30 s: gtp-rhino searches to a
        # fixed depth and on a loaded machine level 4 sometimes needs more than the default 6 s,
        # and a game lost on time says nothing about strength.
        # PROFILE=alphabeta plays that profile instead (its own run directory).
        ms=${REVERSI_MOVE_MS:-1000} level=${RHINO_LEVEL:-4}
        cargo build --release -q -p reversi
        replace_file target/release/reversi "$OUT/libs/reversi"
        dir=$OUT/reversi-rhino-l$level-$ms${PROFILE:+-$PROFILE}
        rm -rf "$dir"
        "$JUDGE" match --game reversi "gtp:$OUT/libs/reversi gtp --move-ms $ms${PROFILE:+ --profile $PROFILE}" \
            "gtp:/usr/games/gtp-rhino -l $level" --pairs "${RHINO_PAIRS:-10}" --seed 2121 -q \
            --move-limit-ms 30000 --out "$dir" "${CONCURRENCY[@]}"
        ;;
    *)
        echo "usage: $0 chain|tune|late|sequences|early-stop|endgame-reach|forced|lgr|ppa|ppa-rate|exploration|value-model|ab|ab-2s|ppa-pairs|ppa-2s|vs-d600866|vs-488d092|field|ablation|full|ladder|reversi|reversi-rhino" >&2
        exit 2
        ;;
    esac
}

main "$@"; exit
