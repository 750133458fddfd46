#!/usr/bin/env python3
"""gravity4 on Saiblo: the platform's stdin/stdout protocol around libgravity4.so.

Saiblo runs a zip whose root holds main.py with Python 3. This file speaks the platform's
protocol and asks the Rust engine, libgravity4.so beside it, for every move through the
course's C ABI (getPoint/clearPoint), exactly as the course's runner would.

Protocol (see saiblo/README.md in the gravity4 repository for the sources):
  at start-up           a framed "ok", sent before reading anything (the platform's own
                        template does; SEND_HELLO below)
  first line            M N noX noY
  before each move      lastX lastY  (-1 -1 when we start) leading a line, optionally
                        followed by top (N numbers) and the board (M*N numbers: 0 empty,
                        1 opponent, 2 us), each block optionally preceded by its count (the
                        template reads "lastX lastY N top... MN board..."), on the move's
                        line and any number of lines after it, in any layout
  each reply            4-byte big-endian length, then "x y" (row 0 is the top row)

The program keeps its own board from the moves; a top or board the platform sends must
agree with it. Malformed input, an illegal move, a contradicting board or an early end of
input: one line on stderr and exit status 1. End of input after a finished game: status 0.

Python 3.6 or newer, standard library only. GRAVITY4_MOVE_MS and the other GRAVITY4_*
variables reach the library through the environment.
"""

import time

# The platform's clock for our first move may start with the process: count from here.
STARTED = time.monotonic()

import ctypes  # noqa: E402 (after the clock starts, on purpose)
import os  # noqa: E402
import select  # noqa: E402
import struct  # noqa: E402
import sys  # noqa: E402

# The platform's own template sends a framed "ok" before reading anything ("DO NOT REMOVE
# THIS LINE!"); set False (or package with scripts/saiblo-package.sh --no-hello) only for a
# platform version that does not expect it.
SEND_HELLO = True

# How long a bare move waits for top and the board before the program decides the platform
# sends moves only; only the first message waits (see the Rust program's FIRST_MESSAGE_GRACE).
FIRST_MESSAGE_GRACE = 0.2

# Longest line accepted: a 12x12 board is 144 small numbers.
MAX_LINE_BYTES = 64 * 1024

# The library's budget per move (GRAVITY4_MOVE_MS) counts from its entry, but ours counts
# from the message's arrival (the platform's 3 s do): before each call the remaining time is
# handed to the library through the same variable, which it reads on every call.
ENV_MOVE_MS = "GRAVITY4_MOVE_MS"
DEFAULT_MOVE_MS = 2000

LIBRARY = "libgravity4.so"
NAME = "gravity4-saiblo (main.py)"

MIN_SIZE, MAX_SIZE = 4, 12
OPPONENT, US = 1, 2


class Failure(Exception):
    """Ends the program with this message on one stderr line and status 1."""


class EndOfInput(Exception):
    """The platform closed our input."""


