#!/usr/bin/env python3
"""Lists runs of 6 or more duplicated lines across two crates, in code that is not a test.

    scripts/duplicates.py [--min N] [--files] [ROOT]

Reads the repository's files (`git ls-files`: tracked, plus untracked ones not ignored) from
ROOT (default: the repository holding this script) and prints one line per duplicated run,

    judge/src/a.rs:10-15 ~ go/src/b.rs:40-45 (6 lines)

then a count. Exits 1 when it printed any run, 0 otherwise.

What counts:
- Rust files outside tests/, examples/, benches/ and fuzz/fuzz_targets/, without files named
  tests.rs and without `#[cfg(test)]` items (a test module is skipped to its closing brace).
  A Rust file's unit is its crate: the directory of the nearest Cargo.toml above it. Two
  files of the same crate may repeat each other (that is the crate's own business); two
  crates may not.
- C and C++ files (.c .cc .cpp .h .hpp), test fixtures and scripts included: each is built
  as a program or library of its own, so a C or C++ file is a unit by itself.

Lines are compared normalised: surrounding whitespace stripped; blank lines, comment-only
lines, lines of lone punctuation (`}`, `{`, `});`, `],` ...), lines of number literals and
punctuation only (rows of a data table such as `(-1, 0),`), one-line attributes such as
`#[inline]`, `use` declarations and `#include` lines left out. A run is 6 or more consecutive normalised lines that two files of
different units both hold, in the same order; the lines printed are the original ones.
A pair of files listed in scripts/duplicates.allow (`a ~ b  # why`, one pair a line) is not
listed: the place for code that is alike by design, such as the per-game tree arenas that
issue 48 lets stay apart.
With --files every file is a unit of its own: repeats inside a crate are listed too.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

RUST = (".rs",)
C_LIKE = (".c", ".cc", ".cpp", ".h", ".hpp")
SKIPPED_DIRS = ("tests", "examples", "benches")
PUNCTUATION = re.compile(r"^[{}()\[\];,]+$")
# A number literal (with Rust's suffixes); a line of numbers and punctuation only is data.
NUMBER = re.compile(r"\b(0x[0-9a-fA-F_]+|0b[01_]+|\d[\d_]*(\.\d+)?)([iu](8|16|32|64|128|size)|f32|f64)?\b")
DATA = re.compile(r"^[\s(){}\[\];,.+\-]*$")
# A one-line attribute such as `#[inline]` or `#[derive(Clone, Copy)]`.
ATTRIBUTE = re.compile(r"^#!?\[.*\]$")
ALLOW_FILE = "scripts/duplicates.allow"
USE = re.compile(r"^(pub(\([^)]*\))?\s+)?use\s")


def files(root):
    """The repository's files, relative to `root`."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout
    return sorted({p for p in out.decode().split("\0") if p})


def counted(path):
    """Whether `path` is code this script compares."""
    parts = path.split("/")
    if path.endswith(C_LIKE):
        return True
    if not path.endswith(RUST):
        return False
    if parts[-1] == "tests.rs" or any(p in SKIPPED_DIRS for p in parts[:-1]):
        return False
    return "fuzz/fuzz_targets/" not in path and not path.startswith("fuzz_targets/")


def unit(root, path):
    """The unit `path` belongs to: its crate's directory, or the file itself for C/C++."""
    if path.endswith(C_LIKE):
        return path
    d = os.path.dirname(path)
    while True:
        if os.path.exists(os.path.join(root, d, "Cargo.toml")):
            return d or "."
        if not d:
            return "."
        d = os.path.dirname(d)


