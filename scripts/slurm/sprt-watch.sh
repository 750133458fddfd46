#!/usr/bin/env bash
# Stops a sharded SPRT match on Slurm once the test over all shards decides:
#   scripts/slurm/sprt-watch.sh RUN_DIR ARRAY_JOB_ID [POLL_SECONDS]
# Every POLL_SECONDS (default 30) it runs `judge status` on the shards that have started;
# when that exits 10 (H0) or 11 (H1) it cancels the array (scancel). The merge job (afterany)
# then merges what the shards logged, whole boards only. JUDGE: the judge binary.
set -euo pipefail
run_dir=$1 array=$2 poll=${3:-30}
: "${JUDGE:?set JUDGE to the judge binary}"
while squeue -h -j "$array" 2>/dev/null | grep -q .; do
    dirs=()
    for d in "$run_dir"/shard-*; do [[ -f "$d/run.json" ]] && dirs+=("$d"); done
    if ((${#dirs[@]})); then
        rc=0; "$JUDGE" status "${dirs[@]}" >"$run_dir/status.txt" 2>&1 || rc=$?
        if ((rc == 10 || rc == 11)); then
            echo "sprt-watch: $(tail -1 "$run_dir/status.txt"); cancelling job $array"
            scancel "$array"
            exit 0
        fi
    fi
    sleep "$poll"
done
