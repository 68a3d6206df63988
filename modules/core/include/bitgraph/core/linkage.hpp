// Per-translation-unit linkage for the functions that hold Kokkos lambdas (an nvcc extended-lambda workaround).
#pragma once

// Why: nvcc wraps each `KOKKOS_LAMBDA` (an extended __host__ __device__ lambda) in a type-erased
// `__nv_hdl_wrapper_t` whose copy, call and delete go through function pointers kept in per-translation-
// unit statics, set only when that translation unit constructs the lambda. The Kokkos functions that
// copy the wrapper (`parallel_for`, `parallel_reduce`, ...) are ordinary inline templates, so the linker
// keeps one translation unit's copy for the whole program. When a program instantiates the same BitGraph
// op in two translation units, the kept copy may read the other unit's never-set pointer and call address
// 0 (seen on the H100: the spmspv and mxv test cases crashed when each ran in its own process). Giving
// every function that holds a lambda internal linkage keeps the construction and the copies of each
// lambda in one translation unit: nvcc's wrapper instantiations for an internal function are internal.
// scripts/check_lambda_linkage.sh verifies this on the built objects.

namespace bitgraph::detail {

/// Never called: its address, different in every translation unit, is the default template argument
/// that `BITGRAPH_TU_LOCAL_PARAM` adds to op structs, which makes their instantiations internal. (An
/// unnamed-namespace type does not do this under nvcc: the wrapper instantiations stay weak globals.)
static inline void tu_anchor() {}

}  // namespace bitgraph::detail

/// Marks a namespace-scope function template that holds a Kokkos lambda: internal linkage.
#define BITGRAPH_TU_LOCAL static

/// Last template parameter of an op struct whose member functions hold Kokkos lambdas:
/// `template <class ExecSpace, class S, BITGRAPH_TU_LOCAL_PARAM> struct spmspv_generic`.
#define BITGRAPH_TU_LOCAL_PARAM void (*)() = &::bitgraph::detail::tu_anchor
