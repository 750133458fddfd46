#!/usr/bin/env bash
# Side-by-side speed of commit COMMIT ("old") and the working tree ("new").
#
#   scripts/speed-vs.sh COMMIT [ROUNDS] [SECONDS]
#
# Builds the speed bench of COMMIT in a worktree under target/at/COMMIT (as strength.sh's
# library_at does) with THIS tree's benches/speed.rs copied in (all its library calls are in
# benches/speed/api.rs; when that does not build against COMMIT, the api.rs of commit
# d102052 (before the strong-threads rows of GRAVITY4_THREADS) takes its place, then
# api_before_36.rs (the API from issue 18 to issue 36's pruning), then api_before_18.rs (before the
# restructure of issue 18), those two taken with `git show` from commit e74af81, the last change
# to them: they left the tree, which builds only api.rs), so both run the same rows on the
# same four positions, and the working tree's bench.
# Then, for ROUNDS rounds (default 5), runs each position's classic and strong rows on
# old and new alternately (old first in odd rounds, new first in even ones), SECONDS
# (default 2) per measurement, and prints per-row medians and the ratio new/old, per second
# of on-CPU time of the bench thread (steadier on a shared machine) and per wall second.
# On a shared machine the same binary varies by 10-30% run to run; alternating short runs
# exposes both builds to the same load. ROUNDS = 0 only builds the two benches
# (target/speed-vs/old and new; scripts/speed-callgrind.sh counts their instructions).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
commit=${1:?usage: scripts/speed-vs.sh COMMIT [ROUNDS] [SECONDS]}
rounds=${2:-5}
seconds=${3:-2}
out=target/speed-vs
mkdir -p "$out"

# Prints the path of the speed bench binary built in directory $1.
bench_binary() {
    (cd "$1" && cargo bench --bench speed --no-run 2>&1) |
        sed -n 's/.*Executable benches\/speed.rs (\(.*\))/\1/p' | tail -1
}

dir=target/at/$commit
if [ ! -d "$dir" ]; then
    git worktree add --detach -f "$dir" "$commit" >&2
fi
mkdir -p "$dir/benches/speed"
cp benches/speed.rs "$dir/benches/speed.rs"
cp benches/speed/api.rs "$dir/benches/speed/api.rs"
old=$(bench_binary "$dir" || true)
if [ -z "$old" ]; then
    # Before GRAVITY4_THREADS there is no `parallel` module for the strong-threads rows.
    echo "the bench's api.rs does not build at $commit: trying api.rs of commit d102052" >&2
    git show d102052:benches/speed/api.rs >"$dir/benches/speed/api.rs"
    old=$(bench_binary "$dir" || true)
fi
shims=e74af81
for api in api_before_36 api_before_18; do
    [ -z "$old" ] || break
    echo "the bench's api.rs does not build at $commit: trying $api.rs of commit $shims" >&2
    git show "$shims:benches/speed/$api.rs" >"$dir/benches/speed/api.rs"
    old=$(bench_binary "$dir" || true)
done
new=$(bench_binary .)
[ -n "$old" ] && [ -n "$new" ] || { echo "build failed" >&2; exit 1; }
# Copies, so a rebuild while this runs changes neither side.
cp "$dir/$old" "$out/old" && cp "$new" "$out/new"
echo "old = $commit ($(git -C "$dir" log -1 --format=%h)), new = working tree of $(git log -1 --format=%h)" >&2
((rounds > 0)) || exit 0

positions=4  # the bench's positions() (--position 0..3)
: > "$out/rows.tsv"
for ((r = 1; r <= rounds; r++)); do
    order=(old new)
    if ((r % 2 == 0)); then order=(new old); fi
    for ((p = 0; p < positions; p++)); do
        for which in "${order[@]}"; do
            "$out/$which" "$seconds" --position "$p" --profiles classic,strong --tsv |
                sed "s/^/$which\t/" >> "$out/rows.tsv"
        done
    done
    echo "round $r of $rounds done" >&2
done

python3 - "$out/rows.tsv" <<'PY'
import statistics, sys
rows, order = {}, []
for line in open(sys.argv[1]):
    which, pos, profile, *values = line.rstrip("\n").split("\t")
    key = (pos, profile)
    if key not in rows:
        rows[key] = {"old": [], "new": []}
        order.append(key)
    rows[key][which].append([float(v) for v in values])
# Columns of the bench's TSV after position and profile.
columns = {"iter/s": 0, "ns/ply": 2, "iter/CPU s": 3, "CPU ns/ply": 4}
n = len(rows[order[0]]["old"])
for title, names in [
    (f"per second the bench thread ran on a CPU (medians of {n})", ["iter/CPU s", "CPU ns/ply"]),
    (f"per wall-clock second (medians of {n})", ["iter/s", "ns/ply"]),
]:
    print(title)
    head = f"{'position':<28} {'profile':<8}"
    for name in names:
        head += f" {name + ' old':>15} {name + ' new':>15} {'new/old':>7}"
    print(head)
    for key in order:
        line = f"{key[0]:<28} {key[1]:<8}"
        for name in names:
            i = columns[name]
            o = statistics.median(v[i] for v in rows[key]["old"])
            w = statistics.median(v[i] for v in rows[key]["new"])
            line += f" {o:>15.2f} {w:>15.2f} {w / o:>7.2f}" if "ns" in name else f" {o:>15.0f} {w:>15.0f} {w / o:>7.2f}"
        print(line)
    print()
PY
