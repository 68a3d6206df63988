// The portable kernels of assign and apply, primary templates of their dispatch: a scalar into a dense
// vector or bitmap under a mask, a scalar at listed indices, and a unary operator over a dense vector.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph::detail {

template <class Mem, class Accum, class T>
struct assign_dense_functor {
  Kokkos::View<T*, Mem> out;
  mask_args<Mem> mask;
  T s, absent;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    out(i) = merge_value<Accum>(out(i), s, mask.allows(i), mask.replace, absent);
  }
};

/// Dense w<mask> = accum(w, s).
template <class ExecSpace, class Accum, class T>
struct assign_dense_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, T s, T absent) {
    Kokkos::parallel_for("bitgraph::assign::dense",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
                         assign_dense_functor<mem, Accum, T>{w, mask, s, absent});
  }
};

template <class ExecSpace, class Accum, class T>
struct assign_dense_impl : assign_dense_generic<ExecSpace, Accum, T> {};

template <class Mem, class Accum>
struct assign_bits_functor {
  Kokkos::View<std::uint32_t*, Mem> out;
  mask_args<Mem> mask;
  std::uint64_t n;
  std::uint32_t t;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t wi) const {
    out(wi) = merge_bits<Accum>(out(wi), t, mask.allowed_word(wi), valid_bits(wi, n), mask.replace);
  }
};

/// Bitmap w<mask> = accum(w, s), one thread per word.
template <class ExecSpace, class Accum>
struct assign_bits_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const bitmap<mem>& w, const mask_args<mem>& mask, bool s) {
    Kokkos::parallel_for("bitgraph::assign::bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, w.words.extent(0)),
                         assign_bits_functor<mem, Accum>{w.words, mask, w.n, s ? ~std::uint32_t(0) : 0u});
  }
};

template <class ExecSpace, class Accum>
struct assign_bits_impl : assign_bits_generic<ExecSpace, Accum> {};

template <class Mem, class T>
struct assign_indices_functor {
  Kokkos::View<T*, Mem> out;
  Kokkos::View<const vertex_t*, Mem> ix;
  T s;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { out(ix(p)) = s; }
};

/// Several indices may share a word (or repeat): atomic OR / AND keep every update.
template <class Mem>
struct assign_indices_bits_functor {
  Kokkos::View<std::uint32_t*, Mem> out;
  Kokkos::View<const vertex_t*, Mem> ix;
  bool s;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    const vertex_t i = ix(p);
    const std::uint32_t bit = std::uint32_t(1) << (i & 31);
    if (s)
      Kokkos::atomic_fetch_or(&out(i >> 5), bit);
    else
      Kokkos::atomic_fetch_and(&out(i >> 5), ~bit);
  }
};

template <class Mem>
struct count_out_of_range_functor {
  Kokkos::View<const vertex_t*, Mem> ix;
  std::uint64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& acc) const { acc += ix(p) >= n ? 1 : 0; }
};

/// w(I) = s for a dense vector or bitmap, after the face checked the indices (`count_out_of_range`).
template <class ExecSpace, class T>
struct assign_indices_generic {
  using mem = memory_space_t<ExecSpace>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  /// Number of indices >= n (the face throws when there are any, before anything is written).
  static offset_t count_out_of_range(const ExecSpace& exec, const Kokkos::View<const vertex_t*, mem>& idx,
                                     std::uint64_t n) {
    offset_t bad = 0;
    Kokkos::parallel_reduce("bitgraph::assign::check_indices", policy(exec, 0, idx.extent(0)),
                            count_out_of_range_functor<mem>{idx, n}, bad);
    return bad;
  }
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const Kokkos::View<const vertex_t*, mem>& idx,
                  T s) {
    Kokkos::parallel_for("bitgraph::assign::indices", policy(exec, 0, idx.extent(0)),
                         assign_indices_functor<mem, T>{w, idx, s});
  }
  static void run_bits(const ExecSpace& exec, const bitmap<mem>& w, const Kokkos::View<const vertex_t*, mem>& idx,
                       bool s) {
    Kokkos::parallel_for("bitgraph::assign::indices_bits", policy(exec, 0, idx.extent(0)),
                         assign_indices_bits_functor<mem>{w.words, idx, s});
  }
};

template <class ExecSpace, class T>
struct assign_indices_impl : assign_indices_generic<ExecSpace, T> {};

template <class Mem, class Accum, class F, class T>
struct apply_dense_functor {
  Kokkos::View<T*, Mem> out;
  Kokkos::View<const T*, Mem> in;
  mask_args<Mem> mask;
  F op;
  T absent;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    const bool allowed = mask.allows(i);
    T t = absent;
    if (allowed) {
      const T x = in(i);
      if (x != absent) t = elementwise::apply_unary(op, static_cast<vertex_t>(i), x);
    }
    out(i) = merge_value<Accum>(out(i), t, allowed, mask.replace, absent);
  }
};

/// Dense w<mask> = accum(w, f(u)); f is applied to present entries only.
template <class ExecSpace, class Accum, class F, class T>
struct apply_dense_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, const F& f,
                  const Kokkos::View<const T*, mem>& u, T absent) {
    Kokkos::parallel_for("bitgraph::apply::dense",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
                         apply_dense_functor<mem, Accum, F, T>{w, u, mask, f, absent});
  }
};

template <class ExecSpace, class Accum, class F, class T>
struct apply_dense_impl : apply_dense_generic<ExecSpace, Accum, F, T> {};

}  // namespace bitgraph::detail
