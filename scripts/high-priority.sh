#!/usr/bin/env bash
# Runs a strength match that plays a level-based opponent (GNU Go, an alpha-beta engine) at
# the CPU's first call, so that builds beside it do not slow our side alone.
#
#   scripts/high-priority.sh COMMAND [ARGS...]
#
# The mirror of scripts/low-priority.sh: COMMAND runs in a session of its own (its own
# scheduler "autogroup"), and that group's nice is set to -20, which weighs it about 87
# times a nice-0 group: a match of one game at a time then keeps a whole core while other
# work shares what is left. It needs root (writing a negative nice); the caches and the
# memory bus are still shared, so STRENGTH.md and go/README.md say, beside a result taken
# this way, what else ran. The exit status is the command's.
set -euo pipefail
(($# > 0)) || {
    echo "usage: scripts/high-priority.sh COMMAND [ARGS...]" >&2
    exit 2
}
# shellcheck disable=SC2016 # $@ expands in the inner shell, after the group's nice is set
exec setsid --wait bash -c '
    if ! echo -20 > /proc/self/autogroup 2>/dev/null; then
        echo "high-priority.sh: cannot raise the autogroup priority here (not root, or no autogroup)" >&2
        exit 2
    fi
    exec nice -n -20 "$@"' high-priority "$@"