class Input:
    """Lines from a file descriptor, with an optional wait limit (select on the raw fd,
    since Python's buffered stdin cannot say whether a line is coming)."""

    def __init__(self, fd):
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def ready(self):
        """True iff a whole line is already here, without waiting."""
        if b"\n" in self.buffer or self.eof:
            return True
        readable, _, _ = select.select([self.fd], [], [], 0)
        return bool(readable)

    def line(self, timeout=None):
        """The next non-blank line, or None if none arrives within `timeout` seconds
        (None: wait as long as it takes). Raises EndOfInput at the end."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0 or (self.eof and self.buffer):
                end = newline if newline >= 0 else len(self.buffer)
                raw, self.buffer = self.buffer[:end], self.buffer[end + 1:]
                if len(raw) > MAX_LINE_BYTES:
                    raise Failure("cannot read the input: a line longer than %d bytes" % MAX_LINE_BYTES)
                try:
                    text = raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError:
                    raise Failure("cannot read the input: a line that is not UTF-8 text")
                if text.strip():
                    return text
                continue
            if self.eof:
                raise EndOfInput()
            if len(self.buffer) > MAX_LINE_BYTES:
                raise Failure("cannot read the input: a line longer than %d bytes" % MAX_LINE_BYTES)
            if deadline is not None:
                # A deadline already past still looks once: data may be waiting in the pipe.
                remaining = max(0.0, deadline - time.monotonic())
                ready, _, _ = select.select([self.fd], [], [], remaining)
                if not ready:
                    return None
            try:
                chunk = os.read(self.fd, 65536)
            except OSError as error:
                raise Failure("cannot read standard input: %s" % error)
            if chunk:
                self.buffer += chunk
            else:
                self.eof = True


def integers(text):
    try:
        return [int(word) for word in text.split()]
    except ValueError:
        bad = next(w for w in text.split() if not _is_int(w))
        raise Failure("malformed input: %r is not an integer in %r" % (bad, text))


def _is_int(word):
    try:
        int(word)
        return True
    except ValueError:
        return False


class Game:
    """The board as the course ABI lays it out, from our point of view, kept from the moves."""

    def __init__(self, rows, cols, blocked_row, blocked_col):
        if not (MIN_SIZE <= rows <= MAX_SIZE and MIN_SIZE <= cols <= MAX_SIZE):
            raise Failure("bad first line: board size %dx%d is outside %d..=%d"
                          % (rows, cols, MIN_SIZE, MAX_SIZE))
        if not (0 <= blocked_row < rows and 0 <= blocked_col < cols):
            raise Failure("bad first line: blocked cell (%d, %d) is off the %dx%d board"
                          % (blocked_row, blocked_col, rows, cols))
        self.rows, self.cols = rows, cols
        self.blocked = (blocked_row, blocked_col)
        # A blocked bottom cell is skipped from the start (docs/ABI.md).
        self.top = [rows - (1 if self.blocked == (rows - 1, c) else 0) for c in range(cols)]
        self.board = [0] * (rows * cols)
        self.moves = 0
        self.ending = None  # "we won", "the opponent won" or "a tie"

    def copy(self):
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.top = list(self.top)
        other.board = list(self.board)
        return other

    def landing_row(self, col):
        if 0 <= col < self.cols and self.top[col] > 0:
            return self.top[col] - 1
        return None

    def play(self, player, row, col):
        """Plays a stone after checking it lands there; returns an error sentence or None."""
        if self.ending is not None:
            return "the game is already over (%s)" % self.ending
        if not 0 <= col < self.cols:
            return "column %d is off the board (0..%d)" % (col, self.cols)
        landing = self.landing_row(col)
        if landing is None:
            return "column %d is full" % col
        if row != landing:
            return ("(%d, %d) is not the landing cell of column %d, which is row %d"
                    % (row, col, col, landing))
        self.board[landing * self.cols + col] = player
        following = landing
        if following > 0 and (following - 1, col) == self.blocked:
            following -= 1
        self.top[col] = following
        self.moves += 1
        if self._makes_four(player, landing, col):
            self.ending = "we won" if player == US else "the opponent won"
        elif all(t == 0 for t in self.top):
            self.ending = "a tie"
        return None

    def _makes_four(self, player, row, col):
        def owns(r, c):
            return (0 <= r < self.rows and 0 <= c < self.cols
                    and self.board[r * self.cols + c] == player)

        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                k = 1
                while k < 4 and owns(row + sign * k * dr, col + sign * k * dc):
                    count += 1
                    k += 1
            if count >= 4:
                return True
        return False

    def contradiction(self, top, board):
        for i in range(self.rows * self.cols):
            if board[i] != self.board[i]:
                return ("the platform's board has %d at (%d, %d) where the %d moves so far put %d"
                        % (board[i], i // self.cols, i % self.cols, self.moves, self.board[i]))
        for col in range(self.cols):
            if top[col] != self.top[col]:
                return ("the platform's top[%d] is %d where the %d moves so far give %d"
                        % (col, top[col], self.moves, self.top[col]))
        return None


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class Engine:
    """libgravity4.so through the course ABI."""

    def __init__(self, path, budget_ms):
        self.budget_ms = budget_ms
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as error:
            raise Failure("cannot load %s: %s" % (path, error))
        self.lib.getPoint.restype = ctypes.POINTER(Point)
        self.lib.getPoint.argtypes = [ctypes.c_int, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                      ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.lib.clearPoint.restype = None
        self.lib.clearPoint.argtypes = [ctypes.POINTER(Point)]

    def choose(self, game, last, arrival):
        spent_ms = (time.monotonic() - arrival) * 1000.0
        os.environ[ENV_MOVE_MS] = str(max(1, int(self.budget_ms - spent_ms)))
        top = (ctypes.c_int * game.cols)(*game.top)
        board = (ctypes.c_int * (game.rows * game.cols))(*game.board)
        point = self.lib.getPoint(game.rows, game.cols, top, board, last[0], last[1],
                                  game.blocked[0], game.blocked[1])
        if not point:
            raise Failure("the library returned no move (see its line above)")
        x, y = point.contents.x, point.contents.y
        self.lib.clearPoint(point)
        if game.landing_row(y) != x:
            raise Failure("the library answered (%d, %d), which is not a legal move" % (x, y))
        return x, y


def send(text):
    data = text.encode("ascii")
    try:
        sys.stdout.buffer.write(struct.pack(">I", len(data)) + data)
        sys.stdout.buffer.flush()
    except OSError as error:
        raise Failure("cannot write the reply: %s" % error)


def view_size(numbers, game):
    """How many numbers the view (top and the board) that `numbers` begin has: N + M*N, or
    2 more when each block is preceded by its count ("N top... MN board..."). Counted iff
    the first number is N and the one after N + 1 numbers is M*N (without counts that one is
    the board's second value, 0 to 2); with fewer than N + 2 numbers in, N + M*N (both forms
    have at least that many, so the form is settled before the view can be complete)."""
    cols, cells = game.cols, game.rows * game.cols
    counted = len(numbers) >= cols + 2 and numbers[0] == cols and numbers[cols + 1] == cells
    return cols + cells + 2 if counted else cols + cells


def split_view(numbers, game):
    """(top, board) from exactly the view's numbers; more of them is malformed."""
    cols, cells = game.cols, game.rows * game.cols
    size = view_size(numbers, game)
    if len(numbers) != size:
        raise Failure("malformed input: after the move, expected %d top and %d board values (each block "
                      "optionally preceded by its count), got %d values" % (cols, cells, len(numbers)))
    counts = 1 if size > cols + cells else 0
    return numbers[counts:counts + cols], numbers[size - cells:]


