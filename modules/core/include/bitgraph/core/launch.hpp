// Launch-shape helpers shared by the portable kernels: how many threads a team gets and how wide its
// vector lanes are on each kind of execution space.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "bitgraph/core/execution.hpp"

namespace bitgraph::detail {

/// Team threads and vector lanes for a kernel whose inner (vector) loop has `lanes` natural lanes.
/// On CUDA a team is ~256 threads of `min(lanes, 32)`-wide vector groups; host spaces run vector loops
/// serially, so a team is one thread there.
struct team_shape {
  int team_size = 1;
  int vector_length = 1;
};

template <class ExecSpace>
team_shape shape_for(int lanes, int threads_per_team = 256) {
  team_shape s;
  if constexpr (is_cuda_space_v<ExecSpace>) {
    int v = 1;
    while (v < lanes && v < 32) v *= 2;
    s.vector_length = v;
    s.team_size = threads_per_team / v > 0 ? threads_per_team / v : 1;
  } else {
    (void)lanes;
    (void)threads_per_team;
  }
  return s;
}

template <class T, class = void>
struct reduce_is_reducer : std::false_type {};
template <class T>
struct reduce_is_reducer<T, std::void_t<typename T::reducer>> : std::true_type {};
template <class T, class = void>
struct reduce_has_value_type : std::false_type {};
template <class T>
struct reduce_has_value_type<T, std::void_t<typename T::value_type>> : std::true_type {};
template <class T>
struct reduce_value_of {
  using type = typename T::value_type;
};
template <class T>
struct reduce_plain {
  using type = T;
};

/// The value type of a reduction of `Functor` into `Result`: a reducer's, else the functor's `value_type`, else
/// the result's own type.
template <class Functor, class Result, class R = std::remove_cv_t<std::remove_reference_t<Result>>>
using reduce_value_t = typename std::conditional_t<
    reduce_is_reducer<R>::value, reduce_value_of<R>,
    std::conditional_t<reduce_has_value_type<Functor>::value, reduce_value_of<Functor>, reduce_plain<R>>>::type;

/// Whether `Functor` reduces with its own `init` / `join` (a `value_type` functor).
template <class Functor, class Value>
concept reduce_functor_joins = requires(const Functor& f, Value& a, const Value& b) {
  f.init(a);
  f.join(a, b);
};

/// The body of `reduce_range` on CUDA: each team thread calls the functor for items team * T + thread, then
/// every league * T items after (coalesced, grid-stride), into its own partial; `init` / `join` / `value_type`
/// are the functor's, inherited. Kokkos 3.4 keeps a team reduction's value behind its address (in local memory,
/// which the L1 mostly lacks under a shared-memory carve-out): every item's update of it was a local load and store.
/// The partial is therefore a local of the loop (registers), joined into Kokkos's value once per thread; with no
/// functor `join` the reduction is Kokkos's default sum (value-initialised, `+=`). Into a reducer (whose `join` the
/// body cannot see: `Partial` false) every item still updates Kokkos's value.
template <class Functor, class Value, class Member, class Index, bool Partial>
struct range_reduce_body : Functor {
  Index count;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m, Value& acc) const {
    const std::uint64_t stride = std::uint64_t(m.league_size()) * std::uint64_t(m.team_size());
    const std::uint64_t first =
        std::uint64_t(m.league_rank()) * std::uint64_t(m.team_size()) + std::uint64_t(m.team_rank());
    if constexpr (!Partial) {
      for (std::uint64_t i = first; i < std::uint64_t(count); i += stride)
        Functor::operator()(static_cast<Index>(i), acc);
    } else {
      Value part{};
      if constexpr (reduce_functor_joins<Functor, Value>) Functor::init(part);
      for (std::uint64_t i = first; i < std::uint64_t(count); i += stride)
        Functor::operator()(static_cast<Index>(i), part);
      if constexpr (reduce_functor_joins<Functor, Value>) {
        const Value whole = part;  // the join's operands may be volatile: `part` itself stays out of memory
        Functor::join(acc, whole);
      } else {
        acc += part;
      }
    }
  }
};

/// `Kokkos::parallel_reduce` of `f(i, acc)` over i < `count`, as a RangePolicy would run it, with `result` a
/// value or a reducer. On CUDA it runs as a grid-stride team reduction of three 256-thread teams per SM, all
/// resident at once: Kokkos 3.4 caps a RangePolicy reduction at 256 blocks, which leaves streaming passes
/// latency-bound, while each team beyond those pays a team reduction of the (often wide) value; 3 to 8 teams per
/// SM and 32 were measured on the multi-source BFS's update pass, 3 fastest (docs/PERFORMANCE.md).
/// Fences like `parallel_reduce` when `result` is a host value.
template <class Index, class ExecSpace, class Functor, class Result>
void reduce_range(const char* label, const ExecSpace& exec, Index count, const Functor& f, Result&& result) {
  if constexpr (is_cuda_space_v<ExecSpace>) {
    using policy = Kokkos::TeamPolicy<ExecSpace>;
    using value = reduce_value_t<Functor, Result>;
    constexpr bool partial = reduce_functor_joins<Functor, value> ||
                             !reduce_is_reducer<std::remove_cv_t<std::remove_reference_t<Result>>>::value;
    constexpr int team = 256;
    const std::uint64_t teams_needed = (std::uint64_t(count) + team - 1) / team;
    // Three teams per SM: 3/8 of the 2048 threads an SM holds (a league of 8 per SM with 48 registers a thread
    // had run in 1.6 waves).
    const std::uint64_t wave = std::max<std::uint64_t>(1, std::uint64_t(exec.concurrency()) * 3 / (8 * team));
    const int league = static_cast<int>(teams_needed < wave ? (teams_needed > 0 ? teams_needed : 1) : wave);
    Kokkos::parallel_reduce(label, policy(exec, league, team),
                            range_reduce_body<Functor, value, typename policy::member_type, Index, partial>{f, count},
                            std::forward<Result>(result));
  } else {
    Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>(exec, 0, count), f,
                            std::forward<Result>(result));
  }
}

}  // namespace bitgraph::detail
