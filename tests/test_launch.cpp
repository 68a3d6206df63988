// detail::reduce_range against closed forms on every space: a plain sum, a Kokkos reducer and a functor with its
// own value type, init and join, over counts around a team's size and past one wave of full-occupancy teams (the
// CUDA path's grid-stride loop).
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>

#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/launch.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

/// f(i) = 3 i + 1, summed.
struct sum_body {
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i, unsigned long long& acc) const { acc += 3 * i + 1; }
};

/// (i * 7919) mod 1000003, its maximum.
struct max_body {
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint32_t i, std::uint64_t& m) const {
    const std::uint64_t x = (std::uint64_t(i) * 7919u) % 1000003u;
    if (x > m) m = x;
  }
};

struct min_count {
  std::uint64_t smallest;
  std::uint64_t count;
};

/// The smallest odd i * 13 + 5 and the number of odd ones, with the functor's own value type, init and join.
struct odd_body {
  using value_type = min_count;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i, value_type& acc) const {
    const std::uint64_t x = i * 13 + 5;
    if (x % 2 == 1) {
      acc.count += 1;
      if (x < acc.smallest) acc.smallest = x;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.smallest = ~std::uint64_t(0);
    v.count = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
                                   const BITGRAPH_JOIN_VOLATILE value_type& src) const {
    if (src.smallest < dst.smallest) dst.smallest = src.smallest;
    dst.count = dst.count + src.count;
  }
};

}  // namespace

TEMPLATE_TEST_CASE("reduce_range equals closed forms on every count", "[launch]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (const std::uint64_t n : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(255), std::uint64_t(256),
                                std::uint64_t(257), std::uint64_t(100003), std::uint64_t(3000001)}) {
    INFO("count " << n);
    unsigned long long sum = 0;
    detail::reduce_range("test::sum", exec, n, sum_body{}, sum);
    CHECK(sum == 3 * (n * (n - (n > 0 ? 1 : 0)) / 2) + n);

    std::uint64_t m = 0;
    detail::reduce_range("test::max", exec, static_cast<std::uint32_t>(n), max_body{}, Kokkos::Max<std::uint64_t>(m));
    std::uint64_t expect_max = 0;
    for (std::uint64_t i = 0; i < n; ++i) expect_max = std::max(expect_max, (i * 7919u) % 1000003u);
    CHECK(m == (n > 0 ? expect_max : Kokkos::reduction_identity<std::uint64_t>::max()));

    min_count mc{0, 0};
    detail::reduce_range("test::odd", exec, n, odd_body{}, mc);
    // i * 13 + 5 is odd exactly when i is even: ceil(n / 2) of them, the smallest at i = 0.
    CHECK(mc.count == (n + 1) / 2);
    CHECK(mc.smallest == (n > 0 ? std::uint64_t(5) : ~std::uint64_t(0)));
  }
}
