#!/usr/bin/env bash
# Where the time goes beside the instruction count: cachegrind's simulated L1 data misses
# and mispredicted branches of commit COMMIT ("old") and the working tree ("new") on the
# speed bench's fixed mode. It answers why wall time falls less than the instructions
# (issue 39): `perf stat` has no hardware counters in the development containers, and
# cachegrind's counts, like callgrind's, do not move with the machine's load.
#
#   scripts/speed-cachegrind.sh COMMIT [POSITIONS]
#
# Builds both benches as scripts/speed-vs.sh does (its ROUNDS = 0 only builds), then runs
# `valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes BENCH --fixed --profiles
# strong --position N` for each N of POSITIONS (default "0 1 2 3") on both, and prints per
# position and side the whole run's instructions, data reads and writes, L1 data misses
# (cachegrind models the host's L1 and last-level caches, not L2, and no prefetcher),
# conditional branches and their mispredictions (a simple predictor model), and new/old.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
commit=${1:?usage: scripts/speed-cachegrind.sh COMMIT [POSITIONS]}
positions=${2:-0 1 2 3}
scripts/speed-vs.sh "$commit" 0 >&2
out=target/speed-vs
for which in old new; do
    for p in $positions; do
        valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes \
            --cachegrind-out-file="$out/cachegrind.$which.$p" \
            "$out/$which" --fixed --profiles strong --position "$p" \
            > /dev/null 2> "$out/cachegrind.$which.$p.txt"
    done
done
python3 - "$out" $positions <<'PY'
import re, sys
out, positions = sys.argv[1], sys.argv[2:]

def summary(path):
    # valgrind's closing summary: "I refs:", "D refs:", "D1 misses:", "Branches:", ...
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
