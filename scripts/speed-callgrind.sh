#!/usr/bin/env bash
# Instructions per unit of work of commit COMMIT ("old") and the working tree ("new"),
# counted by callgrind on the speed bench's fixed mode (stable on a shared machine, where
# wall-clock rates move by 10-30 %); with --cache, where the time goes beside the
# instruction count: cachegrind's simulated L1 data misses and mispredicted branches.
#
#   scripts/speed-callgrind.sh [--cache] COMMIT [POSITIONS]
#
# Builds both benches as scripts/speed-vs.sh does (its ROUNDS = 0 only builds), then runs
# `valgrind --tool=callgrind BENCH --fixed --profiles strong --position N` for each N of
# POSITIONS (default "0 1 2 3") on both, and prints per position: instructions per
# iteration of the default search (`api::search`, 20 000 iterations), per ply of the plain
# tactical playout (`api::tactical`), per ply of the default's playout with its learned
# policies (`api::learned_playout`, the draws and bookkeeping included), per update of
# the learned policies (`api::learn`, once per playout), and new/old for each; then new's
# iteration by part (the policy update, the threat-sequence search, the code of each
# source file inlined into the search, the rest).
#
# --cache runs `valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes` on the same
# commands instead and prints per position the whole run's instructions, data reads and
# writes, L1 data misses (cachegrind models the host's L1 and last-level caches, not L2,
# and no prefetcher), conditional branches and their mispredictions (a simple predictor
# model), and new/old. It answers why wall time falls less than the instructions (issue
# 39): `perf stat` has no hardware counters in the development containers, and
# cachegrind's counts, like callgrind's, do not move with the machine's load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cache=0
if [ "${1:-}" = --cache ]; then cache=1 && shift; fi
commit=${1:?usage: scripts/speed-callgrind.sh [--cache] COMMIT [POSITIONS]}
positions=${2:-0 1 2 3}
scripts/speed-vs.sh "$commit" 0 >&2
out=target/speed-vs
for which in old new; do
    for p in $positions; do
        bench=("$out/$which" --fixed --profiles strong --position "$p")
        if ((cache)); then
            valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
                --cachegrind-out-file="$out/cachegrind.$which.$p" "${bench[@]}" \
                > /dev/null 2> "$out/cachegrind.$which.$p.txt"
        else
            valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$which.$p" \
                "${bench[@]}" > "$out/fixed.$which.$p" 2> /dev/null
            callgrind_annotate --inclusive=yes "$out/callgrind.$which.$p" \
                > "$out/inclusive.$which.$p" 2> /dev/null
            callgrind_annotate --inclusive=yes --tree=calling "$out/callgrind.$which.$p" \
                > "$out/calling.$which.$p" 2> /dev/null
        fi
    done
done
if ((cache)); then
    python3 - "$out" $positions <<'PY'
import re, sys
out, positions = sys.argv[1], sys.argv[2:]

def summary(path):
    # valgrind's closing summary: "I   refs:", "D1  misses:", "Branches:", ...
    text = open(path).read()
    def total(label):
        m = re.search(r"==\d+== " + label + r":\s+([\d,]+)", text)
        if not m:
            raise SystemExit(f"{label} not found in {path}")
        return int(m.group(1).replace(",", ""))
    return {
        "instructions": total("I   refs"),
        "data refs": total("D   refs"),
        "L1d misses": total("D1  misses"),
        "branches": total("Branches"),
        "mispredicts": total("Mispredicts"),
    }

names = ["instructions", "data refs", "L1d misses", "branches", "mispredicts"]
print("whole fixed run (cachegrind), millions: old / new / new/old")
print(f"{'position':<9}" + "".join(f"{n:>26}" for n in names))
for p in positions:
    old = summary(f"{out}/cachegrind.old.{p}.txt")
    new = summary(f"{out}/cachegrind.new.{p}.txt")
    cells = "".join(
        f"{old[n] / 1e6:>9.2f} {new[n] / 1e6:>9.2f} {new[n] / old[n]:>6.3f}" for n in names
    )
    print(f"{p:<9}" + cells)
