#!/usr/bin/env python3
"""Fails on a test assertion that expects an error without saying which one.

`ASSERT_FALSE(<expr>.ok())`, `EXPECT_FALSE(<expr>.ok())` and their `ASSERT_TRUE(!<expr>.ok())`
forms pass on any error, the wrong one included. Tests pin the code and the words a user needs
to see instead: `EXPECT_TRUE(test::HasError(st, StatusCode::kNotFound, {"snapshot-7"}))`
(tests/test_util.h). Checked: every .cc and .h file under tests/; prints file:line per finding.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
ASSERTION = re.compile(r"\b(ASSERT|EXPECT)_(FALSE|TRUE)\s*\(")
SKIP_DIRS = {"node_modules"}


def argument(text, open_paren):
    """The text between the parenthesis at `open_paren` and its match, or None."""
    depth = 0
    i = open_paren
    while i < len(text):
        c = text[i]
        if c in "\"'":
            # Skip a string or character literal.
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[open_paren + 1:i]
        i += 1
    return None


def top_level_has_logic(expr):
    """Whether `expr` has && or || outside parentheses (a compound condition, not bare)."""
    depth = 0
    for i, c in enumerate(expr):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and expr[i:i + 2] in ("&&", "||"):
            return True
    return False


def is_bare(kind, expr):
    expr = " ".join(expr.split())
    if not expr.endswith(".ok()") or top_level_has_logic(expr):
        return False
    if kind == "FALSE":
        return True
    return expr.startswith("!")


def main():
    findings = []
    for path in sorted((root / "tests").rglob("*")):
        if path.suffix not in (".cc", ".h") or SKIP_DIRS & set(path.parts):
            continue
        text = path.read_text(errors="replace")
        for m in ASSERTION.finditer(text):
            expr = argument(text, m.end() - 1)
            if expr is not None and is_bare(m.group(2), expr):
                line = text.count("\n", 0, m.start()) + 1
                findings.append(f"{path.relative_to(root)}:{line}: {m.group(0)}{' '.join(expr.split())})"
                                f" passes on any error; pin the code and words with "
                                f"test::HasError(status, StatusCode::k..., {{...}})")
    for f in findings:
        print(f)
    if findings:
        print(f"{len(findings)} bare error assertion(s) in tests/", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
