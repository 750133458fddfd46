#!/usr/bin/env python3
"""Fuzz target `saiblo_main_py`: the reader of saiblo/package/main.py (the Saiblo upload),
with atheris (`pip install atheris`), coverage-guided like the Rust targets.

Input: what the platform writes to the program's stdin, a blank line standing for the
platform's pause while it waits for the answer (as the Rust target `saiblo_reader` reads
its inputs): main.py's own Input reads it from a pipe, and each part after a pause is
written into the pipe once the program has answered (or once it waits for input without
a deadline, as the platform's next message would come). The library is replaced by a
stand-in that answers the first open column through the same ctypes call, so the reader,
the game it keeps and its check of the library's answer run as uploaded. The promise:
every input is played to its end or refused with main.py's Failure (a message, which
main() prints on one line); never another exception; every reply is a frame of `x y`,
one per move asked.

  python3 fuzz/python/saiblo_main_py.py [libFuzzer options] [CORPUS...]   fuzz (atheris)
  python3 fuzz/python/saiblo_main_py.py --replay PATH...                  replay files or
      directories without atheris (the test suite does: fuzz/harness/tests/replay.rs)
  python3 fuzz/python/saiblo_main_py.py --seeds DIR                       write the seeds:
      games against the stand-in in four of the platform's forms (the corpus also holds
      the Rust target's seeds, the judge's real messages to the Rust program)
"""

import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "..", "..", "saiblo", "package")

# Longest input taken: the parts must fit in a pipe's buffer (64 KiB) without a reader.
MAX_INPUT = 60000


def load_main(instrument):
    sys.path.insert(0, PACKAGE)
    if instrument:
        import atheris
        with atheris.instrument_imports():
            import main
    else:
        import main
    # No waiting on the clock: a bare move's wait for the board ends at once when no
    # more input is in the pipe (pauses are where the harness holds the input back).
    main.FIRST_MESSAGE_GRACE = 0.0
    return main


class StandIn:
    """libgravity4.so's getPoint/clearPoint: the lowest-numbered open column, read from
    `top` as the library would read it."""

    def __init__(self, main):
        self.main = main
        self.asked = 0
        self.on_ask = None

    def getPoint(self, rows, cols, top, board, last_x, last_y, no_x, no_y):
        self.asked += 1
        if self.on_ask:
            self.on_ask()
        for col in range(cols):
            if top[col] > 0:
                return ctypes.pointer(self.main.Point(top[col] - 1, col))
        return ctypes.POINTER(self.main.Point)()

    def clearPoint(self, point):
        pass


def run(main, data):
    data = data[:MAX_INPUT]
    # The platform's messages, split at its pauses (blank lines).
    parts, current = [], []
    for line in data.split(b"\n"):
        if line.strip() == b"" and current:
            parts.append(b"\n".join(current) + b"\n")
            current = []
        elif line.strip() != b"":
            current.append(line)
    if current:
        parts.append(b"\n".join(current))
    # Input that ends in a pause stays open until the program has answered after it;
    # otherwise it ends with its last part.
    pause_at_end = not current
    read_fd, write_fd = os.pipe()
    state = {"write": write_fd}

    def release():
        """The platform's next part, or the end of its input."""
        if state["write"] is None:
            return
        if parts:
            os.write(state["write"], parts.pop(0))
        if not parts and not pause_at_end or state["released_last"]:
            os.close(state["write"])
            state["write"] = None
        state["released_last"] = not parts
    state["released_last"] = False

    class Paced(main.Input):
        def line(self, timeout=None):
            if timeout is not None:
                return main.Input.line(self, timeout)
            # Waiting without a deadline: whatever is in the pipe is read (a wait that ends
            # at once), and when it holds no line the platform sends its next part.
            while True:
                text = main.Input.line(self, 0.0)
                if text is not None:
                    return text
                release()

    replies = []

    def send(text):
        replies.append(text)

    engine = main.Engine.__new__(main.Engine)
    engine.budget_ms = 1
    engine.lib = StandIn(main)
    engine.lib.on_ask = release
    main.send = send
    release()
    try:
        main.play(Paced(read_fd), engine)
    except main.Failure as failure:
        assert str(failure).strip(), "a Failure without a message"
    finally:
        os.close(read_fd)
        if state["write"] is not None:
            os.close(state["write"])
    assert len(replies) == engine.lib.asked, (replies, engine.lib.asked)
    for text in replies:
        words = text.split(" ")
        assert len(words) == 2 and all(w.lstrip("-").isdigit() for w in words), text


def replay(main, paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, f) for f in os.listdir(path))
        else:
            files.append(path)
    failed = []
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        try:
            run(main, data)
        except Exception as error:  # every kind: the promise is Failure or nothing
            failed.append("%s: %s: %s" % (path, type(error).__name__, error))
    for line in failed:
        print(line, file=sys.stderr)
    print("%d inputs, %d broke the promise" % (len(files), len(failed)), file=sys.stderr)
    return 1 if failed or not files else 0


def seeds(main, directory):
    """Whole games as the platform sends them to a program that plays as the stand-in."""
    board_specs = [(9, 9, 5, 4), (6, 7, 0, 6), (12, 12, 11, 3)]
    opponent = [3, 4, 2, 5, 3, 3, 1, 6, 0, 8, 7, 4, 4, 2]
    forms = ["counted", "uncounted", "lines", "last"]
    for k, (rows, cols, no_x, no_y) in enumerate(board_specs):
        for f, form in enumerate(forms):
            game = main.Game(rows, cols, no_x, no_y)
            text = "%d %d %d %d\n" % (rows, cols, no_x, no_y)
            we_first = (k + f) % 2 == 0
            last = (-1, -1)
            turn = 0
            while game.ending is None:
                ours = (turn % 2 == 0) == we_first
                if ours:
                    # The platform's message (board from our side, as main.Game keeps it).
                    top = " ".join(map(str, game.top))
                    board = " ".join(map(str, game.board))
                    n, cells = cols, rows * cols
                    text += {
                        "counted": "%d %d %d %s %d %s\n" % (last + (n, top, cells, board)),
                        "uncounted": "%d %d %s %s\n" % (last + (top, board)),
                        "lines": "%d %d\n%s\n%s\n" % (last + (top, "\n".join(
                            " ".join(map(str, game.board[r * cols:(r + 1) * cols]))
                            for r in range(rows)))),
                        "last": "%d %d\n" % last,
                    }[form] + "\n"
                    col = next(c for c in range(cols) if game.top[c] > 0)
                    game.play(main.US, game.top[col] - 1, col)
                else:
                    col = next(c for c in opponent[turn % len(opponent):] + list(range(cols))
                               if 0 <= c < cols and game.top[c] > 0)
                    last = (game.top[col] - 1, col)
                    game.play(main.OPPONENT, last[0], col)
                turn += 1
            if (turn % 2 == 0) == we_first:
                text += "%d %d\n" % last
            with open(os.path.join(directory, "seed-game-%s-%d" % (form, k)), "w") as f:
                f.write(text)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seeds"]:
        sys.exit(seeds(load_main(False), sys.argv[2]))
    if sys.argv[1:2] == ["--replay"]:
        sys.exit(replay(load_main(False), sys.argv[2:]))
    import atheris
    MAIN = load_main(True)
    atheris.Setup(sys.argv, lambda data: run(MAIN, data))
    atheris.Fuzz()
