#!/usr/bin/env python3
"""LLVM IR lines of one crate's build, by the crate each function comes from.

Deterministic where CPU time on shared cores is not: the size of the code a
crate hands LLVM is what its build time follows. Usage:

    cargo rustc -p findings-cli --release --lib -- --emit=llvm-ir
    python3 benches/ir_lines.py 'target/release/deps/findings_cli-*.ll' 20

Prints the total, the lines by crate of origin, and the largest functions
(generic arguments dropped, so every instantiation of one function adds up).
The newest file matching the pattern is read; `c++filt` demangles.
"""
import collections
import glob
import os
import re
import subprocess
import sys


def main():
    path = max(glob.glob(sys.argv[1]), key=os.path.getmtime)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    lines = collections.Counter()
    current, n = None, 0
    with open(path, errors="replace") as ir:
        for line in ir:
            if line.startswith("define "):
                m = re.search(r'@("?)([^"(]+)\1\(', line)
                current, n = (m.group(2) if m else "?"), 0
            elif current is not None:
                n += 1
                if line.startswith("}"):
                    lines[current] += n
                    current = None
    names = list(lines)
    plain = subprocess.run(
        ["c++filt"], input="\n".join(names), capture_output=True, text=True
    ).stdout.split("\n")
    by_crate, by_function = collections.Counter(), collections.Counter()
    for name, shown in zip(names, plain):
        shown = re.sub(r"::h[0-9a-f]{16}$", "", shown)
        m = re.match(r"<(?:&mut |&)?([a-z_0-9]+)::", shown) or re.match(r"([a-z_0-9]+)::", shown)
        by_crate[m.group(1) if m else shown[:30]] += lines[name]
        bare, before = shown, None
        while before != bare:
            before, bare = bare, re.sub(r"<[^<>]*>", "", bare)
        by_function[bare] += lines[name]
    print(path, "total", sum(lines.values()), "functions", len(lines))
    for crate, count in by_crate.most_common(top):
        print(count, crate)
    print("---")
    for function, count in by_function.most_common(top):
        print(count, function[:150])


main()
