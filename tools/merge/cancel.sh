#!/usr/bin/env bash
# Issue 38 (cancel): AttemptRecord gained an 11th component, progress. Gives every `new AttemptRecord(` call with
# the 10 arguments of before a trailing `null` (no progress), in src/main, src/test and src/bench. Idempotent:
# calls with 11 arguments are left as they are. Run from the repository's root, then `mvn -q spotless:apply`.
set -euo pipefail
python3 - "$@" <<'PY'
import pathlib, re

def args_end(text, start):
    """The index of the ')' closing the call whose '(' is at start, and its top-level argument count."""
    depth, count, i, in_str = 0, 1, start, None
    while i < len(text):
        c = text[i]
        if in_str:
            if c == '\\':
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in '"\'':
            in_str = c
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                return i, count
        elif c == ',' and depth == 1:
            count += 1
        i += 1
    raise ValueError("unclosed call")

for root in ("src/main", "src/test", "src/bench"):
    for path in pathlib.Path(root).rglob("*.java"):
        if path.name == "AttemptRecord.java":
            continue
        text = path.read_text()
        out, pos, changed = [], 0, False
        for match in re.finditer(r"new AttemptRecord\(", text):
            if match.start() < pos:
                continue
            end, count = args_end(text, match.end() - 1)
            if count == 10:
                out.append(text[pos:end])
                out.append(", null")
                pos = end
                changed = True
        if changed:
            out.append(text[pos:])
            path.write_text("".join(out))
            print("updated", path)
PY