def without_literals(line):
    """`line` with string and character literals emptied, for counting braces."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return re.sub(r"'(\\.|[^'\\])'", "''", line)


def normalised(text, rust):
    """The (line number, normalised text) of each line that counts."""
    out = []
    in_block = False  # inside /* ... */
    in_use = False  # inside a `use` declaration spread over lines
    skipping = None  # inside a #[cfg(test)] item: [brace depth, whether its `{` came]
    cfg_test = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if in_block:
            if "*/" in line:
                in_block = False
                line = line.split("*/", 1)[1].strip()
            else:
                continue
        if line.startswith("/*"):
            if "*/" not in line:
                in_block = True
            continue
        if rust and line.startswith("#[cfg(test)]"):
            cfg_test = True
            line = line[len("#[cfg(test)]") :].strip()
            if not line:
                continue
        if cfg_test and (line.startswith("#[") or not line or line.startswith("//")):
            continue
        if cfg_test:
            # The item the attribute applies to, skipped through its closing brace.
            cfg_test = False
            skipping = [0, False]
        if skipping is not None:
            code = without_literals(line.split("//", 1)[0])
            skipping[0] += code.count("{") - code.count("}")
            skipping[1] = skipping[1] or "{" in code
            if skipping[0] <= 0 and (skipping[1] or code.endswith(";")):
                skipping = None
            continue
        if not line or line.startswith("//") or PUNCTUATION.match(line):
            continue
        if DATA.match(NUMBER.sub("", line)) or (rust and ATTRIBUTE.match(line)):
            continue
        if rust and (in_use or USE.match(line)):
            in_use = not line.endswith(";")
            continue
        if not rust and line.startswith("#include"):
            continue
        out.append((number, line))
    return out


def allowed_pairs(root):
    """The file pairs `scripts/duplicates.allow` accepts, each line `a ~ b  # why`."""
    path = os.path.join(root, ALLOW_FILE)
    if not os.path.exists(path):
        return set()
    out = set()
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if line:
                a, b = (p.strip() for p in line.split("~"))
                out.add(tuple(sorted((a, b))))
    return out


def runs(root, paths, least, by_file=False):
    """Duplicated runs of at least `least` normalised lines between files of different units
    (with `by_file`, between any two files)."""
    lines = {}
    units = {}
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines[path] = normalised(f.read(), path.endswith(RUST))
        units[path] = path if by_file else unit(root, path)
    windows = defaultdict(list)
    for path, ls in lines.items():
        for i in range(len(ls) - least + 1):
            windows[tuple(t for _, t in ls[i : i + least])].append((path, i))
    # Matching windows by pair of files and diagonal, merged into maximal runs.
    pairs = defaultdict(set)
    for places in windows.values():
        for a in range(len(places)):
            for b in range(a + 1, len(places)):
                (pa, ia), (pb, ib) = sorted((places[a], places[b]))
                if units[pa] != units[pb]:
                    pairs[(pa, pb, ib - ia)].add(ia)
    found = []
    for (pa, pb, shift), starts in pairs.items():
        starts = sorted(starts)
        first = prev = starts[0]
        for i in starts[1:] + [None]:
            if i is not None and i == prev + 1:
                prev = i
                continue
            la, lb = lines[pa], lines[pb]
            end = prev + least - 1
            found.append(
                (
                    pa,
                    la[first][0],
                    la[end][0],
                    pb,
                    lb[first + shift][0],
                    lb[end + shift][0],
                    end - first + 1,
                )
            )
            if i is not None:
                first = prev = i
    return sorted(found)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=here, help="the repository (default: this one)")
    parser.add_argument("--min", type=int, default=6, help="shortest run reported (default 6)")
    parser.add_argument("--files", action="store_true", help="compare files of one crate too")
    args = parser.parse_args()
    paths = [p for p in files(args.root) if counted(p) and os.path.isfile(os.path.join(args.root, p))]
    allowed = allowed_pairs(args.root)
    found = []
    accepted = 0
    for run in runs(args.root, paths, args.min, args.files):
        if (run[0], run[3]) in allowed:
            accepted += 1
        else:
            found.append(run)
    if accepted:
        print(f"{accepted} run(s) between file pairs that {ALLOW_FILE} accepts, not listed")
    for pa, a0, a1, pb, b0, b1, n in found:
        print(f"{pa}:{a0}-{a1} ~ {pb}:{b0}-{b1} ({n} lines)")
    scope = "files" if args.files else "crates"
    print(f"{len(found)} duplicated run(s) of {args.min}+ lines across {scope}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
