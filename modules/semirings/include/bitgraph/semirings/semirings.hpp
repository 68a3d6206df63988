// Semirings as types: additive monoids, multiplicative operators, their combinations (LOR_LAND,
// PLUS_TIMES, MIN_PLUS, MAX_TIMES, PLUS_PAIR, MIN_SECOND, ANY_SECONDI, ...) and the traits that tell when a
// semiring reduces to AND/OR or AND/popcount on bits, so the bit kernels apply.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "bitgraph/core/types.hpp"

namespace bitgraph {

// ------------------------------------------------------------------------------------------ monoids
//
// A monoid M provides `value_type`, `identity()`, `combine(a, b)` (associative, commutative) and
// `atomic_combine(T* p, T v)` (combine into memory shared by threads). `terminal` is true when some
// value absorbs everything after it (OR reaching true, ANY holding a value): pull kernels may then stop
// a row early ("early exit", Yang et al. §5.3).

namespace detail {
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T max_value() {
  if constexpr (std::is_floating_point_v<T>)
    return Kokkos::Experimental::infinity<T>::value;
  else
    return Kokkos::Experimental::finite_max<T>::value;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T min_value() {
  if constexpr (std::is_floating_point_v<T>)
    return -Kokkos::Experimental::infinity<T>::value;
  else
    return Kokkos::Experimental::finite_min<T>::value;
}
}  // namespace detail

/// (+, 0).
template <class T>
struct plus_monoid {
  using value_type = T;
  static constexpr bool terminal = false;
  static constexpr std::string_view name = "plus";
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return T(0); }
  KOKKOS_INLINE_FUNCTION static constexpr T combine(T a, T b) { return a + b; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(T* p, T v) { Kokkos::atomic_add(p, v); }
};

/// (min, +inf) — the largest value for integers.
template <class T>
struct min_monoid {
  using value_type = T;
  static constexpr bool terminal = false;
  static constexpr std::string_view name = "min";
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return detail::max_value<T>(); }
  KOKKOS_INLINE_FUNCTION static constexpr T combine(T a, T b) { return b < a ? b : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(T* p, T v) { Kokkos::atomic_fetch_min(p, v); }
};

/// (max, -inf) — the lowest value for integers.
template <class T>
struct max_monoid {
  using value_type = T;
  static constexpr bool terminal = false;
  static constexpr std::string_view name = "max";
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return detail::min_value<T>(); }
  KOKKOS_INLINE_FUNCTION static constexpr T combine(T a, T b) { return a < b ? b : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(T* p, T v) { Kokkos::atomic_fetch_max(p, v); }
};

/// (OR, false) on Booleans stored as `std::uint8_t` (0 or 1), so dense Boolean vectors are byte arrays.
struct lor_monoid {
  using value_type = std::uint8_t;
  static constexpr bool terminal = true;
  static constexpr std::string_view name = "lor";
  KOKKOS_INLINE_FUNCTION static constexpr value_type identity() { return 0; }
  KOKKOS_INLINE_FUNCTION static constexpr value_type combine(value_type a, value_type b) { return (a | b) ? 1 : 0; }
  /// Only ever stores 1, so concurrent writers cannot lose an update.
  KOKKOS_INLINE_FUNCTION static void atomic_combine(value_type* p, value_type v) {
    if (v) *static_cast<volatile value_type*>(p) = 1;
  }
};

/// (ANY, none): keeps whichever value arrives first; `identity()` (the largest value) means "none yet".
/// With SECONDI it yields any parent of a vertex, which is all a BFS tree needs.
template <class T>
struct any_monoid {
  using value_type = T;
  static constexpr bool terminal = true;
  static constexpr std::string_view name = "any";
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return detail::max_value<T>(); }
  KOKKOS_INLINE_FUNCTION static constexpr T combine(T a, T b) { return a == identity() ? b : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(T* p, T v) { Kokkos::atomic_compare_exchange(p, identity(), v); }
};

// ------------------------------------------------------------------------------ multiply operators
//
// A multiply operator provides `apply(a, x, i, j)` for the matrix entry a = A(i, j) (1 for a pattern /
// bit matrix) and the vector entry x = x(j); i and j make positional operators (SECONDI) possible.

/// a * x.
struct times_op {
  static constexpr std::string_view name = "times";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T x, vertex_t, vertex_t) {
    return a * x;
  }
};
/// a AND x.
struct land_op {
  static constexpr std::string_view name = "land";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T x, vertex_t, vertex_t) {
    return (a && x) ? T(1) : T(0);
  }
};
/// a + x, saturating at the largest value for integers so that "infinity + w" stays infinity.
struct plus_op {
  static constexpr std::string_view name = "plus";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T x, vertex_t, vertex_t) {
    if constexpr (std::is_integral_v<T>) {
      constexpr T big = detail::max_value<T>();
      if (a == big || x == big || x > big - a) return big;
    }
    return a + x;
  }
};
/// x (the vector operand).
struct second_op {
  static constexpr std::string_view name = "second";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T, T x, vertex_t, vertex_t) {
    return x;
  }
};
/// a (the matrix entry).
struct first_op {
  static constexpr std::string_view name = "first";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T, vertex_t, vertex_t) {
    return a;
  }
};
/// 1 whenever both operands are present.
struct pair_op {
  static constexpr std::string_view name = "pair";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T, T, vertex_t, vertex_t) {
    return T(1);
  }
};
/// j: the index of the vector entry (the column of A), e.g. the parent in a BFS pull.
struct secondi_op {
  static constexpr std::string_view name = "secondi";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T, T, vertex_t, vertex_t j) {
    return static_cast<T>(j);
  }
};

