#!/usr/bin/env bash
# Coverage-guided fuzzing of every reader of outside input (fuzz/, issue 38).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   scripts/fuzz.sh --ledger
#
# Builds the cargo-fuzz targets (libFuzzer, nightly, AddressSanitizer, debug assertions and
# overflow checks on) and runs each for SECONDS_PER_TARGET (default 60), one after another
# (one core each; the machines are shared), then prints a line per target: executions,
# coverage (libFuzzer's `cov` edges and `ft` features at the end), new inputs, peak memory
# and wall time. Fails on any crash, panic, timeout (over 10 s for one input), leak or
# memory blow-up (over 2 GiB resident): libFuzzer's exit status. The input that failed is
# saved under fuzz/artifacts/TARGET/; `cargo +nightly fuzz run -a TARGET FILE` replays it.
# The Python targets, fuzz/python/TARGET.py, run the same way, after the Rust ones, with
# atheris (installed by pip when missing; where it cannot be, they are skipped with a line
# saying so); `python3 fuzz/python/TARGET.py FILE` replays an input.
#
# The seeds are fuzz/corpus/TARGET/ (in the repository, replayed by the test suite on
# stable); what the fuzzer finds goes to fuzz/target/corpus/TARGET/, kept between runs so
# that hours add up. fuzz/dicts/TARGET.dict, where there is one, gives libFuzzer the
# words of the format. Each run's log is fuzz/target/logs/TARGET-DATETIME.log. Beside a
# match, run it through scripts/low-priority.sh.
#
# Every run of a target appends a line to fuzz/ledger.tsv (committed): when (UTC), the
# commit (`+` when the tree had changes), the target, seconds fuzzed, executions, cov, ft,
# files in its corpus, peak RSS in MB, the result (ok, crash, timeout, leak, oom) and the
# load average at its start. `--ledger` sums it per target: runs, hours, executions.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ledger=fuzz/ledger.tsv

if [[ ${1:-} == --ledger ]]; then
    # Per target: runs, hours and executions fuzzed in all, the last run's coverage and
    # result, and the runs that did not end ok.
    printf "%-18s %5s %8s %14s %7s %8s %-8s %s\n" target runs hours executions cov ft last "not ok"
    awk -F'\t' 'NR > 1 {
        runs[$3]++; secs[$3] += $4; execs[$3] += $5; cov[$3] = $6; ft[$3] = $7
        last[$3] = $10; if ($10 != "ok") bad[$3]++
    } END {
        for (t in runs) printf "%-18s %5d %8.2f %14d %7s %8s %-8s %d\n", t, runs[t], secs[t] / 3600, execs[t], cov[t], ft[t], last[t], bad[t]
    }' "$ledger" | sort
    exit 0
fi

seconds=${1:-60}
shift || true
[[ $seconds =~ ^[0-9]+$ ]] || {
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
}

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz.sh: needs the nightly toolchain: rustup toolchain install nightly" >&2
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz
fi

