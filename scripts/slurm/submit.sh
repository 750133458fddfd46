#!/usr/bin/env bash
# Submits a sharded judge tournament to Slurm: an array job of N shards (shard.sbatch, one
# shard per task) and a merge job (merge.sbatch) that runs when the array is over.
#
#   scripts/slurm/submit.sh --shards N --run-dir DIR [--judge PATH] [--afterok]
#       [--sbatch-opt OPT]... -- JUDGE ARGS...
#
#   scripts/slurm/submit.sh --shards 16 --run-dir /shared/runs/m1 --judge /shared/judge \
#       --sbatch-opt --partition=batch --sbatch-opt --cpus-per-task=2 -- \
#       match /shared/a.so /shared/b.so --pairs 2000 --seed 7 --move-limit-ms 3000
#
# DIR, the judge and the libraries must be on a filesystem every node reads at the same
# paths. The judge's arguments need --seed. --sbatch-opt options go to both sbatch calls
# (partition, account, time limit, CPUs per task: each shard plays that many games at once).
# The merge job depends on the array with afterany (a partial merge, with a warning, if
# shards failed), or afterok with --afterok (no merge unless every shard succeeded).
# Prints "ARRAY_JOB_ID MERGE_JOB_ID". With --sprt, stop the array once the SPRT over all
# shards decides with: scripts/slurm/sprt-watch.sh DIR ARRAY_JOB_ID.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
shards="" run_dir="" judge="${JUDGE:-}" dep=afterany
sbopts=()
while (($#)); do
    case "$1" in
        --shards) shards="$2"; shift 2 ;;
        --run-dir) run_dir="$2"; shift 2 ;;
        --judge) judge="$2"; shift 2 ;;
        --afterok) dep=afterok; shift ;;
        --sbatch-opt) sbopts+=("$2"); shift 2 ;;
        --) shift; break ;;
        *) echo "submit.sh: unknown option $1 (judge arguments go after --)" >&2; exit 2 ;;
    esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ && -n "$run_dir" && -n "$judge" && $# -gt 0 ]] || {
    echo "usage: $0 --shards N --run-dir DIR --judge PATH [--afterok] [--sbatch-opt OPT]... -- JUDGE ARGS..." >&2
    exit 2
}
printf '%s\n' "$@" | grep -qx -- '--seed\|--seed=.*' || {
    echo "submit.sh: the judge's arguments need --seed S (every shard must draw the same schedule)" >&2
    exit 2
}
mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
judge=$(cd "$(dirname "$judge")" && pwd)/$(basename "$judge")
printf '%s\n' "$@" >"$run_dir/judge-args"
export JUDGE="$judge" RUN_DIR="$run_dir" SHARDS="$shards"
array=$(sbatch --parsable "${sbopts[@]}" --array="1-$shards" --chdir="$run_dir" \
    --export=ALL,JUDGE,RUN_DIR,SHARDS "$here/shard.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable "${sbopts[@]}" --dependency="$dep:$array" --chdir="$run_dir" \
    --export=ALL,JUDGE,RUN_DIR,SHARDS "$here/merge.sbatch")
merge=${merge%%;*}
echo "$array $merge"