def complete_view(source, game, numbers):
    """The view that `numbers` begin, completed from as many further lines as it takes,
    whatever their layout; None if the input ends inside it after the game ended."""
    numbers = list(numbers)
    while len(numbers) < view_size(numbers, game):
        try:
            numbers.extend(integers(source.line()))
        except EndOfInput:
            if game.ending is not None:
                return None
            raise Failure("end of input before the game ended (the message's `top` and board "
                          "stopped after %d values)" % len(numbers))
    return split_view(numbers, game)


def read_view(source, game, timeout):
    """top and the board starting on the line after a bare move, if one comes within
    `timeout` (None: as long as it takes)."""
    try:
        text = source.line(timeout)
    except EndOfInput:
        if game.ending is not None or timeout is not None:
            return None
        raise Failure("end of input before the game ended (`top` never came)")
    if text is None:
        return None
    return complete_view(source, game, integers(text))


def play(source, engine):
    """One game; returns how it ended once the input closes after it."""
    try:
        first = source.line()
    except EndOfInput:
        raise Failure("end of input before the game ended (no first line `M N noX noY`)")
    numbers = integers(first)
    if len(numbers) != 4:
        raise Failure("malformed input: the first line must be `M N noX noY`, got %r" % first)
    game = Game(*numbers)
    form = "unknown"  # then "moves only" or "with board"
    asked = None  # the record as of our last request, for a view arriving after our answer
    while True:
        # A first message already waiting may have been sent when we started: count it from
        # then (start-up included), later ones from their arrival.
        waiting_since_start = game.moves == 0 and source.ready()
        try:
            text = source.line()
        except EndOfInput:
            if game.ending is not None:
                return game.ending
            raise Failure("end of input before the game ended (%d moves played, no result)" % game.moves)
        arrival = process_start() if waiting_since_start else time.monotonic()
        numbers = integers(text)
        if len(numbers) != 2 and form == "moves only" and asked is not None:
            # top and the board came after the first message's wait: check them against
            # the position they describe, and expect them from now on.
            view = complete_view(source, asked, numbers)
            if view is None:
                raise Failure("end of input before the game ended (the board never came)")
            why = asked.contradiction(view[0], view[1])
            if why:
                raise Failure("the board contradicts the moves so far: " + why)
            form = "with board"
            continue
        if game.ending is not None:
            raise Failure("malformed input: more input after the game ended (%s): %r" % (game.ending, text))
        if len(numbers) < 2:
            raise unexpected_line(text, game)
        row, col = numbers[0], numbers[1]
        if (row, col) == (-1, -1):
            if game.moves > 0:
                raise Failure("malformed input: `-1 -1` (we move first) after %d moves" % game.moves)
        else:
            error = game.play(OPPONENT, row, col)
            if error:
                raise Failure("illegal opponent move (%d, %d): %s" % (row, col, error))
        if len(numbers) > 2:
            form = "with board"
            view = complete_view(source, game, numbers[2:])
        else:
            timeout = {"unknown": FIRST_MESSAGE_GRACE, "with board": None, "moves only": 0.0}[form]
            view = read_view(source, game, timeout)
            if view is not None:
                form = "with board"
            elif form == "unknown":
                form = "moves only"
        if view is not None:
            why = game.contradiction(view[0], view[1])
            if why:
                raise Failure("the board contradicts the moves so far: " + why)
        if game.ending is not None:
            continue
        asked = game.copy()
        x, y = engine.choose(game, (row, col), arrival)
        send("%d %d" % (x, y))
        game.play(US, x, y)


