#!/usr/bin/env bash
# Coverage-guided fuzzing of every reader of outside input (fuzz/, issue 38).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Builds the cargo-fuzz targets (libFuzzer, nightly, AddressSanitizer, debug assertions and
# overflow checks on) and runs each for SECONDS_PER_TARGET (default 60), one after another
# (one core each; the machines are shared), then prints a line per target: executions,
# coverage (libFuzzer's `cov` edges and `ft` features at the end), new inputs, peak memory
# and wall time. Fails on any crash, panic, timeout (over 10 s for one input), leak or
# memory blow-up (over 2 GiB resident): libFuzzer's exit status. The input that failed is
# saved under fuzz/artifacts/TARGET/; `cargo +nightly fuzz run -a TARGET FILE` replays it.
#
# The seeds are fuzz/corpus/TARGET/ (in the repository, replayed by the test suite on
# stable); what the fuzzer finds goes to fuzz/target/corpus/TARGET/, kept between runs so
# that hours add up. fuzz/dicts/TARGET.dict, where there is one, gives libFuzzer the
# words of the format. Logs are in fuzz/target/logs/. Beside a match, run it through
# scripts/low-priority.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

targets=("$@")
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

cargo +nightly fuzz build -a
mkdir -p fuzz/target/logs

failed=()
summary=()
for t in "${targets[@]}"; do
    work=fuzz/target/corpus/$t
    log=fuzz/target/logs/$t.log
    mkdir -p "$work"
    echo "fuzz.sh: $t for ${seconds}s (log: $log)" >&2
    dict=()
    [[ -f fuzz/dicts/$t.dict ]] && dict=(-dict="fuzz/dicts/$t.dict")
    status=0
    start=$(date +%s)
    # New inputs go to the first directory (outside the repository); the seeds are read.
    cargo +nightly fuzz run -a "$t" "$work" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
        -close_fd_mask=3 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1 || status=$?
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
    echo "$line" >&2
    if ((status != 0)); then
        failed+=("$t")
        # The run closed the target's stderr (-close_fd_mask): replay the input once with it
        # open, so the log shows the panic message or the sanitizer's report in full.
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        if [[ -n $artifact && -f $artifact ]]; then
            echo "--- replay of $artifact" >>"$log"
            cargo +nightly fuzz run -a "$t" "$artifact" >>"$log" 2>&1 || true
        fi
        grep -E 'ERROR: |panicked at|SUMMARY: |Test unit written to' "$log" | head -20 >&2 || true
    fi
done

echo
printf '%s\n' "${summary[@]}"
if ((${#failed[@]} > 0)); then
    echo "fuzz.sh: FAILED: ${failed[*]} (inputs under fuzz/artifacts/, logs under fuzz/target/logs/)" >&2
    exit 1
fi
