#!/usr/bin/env bash
# Runs a judge tournament as N shards with GNU parallel (on this machine, or over ssh with
# parallel's own --sshlogin), then merges them with `judge merge`.
#
#   scripts/parallel-match.sh --shards N --out DIR [PARALLEL OPTIONS...] -- JUDGE ARGS...
#
#   scripts/parallel-match.sh --shards 4 --out runs/pm -j 2 -- \
#       match a.so b.so --pairs 200 --seed 7 --concurrency 1
#   scripts/parallel-match.sh --shards 8 --out /shared/runs/pm -S 4/host1,4/host2 -- \
#       match /shared/a.so /shared/b.so --pairs 1000 --seed 7 --concurrency 1
#
# Every option before `--` other than --shards/--out/--judge/--poll goes to GNU parallel
# unchanged (-j, -S/--sshlogin, --sshloginfile, --workdir, --return, --delay, ...). The
# judge's arguments must include --seed (every shard draws the same schedule); the script
# adds `--shard I/N --out DIR/shard-I -q` to each. Shard I writes DIR/shard-I; the merged
# run is DIR/merged. Over ssh, every host must see the judge, the libraries and DIR at
# the same paths (a shared filesystem), or use parallel's --workdir/--return yourself.
#
# With --sprt among the judge's arguments, `judge status` reads the SPRT over all shards
# every --poll seconds (default 10) and, once it accepts a hypothesis, stops the shards
# still running (they are killed; their whole boards are merged, with a warning).
#
# JUDGE (environment) or --judge PATH: the judge binary (default: `judge` on PATH, else
# target/release/judge of this repository). Exit status: the merge's.
set -euo pipefail

shards="" out="" poll=10
judge="${JUDGE:-}"
popts=()
while (($#)); do
    case "$1" in
        --shards) shards="$2"; shift 2 ;;
        --shards=*) shards="${1#*=}"; shift ;;
        --out) out="$2"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        --judge) judge="$2"; shift 2 ;;
        --poll) poll="$2"; shift 2 ;;
        --) shift; break ;;
        *) popts+=("$1"); shift ;;
    esac
done
jargs=("$@")
usage() { echo "usage: $0 --shards N --out DIR [PARALLEL OPTIONS...] -- JUDGE ARGS..." >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ && -n "$out" && ${#jargs[@]} -gt 0 ]] || usage
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed (apt-get install -y parallel)" >&2; exit 2; }
if [[ -z "$judge" ]]; then
    judge=$(command -v judge || echo "$(dirname "$0")/../target/release/judge")
fi
[[ -x "$judge" ]] || { echo "$0: no judge binary at $judge (set JUDGE or --judge)" >&2; exit 2; }
printf '%s\n' "${jargs[@]}" | grep -qx -- '--seed\|--seed=.*' \
    || { echo "$0: the judge's arguments need --seed S (every shard must draw the same schedule)" >&2; exit 2; }
mkdir -p "$out"

# parallel runs its command through a shell: quote every word once, here.
cmd=$(printf '%q ' "$judge" "${jargs[@]}")
cmd+="--shard {}/$shards --out $(printf '%q' "$out")/shard-{}"
printf '%s\n' "${jargs[@]}" | grep -qxE -- '-q|--quiet' || cmd+=" -q"

sprt=0
printf '%s\n' "${jargs[@]}" | grep -qx -- '--sprt' && sprt=1
# --halt never: a shard that fails does not stop the others; the merge reports it.
parallel --line-buffer --tag --halt never "${popts[@]}" "$cmd" ::: $(seq 1 "$shards") &
ppid=$!
if ((sprt)); then
    (
        while kill -0 "$ppid" 2>/dev/null; do
            sleep "$poll"
            dirs=()
            for d in "$out"/shard-*; do [[ -f "$d/run.json" ]] && dirs+=("$d"); done
            ((${#dirs[@]})) || continue
            rc=0; "$judge" status "${dirs[@]}" >"$out/status.txt" 2>&1 || rc=$?
            if ((rc == 10 || rc == 11)); then
                echo "$0: SPRT decided ($(tail -1 "$out/status.txt")); stopping the shards" >&2
                # GNU parallel: a first TERM stops new jobs, a second kills running ones.
                kill -TERM "$ppid" 2>/dev/null; sleep 1; kill -TERM "$ppid" 2>/dev/null
                break
            fi
        done
    ) &
    watcher=$!
fi
rc=0; wait "$ppid" || rc=$?
if ((sprt)); then kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true; fi
((rc == 0)) || echo "$0: parallel exited with status $rc (failed or stopped shards are merged as far as they got)" >&2

parts=()
for i in $(seq 1 "$shards"); do [[ -f "$out/shard-$i/run.json" ]] && parts+=("$out/shard-$i"); done
((${#parts[@]})) || { echo "$0: no shard wrote a run directory" >&2; exit 1; }
rm -rf "$out/merged"
exec "$judge" merge "${parts[@]}" --out "$out/merged"
