// The operators the element-wise ops take, on one page: binary operators (ewise_add, ewise_mult), unary
// operators (apply) and predicates (select on vectors), with the traits that tell which form a type has.
#pragma once

#include <Kokkos_Core.hpp>

#include <string_view>
#include <type_traits>
#include <utility>

#include "bitgraph/core/types.hpp"

namespace bitgraph {

// ------------------------------------------------------------------------------ binary operators
//
// A binary operator for the element-wise ops is any of
//  - a monoid of semirings.hpp (`plus_monoid<T>`, `min_monoid<T>`, `lor_monoid`, ...): `combine(a, b)`;
//  - a struct with `apply(a, b)` (such as `minus_op` below);
//  - a multiply operator of semirings.hpp (`times_op`, `first_op`, `pair_op`, `secondi_op`, ...):
//    `apply(a, b, i, j)`, called with i = j = the position, so positional operators see it.
// Operators are copied into the kernels, so they may carry state (a bound scalar).

/// a - b (not commutative: ewise ops always pass the first vector's entry first).
struct minus_op {
  static constexpr std::string_view name = "minus";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T b) {
    return static_cast<T>(a - b);
  }
};

namespace detail::elementwise {

template <class Op, class T, class = void>
struct has_combine : std::false_type {};
template <class Op, class T>
struct has_combine<Op, T,
                   std::void_t<decltype(std::declval<const Op&>().combine(std::declval<T>(), std::declval<T>()))>>
    : std::true_type {};

template <class Op, class T, class = void>
struct has_apply2 : std::false_type {};
template <class Op, class T>
struct has_apply2<Op, T, std::void_t<decltype(std::declval<const Op&>().apply(std::declval<T>(), std::declval<T>()))>>
    : std::true_type {};

template <class Op, class T, class = void>
struct has_apply4 : std::false_type {};
template <class Op, class T>
struct has_apply4<Op, T,
                  std::void_t<decltype(std::declval<const Op&>().apply(
                      std::declval<T>(), std::declval<T>(), std::declval<vertex_t>(), std::declval<vertex_t>()))>>
    : std::true_type {};

template <class Op, class = void>
struct has_identity : std::false_type {};
template <class Op>
struct has_identity<Op, std::void_t<decltype(Op::identity())>> : std::true_type {};

/// True when `Op` can combine two `T` in one of the three forms the element-wise ops accept.
template <class Op, class T>
inline constexpr bool is_binary_op_v =
    has_combine<Op, T>::value || has_apply2<Op, T>::value || has_apply4<Op, T>::value;

/// op(a, b) at position i in whichever form `Op` provides.
template <class Op, class T>
KOKKOS_FORCEINLINE_FUNCTION T apply_binary(const Op& op, T a, T b, vertex_t i) {
  if constexpr (has_combine<Op, T>::value) {
    return static_cast<T>(op.combine(a, b));
  } else if constexpr (has_apply2<Op, T>::value) {
    return static_cast<T>(op.apply(a, b));
  } else {
    return static_cast<T>(op.apply(a, b, i, i));
  }
}

/// op(a, b) at the matrix entry (i, j): monoids and apply(a, b) ignore the position, multiply operators get the row
/// and the column (apply_binary, for vectors, passes one position as both).
template <class Op, class T>
KOKKOS_FORCEINLINE_FUNCTION T apply_binary_at(const Op& op, T a, T b, vertex_t i, vertex_t j) {
  if constexpr (has_combine<Op, T>::value || has_apply2<Op, T>::value)
    return apply_binary(op, a, b, i);
  else
    return static_cast<T>(op.apply(a, b, i, j));
}

template <class F, class T, class = void>
struct has_unary_apply : std::false_type {};
template <class F, class T>
struct has_unary_apply<F, T, std::void_t<decltype(std::declval<const F&>().apply(std::declval<T>()))>>
    : std::true_type {};

template <class F, class T, class = void>
struct has_positional_apply : std::false_type {};
template <class F, class T>
struct has_positional_apply<
    F, T, std::void_t<decltype(std::declval<const F&>().apply(std::declval<vertex_t>(), std::declval<T>()))>>
    : std::true_type {};

/// f(x) at position i in whichever form `F` provides.
template <class F, class T>
KOKKOS_FORCEINLINE_FUNCTION T apply_unary(const F& f, vertex_t i, T x) {
  if constexpr (has_unary_apply<F, T>::value)
    return static_cast<T>(f.apply(x));
  else
    return static_cast<T>(f.apply(i, x));
}

template <class P, class T, class = void>
struct is_predicate : std::false_type {};
template <class P, class T>
struct is_predicate<P, T,
                    std::void_t<decltype(static_cast<bool>(std::declval<const P&>().apply(
                        std::declval<vertex_t>(), std::declval<T>())))>> : std::true_type {};

}  // namespace detail::elementwise

// ------------------------------------------------------------------------------- unary operators
//
// A unary operator for `apply` is a struct with `apply(x)`, or `apply(i, x)` when it needs the position.

/// x.
struct identity_op {
  static constexpr std::string_view name = "identity";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    return x;
  }
};

/// |x| (x itself for unsigned types).
struct abs_op {
  static constexpr std::string_view name = "abs";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    if constexpr (std::is_signed_v<T>) {
      return x < T(0) ? static_cast<T>(-x) : x;
    } else {
      return x;
    }
  }
};

/// -x, the additive inverse (wraps around for unsigned types).
struct ainv_op {
  static constexpr std::string_view name = "ainv";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    return static_cast<T>(-x);
  }
};

/// x * s: TIMES with its second operand bound to the scalar s (scaling a vector).
template <class T>
struct times_scalar {
  T s{};
  KOKKOS_INLINE_FUNCTION constexpr T apply(T x) const { return static_cast<T>(x * s); }
};

/// op(x, s) for any binary operator of the element-wise ops (monoid, `apply(a, b)` or a semiring
/// multiply operator, which sees the position as i and j).
template <class Op, class T>
struct bind_second {
  Op op{};
  T s{};
  KOKKOS_INLINE_FUNCTION T apply(vertex_t i, T x) const { return detail::elementwise::apply_binary(op, x, s, i); }
};

/// Makes `bind_second<Op, T>{op, s}`.
template <class Op, class T>
bind_second<Op, T> bind_second_of(const Op& op, T s) {
  return bind_second<Op, T>{op, s};
}

// ------------------------------------------------------------------------------------ predicates
//
// A vector predicate is a struct with `apply(i, x)` returning true for the entries to keep.

/// x == value.
template <class T>
struct value_eq {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x == value; }
};
/// x != value.
template <class T>
struct value_ne {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x != value; }
};
/// x > value.
template <class T>
struct value_gt {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x > value; }
};
/// x >= value.
template <class T>
struct value_ge {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x >= value; }
};
/// x < value.
template <class T>
struct value_lt {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x < value; }
};
/// x <= value.
template <class T>
struct value_le {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x <= value; }
};

}  // namespace bitgraph
