#!/usr/bin/env python3
"""Include rules of BitGraph's layout (docs/dispatch.md, "The shape of an op").

usage: scripts/check_includes.py [--root DIR] [--no-lambdas]

Checks every C++ file under modules/, algorithms/ and backends/ (comments stripped, preprocessor
conditions ignored: an include under `#if defined(__CUDACC__)` counts like any other):

  (i)   cuda-leaf:  nothing under modules/ or algorithms/ includes a `bitgraph/backends/cuda/...` header
                    (faces reach CUDA leaves only through a registry, `bitgraph/backends/<op>.hpp`);
  (ii)  face:       nothing under backends/cuda includes a public op face: a header under
                    modules/ops/include/bitgraph/ops/ outside `detail/` other than options.hpp, mask.hpp
                    and operators.hpp, or formats/csr.hpp, or core/sort.hpp (a leaf includes only the
                    generic core, the vocabulary and its own kernels);
  (iii) cycle:      no include cycle among the project's own headers (edges: `#include "bitgraph/..."`
                    resolved against the include directories, and `#include "x.hpp"` beside the file);
  (iv)  lambda:     with --no-lambdas, no `KOKKOS_LAMBDA` and no `BITGRAPH_TU_LOCAL*` in a library header.

Prints one `path:line: [rule] message` per violation and exits 1 if there is any, 0 otherwise.
Python 3 standard library only.
"""

import argparse
import os
import re
import sys

LIBRARY_DIRS = ("modules", "algorithms", "backends")
SOURCE_EXTS = (".hpp", ".h", ".cpp", ".cc", ".cu", ".cuh", ".inl")
HEADER_EXTS = (".hpp", ".h", ".cuh", ".inl")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
FACE_EXCEPTIONS = {"options.hpp", "mask.hpp", "operators.hpp"}
EXTRA_FACES = {"bitgraph/formats/csr.hpp", "bitgraph/core/sort.hpp"}
LAMBDA_RE = re.compile(r"\b(KOKKOS_LAMBDA|BITGRAPH_TU_LOCAL\w*)\b")


def strip_comments(text):
    """Blanks out // and /* */ comments and the contents of string and character literals (not the
    path of an #include "..."), keeping line numbers."""
    out = []
    i, n = 0, len(text)
    in_block = in_line = in_str = False
    quote = ""
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if in_block:
            if c == "*" and nxt == "/":
                in_block = False
                out.append("  ")
                i += 2
                continue
            out.append("\n" if c == "\n" else " ")
        elif in_line:
            if c == "\n":
                in_line = False
                out.append(c)
            else:
                out.append(" ")
        elif in_str:
            if c == "\\" and nxt:
                out.append("  " if nxt != "\n" else " \n")
                i += 2
                continue
            if c == quote or c == "\n":
                in_str = False
                out.append(c)
            else:
                out.append(" ")  # literal contents are not code
        else:
            if c == "/" and nxt == "*":
                in_block = True
                out.append("  ")
                i += 2
                continue
            if c == "/" and nxt == "/":
                in_line = True
                out.append("  ")
                i += 2
                continue
            if c in "\"'" and not _in_include(out):
                in_str, quote = True, c
            out.append(c)
        i += 1
    return "".join(out)


def _in_include(out):
    """True when the current line so far is an #include directive (its "..." is a path, not a string)."""
    line = "".join(out[len(out) - 200:]).rsplit("\n", 1)[-1] if out else ""
    return re.match(r"^\s*#\s*include\s*$", line) is not None


def rel(root, path):
    return os.path.relpath(path, root).replace(os.sep, "/")


def library_files(root):
    files = []
    for top in LIBRARY_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTS):
                    files.append(os.path.join(dirpath, name))
    return files


def include_dirs(root):
    """Every `include` directory under the library trees that holds a `bitgraph/` directory."""
    dirs = []
    for top in LIBRARY_DIRS:
        for dirpath, dirnames, _ in os.walk(os.path.join(root, top)):
            dirnames.sort()
            if os.path.basename(dirpath) == "include" and "bitgraph" in dirnames:
                dirs.append(dirpath)
    return dirs


def parse_includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    code = strip_comments(text)
    includes = []
    for lineno, line in enumerate(code.split("\n"), 1):
        m = INCLUDE_RE.match(line)
        if m:
            includes.append((lineno, m.group(1), m.group(2).strip()))
    return code, includes


def resolve(path, kind, name, incdirs):
    if kind == '"':
        local = os.path.normpath(os.path.join(os.path.dirname(path), name))
        if os.path.isfile(local):
            return local
    for d in incdirs:
        cand = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(cand):
            return cand
    return None


