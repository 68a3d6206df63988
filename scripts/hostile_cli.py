#!/usr/bin/env python3
"""A sweep of hostile command lines and input files against the `bitgraph` CLI (issue 18).

usage: scripts/hostile_cli.py BITGRAPH [--json FILE] [--timeout SECONDS] [--list]

Writes its hostile files into a temporary directory (malformed Matrix Market, DIMACS, edge lists, binary caches,
gzip streams, files that declare billions of vertices, a FIFO, a directory, /dev/zero), then runs every case with
`--space serial` and a timeout. A case passes when the process exits by itself (no signal, no timeout) with an exit
status from the case's allowed set (1 an error, 2 a usage error, 3 a failed validation; 0 only for the few inputs
that are odd but valid), says why on stderr when it fails, and never prints an uncaught exception, a sanitizer
report or a crash. Prints one line per failing case and a summary; exits 1 if any case failed. Python 3 standard
library only; the CI runs it on the host build (.ci/run).
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

BAD = {1, 2}  # an error or a usage error
CRASH_TEXT = ("terminate called", "Segmentation fault", "AddressSanitizer", "UndefinedBehaviorSanitizer",
              "runtime error:", "Aborted", "core dumped", "std::bad_alloc", "what():")


def mtx(body, banner="%%MatrixMarket matrix coordinate pattern general"):
    return banner + "\n" + body


def hostile_files(d):
    """name -> (bytes, allowed exit statuses when loaded)."""
    f = {}

    def add(name, content, allowed=BAD):
        f[name] = (content.encode() if isinstance(content, str) else content, allowed)

    # Matrix Market.
    add("empty.mtx", "")
    add("banner_only.mtx", "%%MatrixMarket matrix coordinate pattern general\n")
    add("bad_banner.mtx", "%%MatrixMarket tensor coordinate pattern general\n3 3 1\n1 2\n")
    add("bad_format.mtx", "%%MatrixMarket matrix diagonal pattern general\n3 3 1\n1 2\n")
    add("bad_field.mtx", "%%MatrixMarket matrix coordinate quaternion general\n3 3 1\n1 2 1\n")
    add("bad_symmetry.mtx", "%%MatrixMarket matrix coordinate pattern lopsided\n3 3 1\n1 2\n")
    add("no_size.mtx", mtx("% only comments\n"))
    add("size_letters.mtx", mtx("three 3 1\n1 2\n"))
    add("size_negative.mtx", mtx("-3 3 1\n1 2\n"))
    add("size_two_fields.mtx", mtx("3 3\n1 2\n"))
    add("size_float.mtx", mtx("3.5 3 1\n1 2\n"))
    add("not_square.mtx", mtx("3 4 1\n1 2\n"))
    add("fewer_entries.mtx", mtx("3 3 4\n1 2\n2 3\n"))
    add("more_entries.mtx", mtx("3 3 1\n1 2\n2 3\n3 1\n"))
    add("row_zero.mtx", mtx("3 3 1\n0 2\n"))
    add("row_above_n.mtx", mtx("3 3 1\n4 2\n"))
    add("col_above_n.mtx", mtx("3 3 1\n1 9\n"))
    add("id_huge.mtx", mtx("3 3 1\n1 99999999999999999999999\n"))
    add("id_negative.mtx", mtx("3 3 1\n-1 2\n"))
    add("id_float.mtx", mtx("3 3 1\n1.5 2\n"))
    add("id_hex.mtx", mtx("3 3 1\n0x1 2\n"))
    add("entry_one_field.mtx", mtx("3 3 1\n1\n"))
    add("entry_letters.mtx", mtx("3 3 1\na b\n"))
    add("real_missing_value.mtx",
        mtx("3 3 1\n1 2\n", "%%MatrixMarket matrix coordinate real general"))
    add("real_value_letters.mtx",
        mtx("3 3 1\n1 2 heavy\n", "%%MatrixMarket matrix coordinate real general"))
    add("real_nan.mtx", mtx("3 3 2\n1 2 nan\n2 3 1\n", "%%MatrixMarket matrix coordinate real general"))
    add("real_inf.mtx", mtx("3 3 2\n1 2 inf\n2 3 1\n", "%%MatrixMarket matrix coordinate real general"))
    add("real_minus_inf.mtx", mtx("3 3 2\n1 2 -inf\n2 3 1\n", "%%MatrixMarket matrix coordinate real general"))
    add("real_overflow.mtx", mtx("3 3 1\n1 2 1e999\n", "%%MatrixMarket matrix coordinate real general"))
    add("integer_float.mtx", mtx("3 3 1\n1 2 2.5\n", "%%MatrixMarket matrix coordinate integer general"))
    add("declares_4g_vertices.mtx", mtx("4294967294 4294967294 1\n1 2\n"))
    add("declares_200m_vertices.mtx", mtx("200000000 200000000 1\n1 2\n"))
    add("declares_2e40_vertices.mtx", mtx("1099511627776 1099511627776 1\n1 2\n"))
    add("declares_huge_nnz.mtx", mtx("3 3 18446744073709551615\n1 2\n"))
    add("array_format.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", {0, 1})  # dense: valid
    add("skew_pattern.mtx", mtx("3 3 1\n2 1\n", "%%MatrixMarket matrix coordinate pattern skew-symmetric"))
    add("binary_garbage.mtx", bytes(range(256)) * 64)
    add("nul_bytes.mtx", mtx("3 3 1\n1\x00 2\n"))
    add("long_line.mtx", mtx("3 3 1\n1 " + "2" * 1_000_000 + "\n"))
    add("truncated_line.mtx", mtx("3 3 2\n1 2\n2"))
    add("crlf.mtx", mtx("3 3 1\r\n1 2\r\n").replace("\n", "\r\n"), {0, 1})
    add("bom.mtx", b"\xef\xbb\xbf" + mtx("3 3 1\n1 2\n").encode(), {0, 1})
    # DIMACS shortest path.
    add("no_p.gr", "c nothing\na 1 2 3\n")
    add("two_p.gr", "p sp 3 1\np sp 3 1\na 1 2 3\n")
    add("p_letters.gr", "p sp three 1\na 1 2 3\n")
    add("arc_zero.gr", "p sp 3 1\na 0 2 3\n")
    add("arc_above.gr", "p sp 3 1\na 1 4 3\n")
    add("arc_negative_weight.gr", "p sp 3 1\na 1 2 -3\n", {0, 1})  # stored; sssp refuses it
    add("arc_nan_weight.gr", "p sp 3 1\na 1 2 nan\n")
    add("arc_missing_weight.gr", "p sp 3 1\na 1 2\n")
    add("arc_extra_field.gr", "p sp 3 1\na 1 2 3 4\n")
    add("unknown_line.gr", "p sp 3 1\nx 1 2 3\n")
    add("declares_4g.gr", "p sp 4294967294 1\na 1 2 3\n")
    # Edge lists.
    add("negative.el", "0 1\n-1 2\n")
    add("letters.el", "0 1\nx y\n")
    add("one_column.el", "0 1\n2\n")
    add("huge_id.el", "0 4294967295\n")
    add("huge_id2.el", "0 99999999999999999999\n")
    add("nan.wel", "0 1 nan\n1 2 1\n")
    add("inf.wel", "0 1 inf\n1 2 1\n")
    add("missing_weight.wel", "0 1\n", {0, 1})  # no edge has a weight: an unweighted list
    add("mixed_weights.wel", "0 1 5\n1 2\n")
    add("float_id.el", "0.5 1\n")
    add("empty.el", "", {0, 1})
    # Binary graph caches.
    add("garbage.bgcsr", b"\x00\x01garbage" * 100)
    add("magic_only.bgcsr", b"BGCSR")
    add("magic_truncated.bgcsr", b"BGCSR\x00\x00\x01\x00" + b"\xff" * 12)
    # gzip streams.
    add("gzip_garbage.mtx.gz", b"\x1f\x8b\x08\x00" + b"\x13\x37" * 100)
    whole = gzip.compress(mtx("3 3 2\n1 2\n2 3\n").encode())
    add("gzip_truncated.mtx.gz", whole[: len(whole) // 2])
    add("gzip_of_garbage.mtx.gz", gzip.compress(bytes(range(256)) * 32))
    add("gzip_zeros.mtx.gz", gzip.compress(b"\x00" * (64 << 20)))  # 64 MiB of zeros behind 64 KiB
    add("gzip_of_bad_mtx.mtx.gz", gzip.compress(mtx("3 3 1\n9 9\n").encode()))
    add("gzip_empty.mtx.gz", gzip.compress(b""))
    for name, (content, _) in f.items():
        with open(os.path.join(d, name), "wb") as out:
            out.write(content)
    return f


def cases(d, files):
    """(name, argv after the program, allowed exit statuses)."""
    c = []
    sp = ["--space", "serial"]
    for name, (_, allowed) in files.items():
        path = os.path.join(d, name)
        c.append((f"run bfs on {name}", ["run", "--graph", f"file:{path}", "--algo", "bfs", "--no-cache"] + sp,
                  allowed | ({0} if 0 in allowed else set())))
        c.append((f"info on {name}", ["info", "--graph", f"file:{path}", "--no-cache"] + sp, allowed))
        c.append((f"convert {name}", ["convert", "--graph", f"file:{path}", "--to", os.path.join(d, "out.bgcsr"),
                                      "--no-cache"] + sp, allowed))
    # SSSP on weights it must refuse.
    for name in ("arc_negative_weight.gr", "real_nan.mtx", "real_inf.mtx"):
        c.append((f"sssp on {name}", ["run", "--graph", f"file:{os.path.join(d, name)}", "--algo", "sssp",
                                      "--no-cache"] + sp, BAD))
    # Special files.
    fifo = os.path.join(d, "fifo.mtx")
    os.mkfifo(fifo)
    os.mkdir(os.path.join(d, "dir.mtx"))
    for name, path in (("a FIFO", fifo), ("a directory", os.path.join(d, "dir.mtx")), ("/dev/zero", "/dev/zero"),
                       ("/dev/null", "/dev/null"), ("a missing file", os.path.join(d, "missing.mtx")),
                       ("an empty path", "")):
        c.append((f"run on {name}", ["run", "--graph", f"file:{path}", "--algo", "bfs", "--no-cache"] + sp, BAD))
    # Graph specs.
    for spec in ("", "kron", "kron:", "kron:-1", "kron:0", "kron:64", "kron:abc", "kron:10:degree=0",
                 "kron:10:degree=-4", "kron:10:seed=x", "kron:10:order=bogus", "kron:10:bogus", "urand:0",
                 "urand:99", "grid2d:0", "grid2d:65536", "grid2d:4:degree=8", "grid3d:0", "grid3d:100000",
                 "mycielski:0", "mycielski:40", "rgg:0", "rgg:99", "bogus:3", "file:", "kron:10:loops:loops",
                 "kron:10:order=", "grid2d:2x2", "kron:1e3", "kron: 10"):
        c.append((f"graph spec '{spec}'", ["run", "--graph", spec, "--algo", "bfs"] + sp, BAD))
    # Options.
    g = ["--graph", "grid2d:4"] + sp
    for name, argv in (
            ("no command", []), ("unknown command", ["frobnicate"]), ("unknown option", ["run", "--frob"] + g),
            ("option of another command", ["info", "--algo", "bfs"] + g), ("--graph without a value", ["run", "--algo", "bfs", "--graph"]),
            ("missing --algo value", ["run", "--algo"] + g), ("empty --algo", ["run", "--algo", ""] + g),
            ("unknown algorithm", ["run", "--algo", "dfs"] + g), ("--algo list with a hole", ["run", "--algo", "bfs,,tc"] + g),
            ("source -1", ["run", "--algo", "bfs", "--source", "-1"] + g),
            ("source beyond n", ["run", "--algo", "bfs", "--source", "16"] + g),
            ("source 2^32", ["run", "--algo", "bfs", "--source", "4294967296"] + g),
            ("source huge", ["run", "--algo", "bfs", "--source", "99999999999999999999999"] + g),
            ("source 1e3", ["run", "--algo", "bfs", "--source", "1e3"] + g),
            ("source 8abc", ["run", "--algo", "bfs", "--source", "8abc"] + g),
            ("source empty", ["run", "--algo", "bfs", "--source", ""] + g),
            ("repeat 0", ["run", "--algo", "bfs", "--repeat", "0"] + g),
            ("repeat -5", ["run", "--algo", "bfs", "--repeat", "-5"] + g),
            ("repeat huge", ["run", "--algo", "bfs", "--repeat", "2147484000"] + g),
            ("tile 3", ["run", "--algo", "bfs", "--tile", "3"] + g), ("tile 128", ["run", "--algo", "bfs", "--tile", "128"] + g),
            ("tile word", ["run", "--algo", "bfs", "--tile", "big"] + g),
            ("bfs mode", ["run", "--algo", "bfs", "--bfs", "sideways"] + g),
            ("push kernel", ["run", "--algo", "bfs", "--push", "shove"] + g),
            ("tc method", ["run", "--algo", "tc", "--tc-method", "guess"] + g),
            ("algorithm path", ["run", "--algo", "bfs", "--algorithm", "quantum"] + g),
            ("cuda path on serial", ["run", "--algo", "bfs", "--algorithm", "cuda-warp"] + g),
            ("reorder", ["run", "--algo", "bfs", "--reorder", "shuffle"] + g),
            ("update", ["run", "--algo", "bfs", "--update", "soon"] + g),
            ("bottom-up -1", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up", "-1"] + g),
            ("bottom-up nan", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up", "nan"] + g),
            ("bottom-up 1.5", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up", "1.5"] + g),
            ("bottom-up huge", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up", "1000001"] + g),
            ("bottom-up on bench", ["bench", "--suite", "smoke", "--bottom-up", "3"]),
            ("lazy-levels -1", ["run", "--algo", "bfs", "--bfs", "tc", "--lazy-levels", "-1"] + g),
            ("lazy-levels 0.5", ["run", "--algo", "bfs", "--bfs", "tc", "--lazy-levels", "0.5"] + g),
            ("lazy-levels word", ["run", "--algo", "bfs", "--bfs", "tc", "--lazy-levels", "sometimes"] + g),
            ("level-ids word", ["run", "--algo", "bfs", "--bfs", "tc", "--level-ids", "mine"] + g),
            ("level-ids empty", ["run", "--algo", "bfs", "--bfs", "tc", "--level-ids", ""] + g),
            ("level-ids on bench", ["bench", "--suite", "smoke", "--level-ids", "graph"]),
            ("bottom-up-dense -1", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up-dense", "-1"] + g),
            ("bottom-up-dense 0.5", ["run", "--algo", "bfs", "--bfs", "tc", "--bottom-up-dense", "0.5"] + g),
            ("sources 0", ["run", "--algo", "msbfs", "--sources", "0"] + g),
            ("sources 129", ["run", "--algo", "msbfs", "--sources", "129"] + g),
            ("sources -1", ["run", "--algo", "msbfs", "--sources", "-1"] + g),
            ("sources huge", ["run", "--algo", "msbfs", "--sources", "99999999999999999999999"] + g),
            ("msbfs source beyond n", ["run", "--algo", "msbfs", "--source", "16"] + g),
            ("compact levels too deep", ["run", "--algo", "msbfs", "--compact-levels", "--sources", "1", "--graph",
                                         "grid2d:200"] + sp),
            ("samples -1", ["run", "--algo", "closeness", "--samples", "-1"] + g),
            ("samples 2^32", ["run", "--algo", "closeness", "--samples", "4294967296"] + g),
            ("samples 1.5", ["run", "--algo", "closeness", "--samples", "1.5"] + g),
            ("seed -1", ["run", "--algo", "closeness", "--samples", "3", "--seed", "-1"] + g),
            ("seed 2^53 + 1", ["run", "--algo", "closeness", "--samples", "3", "--seed", "9007199254740993"] + g),
            ("seed empty", ["run", "--algo", "closeness", "--seed", ""] + g),
            ("sources on bench", ["bench", "--suite", "smoke", "--sources", "3"]),
            ("space gpu", ["run", "--algo", "bfs", "--graph", "grid2d:4", "--space", "gpu"]),
            ("space empty", ["run", "--algo", "bfs", "--graph", "grid2d:4", "--space", ""]),
            ("kokkos threads 0", ["run", "--algo", "bfs", "--kokkos-threads=0"] + g),
            ("kokkos threads -3", ["run", "--algo", "bfs", "--kokkos-threads=-3"] + g),
            ("kokkos threads 100000", ["run", "--algo", "bfs", "--kokkos-threads=100000"] + g),
            ("kokkos threads abc", ["run", "--algo", "bfs", "--kokkos-threads=abc"] + g),
            ("kokkos numa -1", ["run", "--algo", "bfs", "--kokkos-numa=-1"] + g),
            ("kokkos device id abc", ["run", "--algo", "bfs", "--kokkos-device-id=abc"] + g),
            ("json to /dev/full", ["run", "--algo", "bfs", "--json", "/dev/full"] + g),
            ("json into a missing directory", ["run", "--algo", "bfs", "--json", os.path.join(d, "no", "x.json")] + g),
            ("json to a directory", ["run", "--algo", "bfs", "--json", d] + g),
            ("output into a missing directory", ["run", "--algo", "bfs", "--output", os.path.join(d, "no", "x.csv")] + g),
            ("output with an unknown extension", ["run", "--algo", "bfs", "--output", os.path.join(d, "x.xlsx")] + g),
            ("output to /dev/full", ["run", "--algo", "bfs", "--output", "/dev/full"] + g),
            ("cache dir is a file", ["run", "--algo", "bfs", "--cache-dir", "/dev/null", "--graph",
                                     f"file:{os.path.join(d, 'empty.mtx')}"] + sp),
            ("bench unknown suite", ["bench", "--suite", "galactic"] + sp),
            ("bench graph outside the suite", ["bench", "--suite", "smoke", "--graphs", "kron:11"] + sp),
            ("bench runs 0", ["bench", "--suite", "smoke", "--runs", "0"] + sp),
            ("bench runs -1", ["bench", "--suite", "smoke", "--runs", "-1"] + sp),
            ("bench unknown kernel", ["bench", "--suite", "smoke", "--kernels", "nonesuch", "--runs", "1"] + sp),
            ("convert without output", ["convert"] + g),
            ("convert to an unknown format", ["convert", "--to", os.path.join(d, "x.docx")] + g),
            ("convert into a missing directory", ["convert", "--to", os.path.join(d, "no", "x.mtx")] + g),
            ("convert to /dev/full", ["convert", "--to", "/dev/full"] + g),
            ("convert with --output", ["convert", "--output", os.path.join(d, "x.mtx")] + g),
            ("--kernels list with a trailing comma", ["bench", "--suite", "smoke", "--kernels", "bmv,", "--runs", "1"] + sp),
            ("--graphs list with a hole", ["bench", "--suite", "smoke", "--graphs", "kron:10,,grid2d:64"] + sp),
            ("option value glued", ["run", "--algo=bfs"] + g),
            ("lone dash", ["run", "-"] + g), ("double dash", ["run", "--"] + g),
            ("very long option", ["run", "--" + "x" * 100000] + g),
            ("non-UTF-8 option", ["run", "--algo", "bf\udcff"] + g),
    ):
        c.append((name, argv, BAD))
    return c


def run_case(prog, argv, timeout):
    t0 = time.monotonic()
    env = dict(os.environ, OMP_NUM_THREADS="1", BITGRAPH_PROGRESS_MS="600000")
    try:
        p = subprocess.run([prog] + [a.encode("utf-8", "surrogateescape") for a in argv], capture_output=True,
                           timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", time.monotonic() - t0
    return p.returncode, (p.stdout + p.stderr).decode("utf-8", "replace"), time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bitgraph")
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--list", action="store_true", help="print the cases and exit")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bitgraph-hostile-") as d:
        files = hostile_files(d)
        all_cases = cases(d, files)
        if a.list:
            for name, argv, allowed in all_cases:
                print(f"{name}: {sorted(allowed)}")
            print(f"{len(all_cases)} cases")
            return 0
        results, failures = [], 0
        t0 = time.monotonic()
        for name, argv, allowed in all_cases:
            rc, out, secs = run_case(a.bitgraph, argv, a.timeout)
            why = None
            if rc is None:
                why = f"hung (killed after {a.timeout:.0f} s)"
            elif rc < 0:
                why = f"killed by signal {-rc}"
            elif rc not in allowed:
                why = f"exit {rc}, expected one of {sorted(allowed)}"
            elif any(t in out for t in CRASH_TEXT):
                why = "crash text in the output: " + next(t for t in CRASH_TEXT if t in out)
            elif rc != 0 and not out.strip():
                why = f"exit {rc} without a message"
            if why:
                failures += 1
                tail = " | ".join(out.strip().splitlines()[-2:])[:300]
                print(f"FAIL {name}: {why}  [{tail}]")
            results.append({"case": name, "exit": rc, "seconds": round(secs, 3), "ok": why is None, "why": why})
        total = time.monotonic() - t0
        hangs = sum(1 for r in results if r["exit"] is None)
        crashes = sum(1 for r in results if r["exit"] is not None and r["exit"] < 0)
        print(f"hostile_cli: {len(results)} cases, {failures} failed ({crashes} crashes, {hangs} hangs) in {total:.0f} s")
        if a.json:
            with open(a.json, "w") as out:
                json.dump({"cases": len(results), "failed": failures, "crashes": crashes, "hangs": hangs,
                           "seconds": total, "results": results}, out, indent=1)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
