#!/usr/bin/env bash
# Fails if an object or executable built by nvcc holds a Kokkos lambda wrapper with external (weak)
# linkage. Such a wrapper keeps its copy/call/delete function pointers in per-translation-unit statics;
# when the linker keeps another unit's copy of a Kokkos function that copies the lambda, the program
# calls address 0 (docs/build.md, "nvcc builds"). Library kernels are named functors, so none should
# appear; scripts/check_includes.py --no-lambdas keeps KOKKOS_LAMBDA out of headers, this checks the objects.
# usage: check_lambda_linkage.sh FILE...
set -euo pipefail
status=0
for f in "$@"; do
  bad=$(nm -C "$f" | grep -E ' [WVu] ' | grep -E '__nv_hdl_wrapper_t|__nv_hdl_helper_trait' || true)
  if [[ -n "$bad" ]]; then
    echo "check_lambda_linkage: $f has $(grep -c . <<< "$bad") lambda wrapper symbols with external linkage, e.g.:" >&2
    # The enclosing function is the tag's second argument: ", &(SIGNATURE)" or ", &CLASS::FN".
    python3 -c '
import collections, re, sys
names = collections.Counter()
for line in sys.stdin:
    i = line.find("__nv_dl_tag<")
    if i < 0: continue
    depth, j = 0, i + len("__nv_dl_tag<")
    while j < len(line) and not (depth == 0 and line.startswith(", &", j)):
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(line[j], 0)
        j += 1
    t = line[j + 3:].lstrip("(")
    while True:
        u = re.sub(r"<[^<>]*>", "", t)
        if u == t: break
        t = u
    names[t.split("(")[0].split(",")[0].split(" ")[-1]] += 1
for name, k in names.most_common(15): print(f"  {k:6d}  {name}")
' <<< "$bad" >&2
    status=1
  else
    echo "check_lambda_linkage: $f: no lambda wrapper with external linkage"
  fi
done
exit $status