PY
    exit 0
fi
python3 - "$out" $positions <<'PY'
import re, sys
out, positions = sys.argv[1], sys.argv[2:]
WORK = 20_000  # FIXED_WORK in benches/speed.rs

def inclusive(path, function):
    # callgrind_annotate splits a function by the source file of its (inlined) lines; the
    # largest part, its own file's, includes everything it runs.
    costs = [
        int(m.group(1).replace(",", ""))
        for m in (re.match(r"\s*([\d,]+) .*:speed::api::" + function + r"( \[.*)?$", line)
                  for line in open(path))
        if m
    ]
    if not costs:
        raise SystemExit(f"{function} not found in {path}")
    return max(costs)

def plies(path, what):
    text = open(path).read()
    return int(re.search(what + r" plies (\d+)", text).group(1))

def measure(which, p):
    cost = f"{out}/inclusive.{which}.{p}"
    fixed = f"{out}/fixed.{which}.{p}"
    return {
        "iteration": inclusive(cost, "search") / WORK,
        "tactical ply": inclusive(cost, "tactical") / plies(fixed, "strong playout"),
        "learned ply": inclusive(cost, "learned_playout") / plies(fixed, "learned playout"),
        "learn": inclusive(cost, "learn") / WORK,
    }

names = ["iteration", "tactical ply", "learned ply", "learn"]
print("instructions per unit (callgrind), old / new / new/old")
print(f"{'position':<9}" + "".join(f"{n:>30}" for n in names))
for p in positions:
    old, new = measure("old", p), measure("new", p)
    cells = "".join(f"{old[n]:>12.1f} {new[n]:>10.1f} {new[n] / old[n]:>6.3f}" for n in names)
    print(f"{p:<9}" + cells)

# Where new's iteration goes. In `--tree=calling` output each "*" line is the inclusive
# cost of one source file's code inlined into `api::search`, followed by the functions that
# code calls (">" lines): a file's own part is the first less the second, and the called
# functions that matter are parts of their own.
CALLED = ["Learned::learn", "threat_sequence::attack"]
FILES = ["learned.rs", "threats.rs", "position.rs", "ucb.rs", "playout.rs"]

def parts(path):
    star = re.compile(r"\s*([\d,]+) \([ \d.]+%\)  \*  (\S+):speed::api::search( \[.*\])?$")
    call = re.compile(r"\s*([\d,]+) \([ \d.]+%\)  >   [^:]+:(\S+) \(")
    cost, block = {}, None
    for line in open(path):
        if m := star.match(line):
            block = m.group(2).rsplit("/", 1)[-1]
            if m.group(2).endswith("benches/speed/api.rs") and not m.group(3):
                cost["iteration"] = int(m.group(1).replace(",", ""))
                block = None
            else:
                cost[block] = cost.get(block, 0) + int(m.group(1).replace(",", ""))
        elif block and (m := call.match(line)):
            n = int(m.group(1).replace(",", ""))
            cost[block] -= n
            name = next((c for c in CALLED if m.group(2).endswith(c)), None)
            if name:
                cost[name] = cost.get(name, 0) + n
        elif not line.strip():
            block = None
    return cost

print()
print("new: instructions per iteration by part (callgrind_annotate --tree=calling)")
table = {p: parts(f"{out}/calling.new.{p}") for p in positions}
print(f"{'part':<26}" + "".join(f"{p:>16}" for p in positions))
for name in CALLED + FILES + ["rest", "iteration"]:
    cells = ""
    for p in positions:
        cost = table[p]
        whole = cost["iteration"]
        n = cost.get(name, 0) if name != "rest" else whole - sum(cost.get(k, 0) for k in CALLED + FILES)
        cells += f"{n / WORK:>9.0f} ({100 * n / whole:>3.0f} %)"
    print(f"{name:<26}" + cells)
PY
