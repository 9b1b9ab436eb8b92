#!/usr/bin/env python3
"""Lists C++/CUDA functions longer than a limit (default 80 lines), body braces included.

Usage: function_lengths.py [--max N] PATH...   (folders are searched for .cpp/.hpp/.cu/.cuh)
Exit status 1 when a function is longer than the limit. A function is a brace block whose head
(the text since the previous ';', '{' or '}', where its count starts) has a parameter list and is not a control
statement, a class, a namespace or an initialiser; lambdas and blocks inside it count as its own
lines. A heuristic for this project's style (clang-format, no macros that open blocks), not a
C++ parser.
"""
import argparse
import pathlib
import re
import sys

CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
TYPE_HEAD = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$")


def strip(text):
    """Comments, strings and character literals blanked, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end])); i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i)); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of each outermost function body."""
    code = strip(text)
    stack = []  # for each open brace: whether it opens a function body counted here
    head_start, found = 0, []
    in_function = 0
    for i, c in enumerate(code):
        if c == "{":
            head = code[head_start:i]
            is_function = (not in_function and "(" in head and not CONTROL.match(head)
                           and not TYPE_HEAD.search(head.split("(")[0])
                           and not head.rstrip().endswith("="))
            if is_function:
                name = re.findall(r"([~\w:]+)\s*\(", head)
                first = head_start + len(head) - len(head.lstrip())  # the head's first character
                found.append([name[0] if name else "?", code.count("\n", 0, first) + 1, None])
                in_function += 1
            stack.append(is_function)
            head_start = i + 1
        elif c == "}":
            if stack and stack.pop():
                in_function -= 1
                found[-1][2] = code.count("\n", 0, i) + 1  # functions do not nest here
            head_start = i + 1
        elif c == ";":
            head_start = i + 1
    return [(f[0], f[1], f[2]) for f in found if f[2] is not None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=80)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    files = []
    for p in map(pathlib.Path, args.paths):
        files += sorted(q for q in p.rglob("*") if q.suffix in {".cpp", ".hpp", ".cu", ".cuh"}) \
            if p.is_dir() else [p]
    long = 0
    for f in files:
        for name, first, last in functions(f.read_text()):
            if last - first + 1 > args.max:
                print(f"{f}:{first}: {name} is {last - first + 1} lines (limit {args.max})")
                long += 1
    print(f"function_lengths: {len(files)} files, {long} functions over {args.max} lines")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