def is_face(name):
    if name in EXTRA_FACES:
        return True
    if not name.startswith("bitgraph/ops/"):
        return False
    parts = name.split("/")[2:]
    return "detail" not in parts[:-1] and parts[-1] not in FACE_EXCEPTIONS


def find_cycles(graph):
    """Tarjan's strongly connected components; for each component with a cycle, one cycle through it."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def connect(v):
        # Iterative Tarjan (include chains are short, but keep clear of the recursion limit).
        work = [(v, iter(sorted(graph.get(v, {}))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, {})))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, {}):
                    sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)

    cycles = []
    for comp in sccs:
        members = set(comp)
        start = comp[0]
        # Shortest path back to start inside the component (BFS), giving one concrete cycle.
        prev = {}
        frontier = [start]
        found = None
        seen = set()
        while frontier and found is None:
            nxt = []
            for u in frontier:
                for w in sorted(graph.get(u, {})):
                    if w not in members:
                        continue
                    if w == start:
                        found = u
                        break
                    if w not in seen:
                        seen.add(w)
                        prev[w] = u
                        nxt.append(w)
                if found is not None:
                    break
            frontier = nxt
        path = [found]
        while path[-1] != start:
            path.append(prev[path[-1]])
        path.reverse()
        cycles.append((path, comp))
    return cycles


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="repository root (default: the parent of scripts/)")
    parser.add_argument("--no-lambdas", action="store_true",
                        help="also fail on KOKKOS_LAMBDA and BITGRAPH_TU_LOCAL* in library headers (rule iv)")
    args = parser.parse_args(argv)
    root = os.path.realpath(args.root)
    if not all(os.path.isdir(os.path.join(root, d)) for d in ("modules", "algorithms")):
        print(f"check_includes.py: {root} does not look like a BitGraph tree", file=sys.stderr)
        return 2

    incdirs = include_dirs(root)
    files = library_files(root)
    violations = []
    graph = {}  # header -> {included header: line}

    for path in files:
        r = rel(root, path)
        code, includes = parse_includes(path)
        top = r.split("/", 1)[0]
        in_cuda_backend = r.startswith("backends/cuda/")
        for lineno, kind, name in includes:
            if top in ("modules", "algorithms") and name.startswith("bitgraph/backends/cuda/"):
                violations.append((r, lineno, "i cuda-leaf",
                                   f'includes the CUDA leaf "{name}"; include its registry '
                                   f'bitgraph/backends/<op>.hpp instead'))
            if in_cuda_backend and is_face(name):
                violations.append((r, lineno, "ii face",
                                   f'CUDA leaf includes the public face "{name}"; include the generic core '
                                   f'(ops/detail/<op>_generic.hpp), ops/options.hpp or core/dispatch.hpp'))
            if kind == '"' and path.endswith(HEADER_EXTS + SOURCE_EXTS):
                target = resolve(path, kind, name, incdirs)
                if target is not None:
                    graph.setdefault(path, {}).setdefault(target, lineno)
        if args.no_lambdas and path.endswith(HEADER_EXTS):
            for lineno, line in enumerate(code.split("\n"), 1):
                for m in LAMBDA_RE.finditer(line):
                    violations.append((r, lineno, "iv lambda",
                                       f"{m.group(1)} in a library header; write a named functor"))

    for path, comp in find_cycles(graph):
        chain = []
        for a, b in zip(path, path[1:] + path[:1]):
            chain.append(f"{rel(root, a)}:{graph[a][b]} -> {rel(root, b)}")
        first = path[0]
        violations.append((rel(root, first), graph[first][path[1 % len(path)]], "iii cycle",
                           f"include cycle ({len(comp)} headers in the strongly connected set): "
                           + "; ".join(chain)))

    for r, lineno, rule, message in violations:
        print(f"{r}:{lineno}: [{rule}] {message}")
    counts = {}
    for v in violations:
        counts[v[2]] = counts.get(v[2], 0) + 1
    summary = ", ".join(f"{counts[k]} {k}" for k in sorted(counts)) or "none"
    print(f"check_includes.py: {len(files)} files, {len(incdirs)} include directories, "
          f"rules i ii iii{' iv' if args.no_lambdas else ''}: {len(violations)} violation(s) ({summary})")
    if violations:
        print("check_includes.py: FAILED: include rules of the layout broken at the lines above "
              "(rules: docs/build.md, 'Source layout and its checks'; this script's docstring)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
