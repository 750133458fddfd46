#!/usr/bin/env bash
# A soak of the judge under faults: a round-robin of our library, ladder rungs and every
# misbehaving fixture (libraries that crash, abort, exit, hang, spin, write garbage into the
# protocol pipe, flood stdout, hog memory, write files, leak state, fail to load; Saiblo
# programs that crash, hang after forking, send garbage, flood, hog memory, write files,
# exit early; a text file named .so is a usage error that
# stops a run before it starts, so it is not one of them) at a few ms a move and a concurrency above the core count, with the judge
# killed with SIGKILL at random moments and resumed (--resume) each time. Then it checks:
#   - every scheduled game is in games.jsonl exactly once, and every line parses;
#   - summary.json equals what `judge report` computes again from the log;
#   - no process of the run is alive (every process the judge started carries a marker in
#     its environment; /proc is scanned for it);
#   - no file is left outside the run directory: the judge's working directory and its
#     TMPDIR (where scratch directories live) are empty, the players' directory unchanged;
#   - the judge's resident memory and open descriptors (sampled from /proc/PID/status and
#     /proc/PID/fd) are flat over its longest uninterrupted stretch.
# It prints the figures (games, kills, resumes, verdicts by kind, memory and descriptors,
# wall time, load) and exits non-zero when a check fails.
#
# Usage: scripts/soak.sh [GAMES]     (default 2000; rounded to whole rounds of the roster)
# Environment:
#   JUDGE, LIB       the judge and libgravity4.so to use; when both are given nothing is
#                    built, else `cargo build --release -p gravity4 -p gravity4-judge` runs
#                    and target/release/ is used.
#   LADDER_DIR       the rungs (N.so; default target/ladder, built by scripts/build-ladder.sh
#                    when a rung is missing; `none`: no rungs, as in the judge's test of this
#                    script)
#   SOAK_DIR         where everything goes (default target/soak/DATE); must not exist
#   KILLS            SIGKILLs of the judge (default 12; spread over the first half of the
#                    run, so the second half is one uninterrupted judge for the samples)
#   CONCURRENCY      games at once (default 4)
#   MOVE_MS          our library's and the rungs' budget per move (default 5)
#   MOVE_LIMIT_MS    the judge's limit per move (default 2000: a Python program's start-up is
#                    part of its first move, and took over 500 ms at low priority on a busy
#                    machine, so that at 500 ms most programs lost by timeout instead of
#                    by the misbehaviour they exist for)
#   SEED             the schedule's seed (default 1)
# Run it beside other work through scripts/low-priority.sh.
set -euo pipefail

repo="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
games_wanted="${1:-2000}"
kills_wanted="${KILLS:-12}"
concurrency="${CONCURRENCY:-4}"
move_ms="${MOVE_MS:-5}"
limit_ms="${MOVE_LIMIT_MS:-2000}"
seed="${SEED:-1}"
ladder="${LADDER_DIR:-$repo/target/ladder}"
soak="${SOAK_DIR:-$repo/target/soak/$(date +%Y%m%d-%H%M%S)}"
fixtures="$repo/judge/tests/fixtures"

if [[ -z "${JUDGE:-}" || -z "${LIB:-}" ]]; then
    (cd "$repo" && cargo build --release -q -p gravity4 -p gravity4-judge)
    JUDGE="${JUDGE:-$repo/target/release/judge}"
    LIB="${LIB:-$repo/target/release/libgravity4.so}"
fi
JUDGE="$(realpath -- "$JUDGE")"
LIB="$(realpath -- "$LIB")"
if [[ "$ladder" != none ]]; then
    for rung in 2 5 8 10; do
        if [[ ! -e "$ladder/$rung.so" ]]; then
            # A new clone has no ladder: build it there (a few minutes, once).
            echo "soak: no $ladder/$rung.so: building the ladder (scripts/build-ladder.sh)" >&2
            "$repo/scripts/build-ladder.sh" "$ladder" >&2
            [[ -e "$ladder/$rung.so" ]] || {
                echo "soak: still no $ladder/$rung.so after scripts/build-ladder.sh" >&2
                exit 2
            }
        fi
    done
