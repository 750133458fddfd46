#!/usr/bin/env bash
# A real Slurm run on this machine: a one-node cluster (munged, slurmctld, slurmd started
# here with a generated slurm.conf in a temp dir), a sharded match submitted with
# submit.sh (4 array tasks and a merge job that depends on them), waited for and checked
# (games in the merged run, summary.json), then the daemons it started are stopped.
#
#   sudo scripts/slurm/test-local.sh
#
# Needs root (the daemons run as root here) and Debian's slurm-wlm and munge, which it
# installs with apt-get when they are missing. Slow (daemons, scheduling): not part of the
# default test command. Environment:
#   JUDGE    judge binary (default: target/release/judge; built when missing)
#   LIB      the library under test (default: target/release/libgravity4.so)
#   OPPONENT its opponent (default: target/ladder/5.so, else LIB at another budget)
#   WEAK     the SPRT phase's opponent (default: target/ladder/1.so, else OPPONENT)
#   KEEP=1   keep the temp dir (cluster config, logs, run directories) afterwards
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$root/scripts/slurm"
[[ $(id -u) == 0 ]] || { echo "test-local.sh: run as root (it starts munged, slurmctld, slurmd)" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    echo "test-local.sh: installing slurm-wlm and munge" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

JUDGE=${JUDGE:-$root/target/release/judge}
if [[ ! -x "$JUDGE" ]]; then
    (cd "$root" && cargo build -q -p gravity4-judge --release)
fi
LIB=${LIB:-$root/target/release/libgravity4.so}
[[ -f "$LIB" ]] || { echo "test-local.sh: no library at $LIB (cargo build --release, or set LIB)" >&2; exit 2; }
OPPONENT=${OPPONENT:-$root/target/ladder/5.so}
WEAK=${WEAK:-$root/target/ladder/1.so}

tmp=$(mktemp -d /tmp/slurm-test.XXXXXX)
SECONDS=0
pids=()
cleanup() {
    # Only what this script started, by pid.
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    done
    if [[ "${KEEP:-0}" == 1 ]]; then echo "test-local.sh: kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# munge: its own socket, key and logs in the temp dir (a munged already running for the
# machine is left alone).
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/shared"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed"
pids+=("$(cat "$tmp/munge/munged.pid")")

mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=judgetest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=3600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" -i
for _ in $(seq 50); do [[ -s "$tmp/slurmctld.pid" ]] && break; sleep 0.2; done
pids+=("$(cat "$tmp/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N localhost
for _ in $(seq 50); do [[ -s "$tmp/slurmd.pid" ]] && break; sleep 0.2; done
pids+=("$(cat "$tmp/slurmd.pid")")
for _ in $(seq 60); do
    sinfo -h -N -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 1
done
echo "== cluster"
sinfo

# The shared directory every node reads: the judge and the libraries.
shared="$tmp/shared"
cp "$JUDGE" "$shared/judge"
lib="$shared/$(basename "$LIB")"
cp "$LIB" "$lib"
if [[ -f "$OPPONENT" ]]; then
    mkdir -p "$shared/ladder"
    opponent="$shared/ladder/$(basename "$OPPONENT")"
    cp "$OPPONENT" "$opponent"
else
    opponent="$lib@GRAVITY4_MOVE_MS=10"
fi
echo "== submit: 4 shards, GRAVITY4_MOVE_MS=20, $(basename "$LIB") vs $(basename "$OPPONENT")"
read -r array merge < <("$here/submit.sh" --shards 4 --run-dir "$shared/run" --judge "$shared/judge" -- \
    match "$lib@GRAVITY4_MOVE_MS=20" "$opponent" --pairs 4 --seed 2026 --move-limit-ms 1000)
echo "array job $array, merge job $merge (afterany:$array)"

# The final state of job $1 (waits up to 10 minutes).
wait_job() {
    local state=""
    for _ in $(seq 600); do
        state=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1)
        case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
        sleep 1
    done
    echo "$state"
}
state=$(wait_job "$merge")
echo "== array job $array: one task per shard"
scontrol -o show job "$array" | grep -oE '(^| )(JobId|ArrayTaskId|JobState|RunTime|ExitCode)=[^ ]*' | paste -d' ' - - - - -
echo "== merge job $merge: $state after ${SECONDS}s, its output (judge merge):"
cat "$shared/run/slurm-$merge.out"
echo "== judge status of the shards (written by the merge job; its table as above)"
sed '/^$/q' "$shared/run/status.txt" 2>/dev/null || true
[[ "$state" == COMPLETED ]] || { echo "test-local.sh: FAILED: merge job ended $state" >&2; tail -20 "$tmp"/slurm*.log >&2; exit 1; }

summary="$shared/run/merged/summary.json"
games=$(wc -l <"$shared/run/merged/games.jsonl")
check() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s$1)" "$summary"; }
echo "== check: games.jsonl $games lines, summary games $(check "['games']"), missing_games $(check "['missing_games']")"
for i in 1 2 3 4; do
    [[ -f "$shared/run/shard-$i/games.jsonl" ]] || { echo "test-local.sh: FAILED: no shard $i" >&2; exit 1; }
done
if [[ "$games" == 8 && $(check "['games']") == 8 && $(check "['missing_games']") == 0 ]] \
    && [[ -f "$shared/run/merged/report.html" ]]; then
    echo "test-local.sh: OK: 4 shards on Slurm merged into 8 of 8 games"
else
    echo "test-local.sh: FAILED" >&2
    exit 1
fi

# A shard that never runs: the array and the merge are submitted held, task 4 is cancelled,
# the rest released; the merge (afterany) merges shards 1-3 and warns.
echo "== partial: the same match, array task 4 cancelled before it starts"
read -r array merge < <("$here/submit.sh" --shards 4 --run-dir "$shared/partial" --judge "$shared/judge" \
    --sbatch-opt --hold -- \
    match "$lib@GRAVITY4_MOVE_MS=20" "$opponent" --pairs 4 --seed 2026 --move-limit-ms 1000)
scancel "${array}_4"
scontrol release "$array"
scontrol release "$merge"
state=$(wait_job "$merge")
echo "array job $array (task 4 cancelled), merge job $merge: $state; its output:"
cat "$shared/partial/slurm-$merge.out"
summary="$shared/partial/merged/summary.json"
if [[ "$state" == COMPLETED && $(check "['games']") == 6 && $(check "['missing_games']") == 2 \
    && $(check "['missing_shards']") == "[4]" ]] && grep -q "warning: missing shards: 4/4" "$shared/partial/slurm-$merge.out"; then
    echo "test-local.sh: OK: partial merge of 3 of 4 shards, 6 of 8 games, missing_games 2, missing_shards [4]"
else
    echo "test-local.sh: FAILED: partial merge" >&2
    exit 1
fi

# An SPRT over the shards: sprt-watch.sh polls `judge status` and cancels the array once the
# test over all shards accepts a hypothesis; the merge job then merges what was played.
weak="$opponent"
if [[ -f "$WEAK" ]]; then
    mkdir -p "$shared/weak"
    weak="$shared/weak/$(basename "$WEAK")"
    cp "$WEAK" "$weak"
fi
echo "== sprt: 4 shards of 40 boards, --sprt elo0=0 elo1=400, $(basename "$LIB") vs $(basename "$weak"); sprt-watch.sh stops them"
read -r array merge < <("$here/submit.sh" --shards 4 --run-dir "$shared/sprt" --judge "$shared/judge" -- \
    match "$lib@GRAVITY4_MOVE_MS=20" "$weak" --pairs 40 --seed 2026 --move-limit-ms 1000 \
    --sprt elo0=0 elo1=400 alpha=0.05 beta=0.05)
JUDGE="$shared/judge" "$here/sprt-watch.sh" "$shared/sprt" "$array" 2
state=$(wait_job "$merge")
echo "array job $array, merge job $merge: $state; its output:"
cat "$shared/sprt/slurm-$merge.out"
tail -1 "$shared/sprt/status.txt"
summary="$shared/sprt/merged/summary.json"
if [[ "$state" == COMPLETED ]] && grep -q -- "-> H1" "$shared/sprt/status.txt"; then
    echo "test-local.sh: OK: SPRT over shards accepted H1 after $(check "['sprt']['pairs']") pairs; $(check "['missing_games']") of 80 games not played"
else
    echo "test-local.sh: FAILED: SPRT over shards" >&2
    exit 1
fi
