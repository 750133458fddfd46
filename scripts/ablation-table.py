#!/usr/bin/env python3
"""The ablation table of a field run, as Markdown (STRENGTH.md, issue 17).

    scripts/ablation-table.py RUN_DIR

RUN_DIR is a gauntlet from `scripts/strength.sh ablation-field` (or `field`): the base
opponent (the gauntlet's first player, d600866) against the default (`PROFILE=strong`)
and each configuration with a technique switched off, all on the same boards. Run
`judge report RUN_DIR` first so that its summary.json holds every whole pair played.

One row per configuration: its result against the base opponent, Elo from the pentanomial
counts, and the default's score minus its own on the boards both completed, with the 95 %
margin and the likelihood that the default is the stronger (the judge's `comparisons`).
"""

import json
import sys
from pathlib import Path


def elo_text(elo, score_pct):
    """`+315 ± 96`, or +inf/-inf at 100 % / 0 %, `± inf` when the judge gives no margin."""
    if elo["elo"] is None:
        return "+inf" if score_pct > 50 else "-inf"
    margin = "inf" if elo["margin95"] is None else f"{elo['margin95']:.0f}"
    return f"{elo['elo']:+.0f} ± {margin}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/ablation-table.py RUN_DIR")
    run = Path(sys.argv[1])
    if not (run / "summary.json").is_file():
        sys.exit(f"{run}: no summary.json (run `judge report {run}` first)")
    summary = json.loads((run / "summary.json").read_text())
    base = json.loads((run / "run.json").read_text())["names"][0]
    players = {p["name"]: p for p in summary["players"]}
    default = next((n for n in players if n.endswith("PROFILE=strong")), None)
    if default is None:
        sys.exit(f"{run}: no PROFILE=strong player, not an ablation run")

    print(
        f"| configuration | games | W-D-L vs {base} | score | Elo vs {base} (pentanomial) "
        "| CPU ms/move | default's score minus this one's, per board (boards) "
        "| LOS default stronger |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for pairing in summary["pairings"]:
        if pairing["a"] != base:
            continue
        name = pairing["b"]
        # The pairing is from the base opponent's side: our wins are its losses.
        w, d, l = pairing["losses"], pairing["draws"], pairing["wins"]
        games = w + d + l
        score = 100 * (w + d / 2) / games if games else 0.0
        penta = pairing["elo_pentanomial"]
        # (+ 0.0: no "-0" for a level score.)
        ours = {"elo": None if penta["elo"] is None else -penta["elo"] + 0.0,
                "margin95": penta["margin95"]}
        cpu = players[name].get("cpu_ms_mean")
        diff, los = "-", "-"
        for c in summary.get("comparisons", []):
            if {c["a"], c["b"]} == {default, name} and name != default:
                sign = 1 if c["a"] == default else -1
                diff = (f"{sign * c['score_diff_pct']:+.1f} ± {c['margin95_pct']:.1f} "
                        f"points ({c['boards']})")
                los = f"{c['los'] if sign == 1 else 1 - c['los']:.2f}"
        label = name.split("@", 1)[-1]
        cpu_text = "-" if cpu is None else f"{cpu:.0f}"
        print(f"| {label} | {games} | {w}-{d}-{l} | {score:.1f} % | {elo_text(ours, score)} "
              f"| {cpu_text} | {diff} | {los} |")


if __name__ == "__main__":
    main()