fi
[[ ! -e "$soak" ]] || {
    echo "soak: $soak exists" >&2
    exit 2
}
mkdir -p -- "$soak"/{players,cwd,tmp}
soak="$(realpath -- "$soak")"
players="$soak/players" run="$soak/run" cwd="$soak/cwd" tmp="$soak/tmp"

# The misbehaving libraries, compiled as the judge's tests compile them.
for src in "$fixtures"/*.c; do
    name="$(basename "$src" .c)"
    cc -O1 -shared -fPIC -I "$fixtures" -o "$players/$name.so" "$src"
done
# Deliberately gcc, not g++: libstdc++ is not a declared dependency (it must still load).
gcc -O1 -shared -fPIC -o "$players/cxx_nostdlib.so" "$fixtures/cxx_nostdlib.cpp"
gcc -O1 -shared -fPIC -o "$players/mangled.so" "$fixtures/mangled.cpp"
cp -- "$fixtures"/saiblo/*.py "$players/"
# The interpreter itself, not a version manager's shim (a shell script whose helpers are
# children the parent-death signal does not reach).
py="saiblo:$(python3 -c 'import sys; print(sys.executable)') $players"
ms="@GRAVITY4_MOVE_MS=$move_ms"
# Kinds interleaved, so that the short roster of a small GAMES still mixes them.
roster=(
    "$LIB$ms" "$players/segfault.so" "$ladder/5.so$ms" "$py/hang.py" "$players/writer.so"
    "$players/flood.so" "$py/crash.py" "$players/hang.so" "$ladder/10.so$ms" "$players/memhog.so"
    "$py/garbage.py" "$players/abort.so" "$players/exit3.so" "$py/flood.py" "$players/sabotage.so"
    "$ladder/2.so$ms" "$players/illegal.so" "$py/memhog.py" "$players/null.so" "$players/spin.so"
    "$py/writer.py" "$players/leaky.so" "$players/sleepy.so" "$py/early.py" "$players/nosymbol.so"
    "$players/mangled.so" "$ladder/8.so$ms" "$py/words.py" "$players/ballast.so" "$players/cxx_nostdlib.so" "$players/fromboard.so" "$py/legal.py"
    "$players/burn.so"
)
if [[ "$ladder" == none ]]; then
    for i in "${!roster[@]}"; do
        [[ "${roster[i]}" != "$ladder/"* ]] || unset 'roster[i]'
    done
    roster=("${roster[@]}")
fi
# The largest roster whose one round (K(K-1) games) fits in GAMES, then whole rounds.
k=${#roster[@]}
while ((k > 2 && k * (k - 1) > games_wanted)); do k=$((k - 1)); done
roster=("${roster[@]:0:k}")
pairings=$((k * (k - 1) / 2))
pairs=$(((games_wanted + pairings) / (2 * pairings)))
((pairs >= 1)) || pairs=1
scheduled=$((pairings * 2 * pairs))
ls -lR -- "$players" >"$soak/players.before"

mark="gravity4-soak-$$-$RANDOM$RANDOM"
common=(round-robin "${roster[@]}" --pairs "$pairs" --seed "$seed" --quiet
    --concurrency "$concurrency" --move-limit-ms "$limit_ms")
echo "soak: $k players, $pairs pairs each way: $scheduled games, $kills_wanted kills, concurrency $concurrency, in $soak"

# Kill i once the log holds about i/(2*KILLS) of the games, then after a random delay.
kill_at=()
for ((i = 1; i <= kills_wanted; i++)); do
    kill_at+=($(((i * scheduled + 2 * kills_wanted - 1) / (2 * kills_wanted))))
done

# At most 1.5 s, less in a short run, which could end before the kill.
delay_ms=$((25 * scheduled / kills_wanted))
((delay_ms <= 1500)) || delay_ms=1500
((delay_ms >= 1)) || delay_ms=1

logged() { [[ -e "$run/games.jsonl" ]] && wc -l <"$run/games.jsonl" || echo 0; }
marked() { grep -lsF -- "SOAK_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true; }

start=$SECONDS
read -r load_start _ </proc/loadavg
kills=0 segment=0 status=0 failed=0
: >"$soak/samples" >"$soak/judge-pids" >"$soak/orphans"
while :; do
    segment=$((segment + 1))
    if [[ -e "$run/run.json" ]]; then where=(--resume "$run"); else where=(--out "$run"); fi
    (cd "$cwd" && exec env TMPDIR="$tmp" SOAK_MARK="$mark" PYTHONDONTWRITEBYTECODE=1 \
        "$JUDGE" "${common[@]}" "${where[@]}") >"$soak/segment-$segment.out" 2>"$soak/segment-$segment.err" &
    jpid=$!
    echo "$jpid" >>"$soak/judge-pids"
    target=$((kills < kills_wanted ? kill_at[kills] : -1))
    killed=0
    while kill -0 "$jpid" 2>/dev/null; do
        if rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$jpid/status" 2>/dev/null) && [[ -n "$rss" ]]; then
            fds=$(find "/proc/$jpid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
            read -r load _ </proc/loadavg
            echo "$segment $((SECONDS - start)) $rss $fds $(logged) $load" >>"$soak/samples"
        fi
        if ((target >= 0 && $(logged) >= target)); then
            r=$((RANDOM % delay_ms))
            sleep "$((r / 1000)).$(printf %03d $((r % 1000)))"
            kill -KILL "$jpid" 2>/dev/null && killed=1
            break
        fi
        sleep 0.2
    done
    { wait "$jpid"; } 2>/dev/null && status=0 || status=$?
    if ((killed)); then
        kills=$((kills + 1))
        # Hosts and programs die with the judge (parent-death signal); what a program
        # forked does not, and is left for the resumed judge's sweep: counted here.
        sleep 0.5
        left=$(marked)
        echo "$kills $(echo "$left" | grep -c .)" >>"$soak/orphans"
        [[ -z "$left" ]] || ps -o pid=,ppid=,stat=,args= -p "$(echo $left | tr ' ' ,)" >>"$soak/orphans.ps" || true
        continue
    fi
    if ((status != 0)); then
        echo "soak: FAIL: the judge exited with status $status (segment $segment):" >&2
        tail -5 "$soak/segment-$segment.err" >&2
        failed=1
    fi
    break
done
wall=$((SECONDS - start))
read -r load_end _ </proc/loadavg

# What the judge wrote at its end, against `judge report` of the log.
if [[ -e "$run/summary.json" ]]; then
    mv -- "$run/summary.json" "$soak/summary.judge.json"
    (cd "$cwd" && env TMPDIR="$tmp" "$JUDGE" report "$run") >"$soak/report.out" 2>&1 || failed=1
fi
sleep 1
marked >"$soak/alive"
ls -lR -- "$players" >"$soak/players.after"

python3 - "$soak" "$pairings" "$pairs" "$kills" "$segment" "$wall" "$load_start" "$load_end" "$kills_wanted" <<'EOF' || failed=1
import collections, json, os, sys

soak, pairings, pairs, kills, segments, wall = sys.argv[1], *map(int, sys.argv[2:7])
load_start, load_end, kills_wanted = sys.argv[7], sys.argv[8], int(sys.argv[9])
run = os.path.join(soak, "run")
fails = []

def check(ok, what):
    print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        fails.append(what)

lines = open(os.path.join(run, "games.jsonl")).read().splitlines()
games, torn = [], 0
for line in lines:
    try:
        games.append(json.loads(line))
    except ValueError:
        torn += 1
ids = collections.Counter(g["id"] for g in games)
want = {f"{p}-{b}-{g}" for p in range(pairings) for b in range(pairs) for g in (0, 1)}
print(f"soak: {len(want)} games scheduled, {len(games)} logged, {kills} kills, "
      f"{segments - 1} resumes, {wall} s wall, load {load_start} at start, {load_end} at end")
check(torn == 0, f"every line of games.jsonl parses ({torn} do not)")
missing, extra = want - set(ids), set(ids) - want
twice = [i for i, n in ids.items() if n > 1]
check(not missing and not extra and not twice,
      f"every scheduled game exactly once ({len(missing)} missing, {len(twice)} twice, {len(extra)} unscheduled)")
check(kills >= kills_wanted, f"the judge was killed {kills} times (wanted {kills_wanted}) and resumed each time")

try:
    mine = json.load(open(os.path.join(soak, "summary.judge.json")))
    again = json.load(open(os.path.join(run, "summary.json")))
    check(mine == again and mine.get("games") == len(games),
          f"summary.json (games {mine.get('games')}) equals `judge report` of the log")
except (OSError, ValueError) as e:
    check(False, f"summary.json and `judge report`: {e}")

alive = open(os.path.join(soak, "alive")).read().split()
check(not alive, f"no process of the run alive ({len(alive)}: {' '.join(alive[:10])})")
orphans = [line.split() for line in open(os.path.join(soak, "orphans"))]
if orphans:
    counts = [int(n) for _, n in orphans]
    print(f"  ..   processes left by a killed judge, before its resume swept them: "
          f"{sum(counts)} over {len(counts)} kills (max {max(counts)})")
left = os.listdir(os.path.join(soak, "cwd")) + os.listdir(os.path.join(soak, "tmp"))
pids = open(os.path.join(soak, "judge-pids")).read().split()
sys_tmp = [n for n in os.listdir("/tmp") if any(n.startswith(f"judge-scratch-{p}-") for p in pids)]
same = open(os.path.join(soak, "players.before")).read() == open(os.path.join(soak, "players.after")).read()
check(not left and not sys_tmp and same,
      f"no file outside the run directory ({len(left)} in the judge's cwd and TMPDIR, "
      f"{len(sys_tmp)} in /tmp, players' directory {'unchanged' if same else 'CHANGED'})")

samples = [tuple(map(int, l.split()[:5])) for l in open(os.path.join(soak, "samples"))]
loads = [float(l.split()[5]) for l in open(os.path.join(soak, "samples"))]
if loads:
    print(f"  ..   load average (1 min) over the run: mean {sum(loads) / len(loads):.1f}, "
          f"peak {max(loads):.1f}, on {os.cpu_count()} cores")
by_segment = collections.defaultdict(list)
for s in samples:
    by_segment[s[0]].append(s)
longest = max(by_segment.values(), key=len) if by_segment else []
if samples:
    rss = [s[2] for s in samples]
    fds = [s[3] for s in samples]
    print(f"  ..   judge RSS over {len(samples)} samples in {len(by_segment)} processes: "
          f"peak {max(rss) / 1024:.1f} MiB; open fds peak {max(fds)}")
if len(longest) >= 6:
    third = len(longest) // 3
    head, tail = longest[:third], longest[-third:]
    thirds = [longest[:third], longest[third:-third], longest[-third:]]
    peaks = [(max(s[2] for s in p) / 1024, max(s[3] for s in p), p[-1][4]) for p in thirds]
    print(f"  ..   longest judge: {len(longest)} samples over {longest[-1][1] - longest[0][1]} s, "
          f"games {longest[0][4]} to {longest[-1][4]} logged; peak RSS and fds by third: "
          + ", ".join(f"{r:.1f} MiB {f} fds (to game {g})" for r, f, g in peaks))
    rss_ok = max(s[2] for s in tail) <= 1.25 * max(s[2] for s in head) + 4096
    fds_ok = max(s[3] for s in tail) <= max(s[3] for s in head) + 8
    check(rss_ok and fds_ok,
          "the judge's memory and descriptors are flat (last third's peak within 25 % + 4 MiB "
          "and 8 fds of the first third's)")
else:
    print(f"  ..   too few samples of one judge ({len(longest)}) to judge flatness")

verdicts = collections.Counter(g["termination"] for g in games)
losers = collections.Counter((g["termination"], g[g["loser"]].split("@")[0]) for g in games
                             if g.get("loser") and g["termination"] != "four")
with open(os.path.join(soak, "verdicts.txt"), "w") as f:
    for (kind, who), n in sorted(losers.items()):
        f.write(f"{kind} {who} {n}\n")
print("  verdicts by kind: " + ", ".join(f"{k} {n}" for k, n in verdicts.most_common()))
ours = [g for g in games if g.get("loser") and "libgravity4" in g[f"{g['loser']}_path"]
        and g["termination"] != "four"]
print(f"  our library lost by a verdict in {len(ours)} games: "
      + ", ".join(f"{k} {n}" for k, n in collections.Counter(g["termination"] for g in ours).items())
      + " (verdicts by loser: verdicts.txt)")
sys.exit(1 if fails else 0)
EOF
if ((failed)); then
    echo "soak: FAILED (everything is in $soak)" >&2
    exit 1
fi
echo "soak: passed (everything is in $soak)"
