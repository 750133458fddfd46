#!/usr/bin/env bash
# The whole test suite: the strategy library (unit tests, rules property tests, the cdylib
# loaded as the course judge loads it, a g++ host), the judge (isolation against misbehaving
# libraries, statistics, the report in headless Chromium), the ladder, and the other workspace
# crates. This is the README's test command; CI runs it too.
#
# On a fresh machine it first installs what the tests need and the Rust toolchain does not
# bring: a C and C++ compiler (the fixture libraries and the C++ host), Chromium (the
# report's browser test), GNU parallel (the sharded-run recipe's test), gtp-rhino and GNU Go
# (the Othello and Go engines' partners), from Debian's packages when apt-get is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Installs the Debian packages "$@" when apt-get can; otherwise says what is missing and stops.
install_or_explain() {
    local why=$1
    shift
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "test.sh: installing $* ($why)" >&2
        { apt-get update -qq && apt-get install -y -qq "$@" >/dev/null; } || {
            echo "test.sh: could not install $* ($why); install them by hand and rerun" >&2
            exit 1
        }
    elif command -v apt-get >/dev/null && command -v sudo >/dev/null; then
        echo "test.sh: installing $* with sudo ($why)" >&2
        sudo apt-get update -qq && sudo apt-get install -y -qq "$@" >/dev/null
    else
        echo "test.sh: $why needs $*: install them with your package manager and rerun" >&2
        exit 1
    fi
}

if ! command -v g++ >/dev/null || ! command -v cc >/dev/null; then
    install_or_explain "C and C++ fixture libraries and the C++ host" g++
fi
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
    install_or_explain "the judge's report test in headless Chromium" chromium
fi
if ! command -v parallel >/dev/null; then
    install_or_explain "the judge's GNU parallel shard recipe test" parallel
fi

if [ ! -x /usr/games/gtp-rhino ] && command -v apt-get >/dev/null; then
    install_or_explain "the judge's match against Debian's GTP Othello engine gtp-rhino" grhino
fi
if [ ! -x /usr/games/gnugo ] && command -v apt-get >/dev/null; then
    install_or_explain "the Go engine's games against GNU Go over GTP and GMP" gnugo
fi

# Profile `ci`: release's optimisation, without release's fat LTO (Cargo.toml says why).
cargo test --workspace --profile ci
cargo test --profile ci --manifest-path ladder/Cargo.toml --target-dir target/ladder-build
