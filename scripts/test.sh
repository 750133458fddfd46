#!/usr/bin/env bash
# The whole test suite: the strategy library (unit tests, rules property tests, the cdylib
# loaded as the course judge loads it, a g++ host), the judge (isolation against misbehaving
# libraries, statistics), and the ladder. This is the README's test command; CI runs it too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v g++ >/dev/null || ! command -v cc >/dev/null; then
    echo "test.sh: g++ and cc are needed (the C/C++ host and fixture libraries): apt-get install g++" >&2
    exit 1
fi

cargo test --workspace --release
cargo test --release --manifest-path ladder/Cargo.toml --target-dir target/ladder-build
