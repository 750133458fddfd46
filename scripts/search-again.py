#!/usr/bin/env python3
"""Searches a player's positions of a recorded game again, to see where the game was lost.

Usage: scripts/search-again.py GAMES_JSONL GAME_ID PLAYER [LIB]

Replays game GAME_ID of a judge run (its games.jsonl) and, at each position where PLAYER
(the name in the log, e.g. `libgravity4`) was to move, calls LIB's getPoint through the
course ABI, as the judge does (default LIB: target/release/libgravity4.so). Set the search
with the library's environment, e.g.

    GRAVITY4_MOVE_MS=4000 GRAVITY4_LOG=1 scripts/search-again.py \\
        runs/strength/ladder-2000-seed2029/games.jsonl 9-3-1 libgravity4

Each position prints the ply, the move played in the game, the library's move now and the
empty cells; with GRAVITY4_LOG=1 the library adds its telemetry line (win rate, proof).
"""
import ctypes
import json
import sys


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    log, game_id, player = sys.argv[1:4]
    lib_path = sys.argv[4] if len(sys.argv) == 5 else "target/release/libgravity4.so"
    game = next(
        (g for g in map(json.loads, open(log)) if g["id"] == game_id), None
    )
    if game is None:
        sys.exit(f"no game {game_id!r} in {log}")
    if player not in (game["first"], game["second"]):
        sys.exit(f"{player!r} did not play game {game_id} ({game['first']} vs {game['second']})")
    lib = ctypes.CDLL(lib_path)
    lib.getPoint.restype = ctypes.POINTER(Point)
    lib.getPoint.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                             ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int,
                             ctypes.c_int, ctypes.c_int]
    lib.clearPoint.argtypes = [ctypes.POINTER(Point)]

    b = game["board"]
    rows, cols, no_x, no_y = b["M"], b["N"], b["noX"], b["noY"]
    we_move_first = game["first"] == player
    # Stones as the searched player sees them: 2 its own, 1 the opponent's (the course ABI).
    board = [0] * (rows * cols)
    top = [rows] * cols
    if no_x == rows - 1:
        top[no_y] = rows - 1
    last = (-1, -1)
    for ply, col in enumerate(game["moves"]):
        ours = (ply % 2 == 0) == we_move_first
        if ours:
            point = lib.getPoint(rows, cols, (ctypes.c_int * cols)(*top),
                                 (ctypes.c_int * (rows * cols))(*board),
                                 last[0], last[1], no_x, no_y)
            empties = board.count(0) - 1  # the blocked cell is 0 too
            print(f"ply {ply} played {col} now {point.contents.y} empties {empties}",
                  flush=True)
            lib.clearPoint(point)
        row = top[col] - 1
        board[row * cols + col] = 2 if ours else 1
        top[col] = row - 1 if (col == no_y and row - 1 == no_x) else row
        last = (row, col)


if __name__ == "__main__":
    main()