# The Python targets: fuzz/python/NAME.py.
python_targets=()
shopt -s nullglob
for f in fuzz/python/*.py; do
    python_targets+=("$(basename "$f" .py)")
done
is_python() {
    local p
    for p in "${python_targets[@]}"; do [[ $p == "$1" ]] && return 0; done
    return 1
}

targets=("$@")
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(cargo +nightly fuzz list)
    targets+=("${python_targets[@]}")
fi

# The Python targets need atheris: installed here as cargo-fuzz is above, from a prebuilt
# wheel (building it from source needs clang's libFuzzer). Where that fails they are
# skipped with a line saying what to install, and the run's result is that of the others.
python=()
for t in "${targets[@]}"; do is_python "$t" && python+=("$t"); done
if ((${#python[@]} > 0)) && ! python3 -c 'import atheris' 2>/dev/null; then
    echo "fuzz.sh: installing atheris" >&2
    mkdir -p fuzz/target/logs
    python3 -m pip install --only-binary=:all: atheris >fuzz/target/logs/pip-atheris.log 2>&1 || true
    if ! python3 -c 'import atheris' 2>/dev/null; then
        echo "fuzz.sh: skipping ${python[*]}: no atheris for $(python3 --version 2>&1) (pip install atheris; from source it needs clang; pip's words: fuzz/target/logs/pip-atheris.log)" >&2
        rest=()
        for t in "${targets[@]}"; do is_python "$t" || rest+=("$t"); done
        targets=("${rest[@]}")
    fi
fi

rust=0
for t in "${targets[@]}"; do is_python "$t" || rust=1; done
((rust == 0)) || cargo +nightly fuzz build -a
mkdir -p fuzz/target/logs
[[ -f $ledger ]] || printf 'utc\tcommit\ttarget\tseconds\texecutions\tcov\tft\tcorpus_files\tpeak_rss_mb\tresult\tload_at_start\n' >"$ledger"
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!fuzz/ledger.tsv' 2>/dev/null || commit+=+

failed=()
summary=()
for t in "${targets[@]}"; do
    work=fuzz/target/corpus/$t
    when=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    log=fuzz/target/logs/$t-$(date -u -d "$when" +%Y%m%dT%H%M%SZ).log
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -)
    mkdir -p "$work"
    echo "fuzz.sh: $t for ${seconds}s (log: $log)" >&2
    dict=()
    [[ -f fuzz/dicts/$t.dict ]] && dict=(-dict="fuzz/dicts/$t.dict")
    status=0
    start=$(date +%s)
    # New inputs go to the first directory (outside the repository); the seeds are read.
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1
        -close_fd_mask=3 -print_final_stats=1 "${dict[@]}")
    if is_python "$t"; then
        replay=(python3 "fuzz/python/$t.py")
        mkdir -p "fuzz/artifacts/$t"
        python3 "fuzz/python/$t.py" "$work" "fuzz/corpus/$t" -artifact_prefix="fuzz/artifacts/$t/" \
            "${options[@]}" >"$log" 2>&1 || status=$?
    else
        replay=(cargo +nightly fuzz run -a "$t")
        cargo +nightly fuzz run -a "$t" "$work" "fuzz/corpus/$t" -- "${options[@]}" >"$log" 2>&1 || status=$?
    fi
    # libFuzzer's own count of the seconds it fuzzed; after a crash (no count), the wall
    # time (the targets were built above, so no build is in it).
    wall=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    wall=${wall:-$(($(date +%s) - start))}
    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    last=$(grep -E '^#[0-9]+.* cov: ' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    # After a crash there are no final stats: the last status line's count.
    execs=$(final_stat number_of_executed_units)
    execs=${execs:-$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")}
    line=$(printf '%-16s %12s execs  cov %6s  ft %7s  new %5s  rss %5s MB  %6ss  %s' \
        "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
        "$(final_stat new_units_added)" "$(final_stat peak_rss_mb)" "$wall" \
        "$( ((status == 0)) && echo ok || echo "FAILED (exit $status)")")
    summary+=("$line")
    result=ok
    if ((status != 0)); then
        if grep -q 'ERROR: libFuzzer: timeout' "$log"; then
            result=timeout
        elif grep -q 'ERROR: LeakSanitizer' "$log"; then
            result=leak
        elif grep -q 'ERROR: libFuzzer: out-of-memory' "$log"; then
            result=oom
        else
            result=crash
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$when" "$commit" "$t" "$wall" \
        "${execs:-0}" "${cov:--}" "${ft:--}" "$(find "$work" -type f | wc -l)" \
        "$(rss=$(final_stat peak_rss_mb) && echo "${rss:--}")" "$result" "$load" >>"$ledger"
    echo "$line" >&2
    if ((status != 0)); then
        failed+=("$t")
        # The run closed the target's stderr (-close_fd_mask): replay the input once with it
        # open, so the log shows the panic message or the sanitizer's report in full. A
        # timeout's input hangs again on replay: a minute at most, or the script never ends.
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        if [[ -n $artifact && -f $artifact ]]; then
            echo "--- replay of $artifact" >>"$log"
            timeout --kill-after=5 60 "${replay[@]}" "$artifact" >>"$log" 2>&1 || true
        fi
        grep -E 'ERROR: |panicked at|SUMMARY: |Test unit written to' "$log" | head -20 >&2 || true
    fi
done

echo
printf '%s\n' "${summary[@]}"
if ((${#failed[@]} > 0)); then
    echo "fuzz.sh: FAILED: ${failed[*]} (inputs under fuzz/artifacts/, logs under fuzz/target/logs/, lines in $ledger)" >&2
    exit 1
fi
