#!/usr/bin/env python3
"""The end phase of a Go game between two GTP programs (go/README.md, Results, Cleanup).

Loads one position into both programs with `loadsgf FILE [N]` (the position before move N;
`all` for the whole main line), then asks the side to move for its move and tells the other
side, until two passes in a row (or MAX moves), and reports our moves: how many, how many
stones, how many of them captured something, how many of our stones the other side
captured later, our time per move, and both programs' `final_score`.

    scripts/go-endphase.py SGF N|all OURS THEIRS COLOUR OURS_CMD THEIRS_CMD [MAX]

OURS and THEIRS are command lines; COLOUR (B or W) is ours; OURS_CMD and THEIRS_CMD are
`genmove` or `kgs-genmove_cleanup`, and THEIRS_CMD `pass` for another side that always
passes (THEIRS is then not started: give `-`).
"""

import shlex
import subprocess
import sys
import time

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def neighbours(p, n):
    x, y = p
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < n and 0 <= y + dy < n:
            yield (x + dx, y + dy)


def liberties(board, p, n):
    """The chain at p and its liberties."""
    colour, stack, chain, libs = board[p], [p], {p}, set()
    while stack:
        q = stack.pop()
        for r in neighbours(q, n):
            if r not in board:
                libs.add(r)
            elif board[r] == colour and r not in chain:
                chain.add(r)
                stack.append(r)
    return chain, libs


def play(board, colour, p, n):
    """Plays a stone; returns the points it captured."""
    board[p] = colour
    taken = set()
    for r in neighbours(p, n):
        if r in board and board[r] != colour:
            chain, libs = liberties(board, r, n)
            if not libs:
                taken |= chain
    for q in taken:
        del board[q]
    return taken


class Gtp:
    def __init__(self, command):
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{command}: the program ended")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        reply = "\n".join(lines)
        if reply.startswith("?"):
            raise RuntimeError(f"{command}: {reply}")
        return reply[1:].strip()


def board_of(showboard):
    """The stones of a `showboard` answer (ours: X black, O white, row numbers first)."""
    rows = [r.split() for r in showboard.splitlines() if r.split() and r.split()[0].isdigit()]
    n = len(rows)
    board = {}
    for row in rows:
        y = n - int(row[0])
        for x, cell in enumerate(row[1:1 + n]):
            if cell in "XO":
                board[(x, y)] = "B" if cell == "X" else "W"
    return board, n


def main():
    sgf, upto, ours_line, theirs_line, ours_colour, ours_cmd, theirs_cmd = sys.argv[1:8]
    limit = int(sys.argv[8]) if len(sys.argv) > 8 else 600
    ours = Gtp(ours_line)
    theirs = None if theirs_cmd == "pass" else Gtp(theirs_line)
    load = f"loadsgf {sgf}" + ("" if upto == "all" else f" {upto}")
    colour = "B" if ours.ask(load).lower().startswith("b") else "W"
    if theirs:
        theirs.ask(load)
    board, n = board_of(ours.ask("showboard"))
    moves, passes, seconds, captures, lost = [], 0, 0.0, 0, 0
    placed_by_us = set()
    while passes < 2 and len(moves) < limit:
        name = "black" if colour == "B" else "white"
        if colour == ours_colour:
            start = time.time()
            move = ours.ask(f"{ours_cmd} {name}")
            seconds += time.time() - start
            if theirs:
                theirs.ask(f"play {name} {move}")
        else:
            move = theirs.ask(f"{theirs_cmd} {name}") if theirs else "pass"
            ours.ask(f"play {name} {move}")
        moves.append((colour, move))
        if move.lower() == "resign":
            break
        if move.lower() == "pass":
            passes += 1
        else:
            passes = 0
            p = (COLUMNS.index(move[0].upper()), n - int(move[1:]))
            taken = play(board, colour, p, n)
            if colour == ours_colour:
                captures += bool(taken)
                placed_by_us.add(p)
            else:
                lost += len(taken & placed_by_us)
            placed_by_us -= taken
        colour = "W" if colour == "B" else "B"
    ours_moves = [m for c, m in moves if c == ours_colour]
    stones = sum(1 for m in ours_moves if m.lower() not in ("pass", "resign"))
    scores = f"final_score ours {ours.ask('final_score')}"
    if theirs:
        scores += f", theirs {theirs.ask('final_score')}"
    print(f"moves {len(moves)}; ours {len(ours_moves)} ({stones} stones, {captures} captured "
          f"something, {lost} of ours captured later); our time {seconds:.2f} s "
          f"({1000 * seconds / max(len(ours_moves), 1):.0f} ms a move); {scores}")
    print(" ".join(f"{c}:{m}" for c, m in moves))


if __name__ == "__main__":
    main()