def unexpected_line(text, game):
    return Failure("malformed input: expected `lastX lastY` (optionally followed by %d top and %d board "
                   "values), got %r" % (game.cols, game.rows * game.cols, text))


def process_start():
    """The time.monotonic() value at which this process was started, from /proc: the
    interpreter's own start-up (which can take a few hundred ms on a busy machine) happens
    before STARTED and counts against the first move too. STARTED where /proc says nothing."""
    try:
        with open("/proc/self/stat") as stat_file:
            stat = stat_file.read()
        # Field 22 (starttime, in clock ticks after boot); the fields after "pid (comm) "
        # start at field 3.
        start_ticks = int(stat[stat.rindex(")") + 2:].split()[19])
        with open("/proc/uptime") as uptime_file:
            uptime = float(uptime_file.read().split()[0])
        since_start = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return STARTED
    return min(STARTED, time.monotonic() - max(0.0, since_start))


def budget_ms():
    text = os.environ.get(ENV_MOVE_MS)
    if text is None:
        return DEFAULT_MOVE_MS
    try:
        value = int(text.strip())
    except ValueError:
        value = 0
    if value <= 0:
        print("%s: ignoring %s=%r: expected milliseconds > 0" % (NAME, ENV_MOVE_MS, text),
              file=sys.stderr, flush=True)
        return DEFAULT_MOVE_MS
    return value


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        if SEND_HELLO:
            # First of all, as the platform's template does, even before the library loads.
            send("ok")
        engine = Engine(os.path.join(here, LIBRARY), budget_ms())
        ending = play(Input(sys.stdin.fileno()), engine)
    except Failure as failure:
        print("%s: %s" % (NAME, failure), file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("%s: interrupted" % NAME, file=sys.stderr, flush=True)
        return 1
    except Exception as error:  # one line, never a traceback: the platform shows stderr
        print("%s: internal error: %s: %s" % (NAME, type(error).__name__, error), file=sys.stderr, flush=True)
        return 1
    print("%s: game over (%s), input closed" % (NAME, ending), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