// -------------------------------------------------------------------------------------- semirings

/// A semiring (add monoid, multiply operator). `value_type` is the monoid's.
template <class AddMonoid, class MultiplyOp>
struct semiring {
  using add_monoid = AddMonoid;
  using multiply_op = MultiplyOp;
  using value_type = typename AddMonoid::value_type;
  KOKKOS_INLINE_FUNCTION static constexpr value_type identity() { return AddMonoid::identity(); }
  KOKKOS_INLINE_FUNCTION static constexpr value_type add(value_type a, value_type b) {
    return AddMonoid::combine(a, b);
  }
  KOKKOS_INLINE_FUNCTION static constexpr value_type multiply(value_type a, value_type x, vertex_t i, vertex_t j) {
    return MultiplyOp::template apply<value_type>(a, x, i, j);
  }
  KOKKOS_INLINE_FUNCTION static void atomic_add(value_type* p, value_type v) { AddMonoid::atomic_combine(p, v); }
  /// The value of a stored entry of a pattern (bit) matrix.
  KOKKOS_INLINE_FUNCTION static constexpr value_type one() { return value_type(1); }
};

/// Boolean (OR, AND): BFS reachability.
using lor_land = semiring<lor_monoid, land_op>;
/// Arithmetic (+, *): PageRank, counting.
template <class T>
using plus_times = semiring<plus_monoid<T>, times_op>;
/// Tropical (min, +): shortest paths.
template <class T>
using min_plus = semiring<min_monoid<T>, plus_op>;
/// (max, *): MIS / colouring style maxima.
template <class T>
using max_times = semiring<max_monoid<T>, times_op>;
/// (+, pair): counts the structural matches (triangle counting, degrees).
template <class T>
using plus_pair = semiring<plus_monoid<T>, pair_op>;
/// (min, second): propagates the smallest neighbour value (FastSV connected components).
template <class T>
using min_second = semiring<min_monoid<T>, second_op>;
/// (any, secondi): any neighbour's id (BFS parents).
template <class T>
using any_secondi = semiring<any_monoid<T>, secondi_op>;
/// (min, secondi): the smallest neighbour id (deterministic BFS parents).
template <class T>
using min_secondi = semiring<min_monoid<T>, secondi_op>;

// ---------------------------------------------------------------------------------------- traits

/// How a semiring evaluates on a bit row r and a bit vector x (both 0/1):
///  - `or_and`: the result is "any bit of r AND x" (Boolean semirings and ANY with a 0/1-valued product);
///  - `popcount`: the result is popcount(r AND x) (PLUS with TIMES or PAIR);
///  - `none`: bits must be visited one by one (positional or non-Boolean products).
enum class bit_reduction : std::uint8_t { none, or_and, popcount };

/// The bit reduction of semiring S (see `bit_reduction`). Specialise for user-defined semirings whose
/// products on 0/1 reduce the same way.
template <class S>
struct bit_reduction_of : std::integral_constant<bit_reduction, bit_reduction::none> {};
template <>
struct bit_reduction_of<lor_land> : std::integral_constant<bit_reduction, bit_reduction::or_and> {};
template <>
struct bit_reduction_of<semiring<lor_monoid, pair_op>> : std::integral_constant<bit_reduction, bit_reduction::or_and> {
};
template <>
struct bit_reduction_of<semiring<lor_monoid, times_op>> : std::integral_constant<bit_reduction, bit_reduction::or_and> {
};
template <class T>
struct bit_reduction_of<plus_times<T>> : std::integral_constant<bit_reduction, bit_reduction::popcount> {};
template <class T>
struct bit_reduction_of<plus_pair<T>> : std::integral_constant<bit_reduction, bit_reduction::popcount> {};
template <class T>
struct bit_reduction_of<semiring<plus_monoid<T>, land_op>>
    : std::integral_constant<bit_reduction, bit_reduction::popcount> {};

/// Value of `bit_reduction_of<S>`.
template <class S>
inline constexpr bit_reduction bit_reduction_v = bit_reduction_of<S>::value;

/// True when the semiring's addition is Boolean OR (its result is a 0/1 bit): the only semirings whose
/// result can be a bitmap (scheme bin·bin→bin).
template <class S>
inline constexpr bool is_boolean_semiring_v = std::is_same_v<typename S::add_monoid, lor_monoid>;

/// True when a row's reduction may stop at the first contribution (OR and ANY monoids).
template <class S>
inline constexpr bool allows_early_exit_v = S::add_monoid::terminal;

// -------------------------------------------------------------------------------- accumulators

/// No accumulation: the result replaces the old value.
struct no_accumulator {};

/// Accumulate with a monoid's combine: w(i) = combine(w(i), t(i)).
template <class Monoid>
struct accumulate_with {
  using monoid = Monoid;
};

}  // namespace bitgraph
