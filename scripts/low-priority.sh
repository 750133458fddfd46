#!/usr/bin/env bash
# Runs a command beside a background match without taking the match's CPU.
#
#   scripts/low-priority.sh COMMAND [ARGS...]
#
# Linux groups processes by session ("autogroup": on when
# /proc/sys/kernel/sched_autogroup_enabled is 1, as on the development machines) and shares
# the CPU between groups first: a `nice -n 19` command in a shell still gets a whole group's
# share against a match started with `setsid` (a busy loop got 97 % of a core beside the two
# games of a 2 s gauntlet, and those games' moves fell from 1.99 s to 1.00 s of CPU). This
# starts COMMAND in a session of its own, sets that group's nice to 19, and runs it at nice
# 19: the same busy loop got 3 %, so the match keeps its 2 s a move and the command only
# uses what the match leaves (a build takes many times longer). The exit status is the
# command's.
set -euo pipefail
(($# > 0)) || {
    echo "usage: scripts/low-priority.sh COMMAND [ARGS...]" >&2
    exit 2
}
# shellcheck disable=SC2016 # $@ expands in the inner shell, after the group's nice is set
exec setsid --wait bash -c '
    if [[ -w /proc/self/autogroup ]]; then
        echo 19 > /proc/self/autogroup
    else
        echo "low-priority.sh: no autogroup here; running at nice 19 only" >&2
    fi
    exec nice -n 19 "$@"' low-priority "$@"
