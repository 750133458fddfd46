#!/usr/bin/env python3
"""Lists Rust functions longer than a limit (80 lines by default) outside tests, examples and benches.

A function's length runs from its signature line (the line holding `fn name`) to the line of
its closing brace, both counted, as issue 48 counts them. Skipped: files under `tests/`,
`examples/`, `benches/`, `fuzz/fuzz_targets/`, `target/`, files named `tests.rs`, and the
bodies of `#[cfg(test)]` items (the unit-test modules beside the code). The braces are
matched on the source with strings, characters and comments blanked first, so a `{` inside a
string or a comment is not counted.

Usage: scripts/long-functions.py [--limit N] [DIR...]   (default: the repository)
Prints one line per function, longest first, and exits 1 when it printed any.
"""
import argparse
import pathlib
import re
import subprocess
import sys

SKIP_PARTS = {"tests", "examples", "benches", "target", "fuzz_targets"}
FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def blank_literals(text):
    """The text with the insides of comments, strings and char literals replaced by spaces
    (newlines kept), so brace matching and `fn` finding see only code."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 40]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a): only the former is blanked.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def test_spans(code):
    """Character spans of items under #[cfg(test)]."""
    spans = []
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        brace = code.find("{", m.end())
        semi = code.find(";", m.end())
        if brace < 0 or (0 <= semi < brace):
            continue
        spans.append((m.start(), matching_brace(code, brace)))
    return spans


def long_functions(path, limit):
    code = blank_literals(path.read_text(encoding="utf-8"))
    skip = test_spans(code)
    found = []
    for m in FN.finditer(code):
        if any(a <= m.start() <= b for a, b in skip):
            continue
        # The body's brace: the first `{` after the signature that is not preceded by `;`
        # (a trait method without a body ends at `;`).
        j = m.end()
        depth = 0
        while j < len(code):
            ch = code[j]
            if ch in "(<[":
                depth += 1
            elif ch in ")>]":
                depth -= 1
            elif ch == ";" and depth <= 0:
                j = -1
                break
            elif ch == "{" and depth <= 0:
                break
            j += 1
        if j < 0 or j >= len(code):
            continue
        end = matching_brace(code, j)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end) + 1
        if last - first + 1 > limit:
            found.append((last - first + 1, f"{path}:{first}", m.group(1)))
    return found


def rust_files(roots):
    for root in roots:
        root = pathlib.Path(root)
        try:
            listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", "*.rs"],
                                    cwd=root, capture_output=True, text=True, check=True).stdout.split()
            paths = [root / p for p in listed]
        except (OSError, subprocess.CalledProcessError):
            paths = list(root.rglob("*.rs"))
        for p in sorted(paths):
            rel = p.relative_to(root)
            if SKIP_PARTS & set(rel.parts[:-1]) or p.name == "tests.rs" or not p.is_file():
                continue
            yield rel if root == pathlib.Path(".") else p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=80, help="longest allowed function, in lines")
    ap.add_argument("dirs", nargs="*", default=["."], help="folders to read (default: .)")
    args = ap.parse_args()
    found = []
    for path in rust_files(args.dirs):
        found += long_functions(pathlib.Path(path), args.limit)
    for length, where, name in sorted(found, reverse=True):
        print(f"{length:4} {where} {name}")
    print(f"{len(found)} functions over {args.limit} lines", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
