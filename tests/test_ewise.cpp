// ewise_add / ewise_mult on dense vectors, bitmaps and sparse vectors: every operator form, mask form
// and accumulator against a host reference written from the GraphBLAS definitions.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "bitgraph/ops/ewise.hpp"
#include "support/reduced.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

template <class Exec>
bitmap<typename Exec::memory_space> make_bits(const Exec& exec, const std::vector<std::uint8_t>& b) {
  auto v = test::to_view<typename Exec::memory_space>(b);
  return to_bitmap<Exec, std::uint8_t>(exec, v);
}

template <class B>
std::vector<std::uint8_t> host_bits(const B& b) {
  auto w = test::to_vector(b.words);
  std::vector<std::uint8_t> out(b.n);
  for (vertex_t i = 0; i < b.n; ++i) out[i] = (w[i / 32] >> (i % 32)) & 1u;
  return out;
}

// Padding bits (>= n) of a bitmap must stay zero.
template <class B>
bool padding_clear(const B& b) {
  auto w = test::to_vector(b.words);
  for (std::size_t k = 0; k < w.size(); ++k)
    for (int bit = 0; bit < 32; ++bit)
      if (k * 32 + bit >= b.n && ((w[k] >> bit) & 1u)) return false;
  return true;
}

struct mask_case {
  bool use = false, complement = false, replace = false;
};
const mask_case mask_cases[] = {
    {false, false, false}, {true, false, false}, {true, true, false}, {true, false, true}, {true, true, true}};

const vertex_t sizes[] = {0, 1, 31, 33, 64, 100, 257};

bool allowed_at(const mask_case& mc, const std::vector<std::uint8_t>& mb, vertex_t i) {
  return !mc.use || ((mb[i] != 0) != mc.complement);
}

// GraphBLAS merge of one dense element with an absent marker (written from the spec, not the library).
template <class T>
T ref_merge(T old, T t, bool allowed, bool replace, T absent, const std::function<T(T, T)>* accum) {
  if (!allowed) return replace ? absent : old;
  if (accum == nullptr) return t;
  if (t == absent) return old;
  if (old == absent) return t;
  return (*accum)(old, t);
}

// Random dense vector: `density` of the entries present with values 1..9, the rest `absent`.
template <class T>
std::vector<T> random_dense(vertex_t n, double density, T absent, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution present(density);
  std::uniform_int_distribution<int> val(1, 9);
  std::vector<T> x(n, absent);
  for (auto& v : x)
    if (present(rng)) v = static_cast<T>(val(rng));
  return x;
}

// Runs ewise_add and ewise_mult on dense vectors for one operator / accumulator through every size,
// density and mask form. `absent` is what the call should use; `pass_absent` passes it explicitly
// (otherwise the default must equal it).
template <class Exec, class T, class Op, class Accum>
void check_dense(const Exec& exec, const Op& op, std::function<T(T, T, vertex_t)> ref_op,
                 const std::function<T(T, T)>* ref_accum, T absent, bool pass_absent, const char* what) {
  using mem = typename Exec::memory_space;
  std::uint64_t seed = 7;
  test::thinning thin(11);  // reduced mode: every 11th (size, density, add/mult, mask) combination
  for (vertex_t n : sizes) {
    for (double density : {0.2, 0.7, 1.0}) {
      for (bool mult : {false, true}) {
        for (const auto& mc : mask_cases) {
          ++seed;
          if (!thin.keep()) continue;
          INFO(what << " n=" << n << " density=" << density << " mult=" << mult << " mask=" << mc.use << mc.complement
                    << mc.replace);
          auto uh = random_dense<T>(n, density, absent, seed);
          auto vh = random_dense<T>(n, density, absent, seed + 1000);
          auto w0 = random_dense<T>(n, 0.5, absent, seed + 2000);
          auto mb = test::random_bits(n, 0.5, seed + 3000);
          auto u = test::to_view<mem>(uh);
          auto v = Kokkos::View<const T*, mem>(test::to_view<mem>(vh));
          auto w = test::to_view<mem>(w0);
          vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
          auto run = [&](const auto& m) {
            if (pass_absent) {
              if (mult)
                ewise_mult(exec, w, m, Accum{}, op, u, v, absent);
              else
                ewise_add(exec, w, m, Accum{}, op, u, v, absent);
            } else {
              if (mult)
                ewise_mult(exec, w, m, Accum{}, op, u, v);
              else
                ewise_add(exec, w, m, Accum{}, op, u, v);
            }
          };
          if (mc.use)
            run(mask);
          else
            run(no_mask{});
          auto got = test::to_vector(w);
          REQUIRE(got.size() == n);
          for (vertex_t i = 0; i < n; ++i) {
            const bool allowed = allowed_at(mc, mb, i);
            const bool pu = uh[i] != absent, pv = vh[i] != absent;
            T t = absent;
            if (pu && pv)
              t = ref_op(uh[i], vh[i], i);
            else if (!mult && pu)
              t = uh[i];
            else if (!mult && pv)
              t = vh[i];
            CHECK(got[i] == ref_merge<T>(w0[i], t, allowed, mc.replace, absent, ref_accum));
          }
        }
      }
    }
  }
}

// Random sparse vector as host (index, value) pairs.
struct host_sparse {
  std::vector<vertex_t> idx;
  std::vector<std::int32_t> val;
};

host_sparse random_sparse(vertex_t n, double density, bool values, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution present(density);
  std::uniform_int_distribution<int> val(-9, 9);
  host_sparse s;
  for (vertex_t i = 0; i < n; ++i)
    if (present(rng)) {
      s.idx.push_back(i);
      if (values) s.val.push_back(val(rng));
    }
  return s;
}

}  // namespace

TEMPLATE_TEST_CASE("ewise on dense vectors equals the reference", "[ops][ewise]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Monoid operator (combine), default absent = its identity 0, without and with an accumulator.
  const std::function<double(double, double)> plus_acc = [](double a, double b) { return a + b; };
  check_dense<TestType, double, plus_monoid<double>, no_accumulator>(
      exec, plus_monoid<double>{}, [](double a, double b, vertex_t) { return a + b; }, nullptr, 0.0, false, "plus");
  check_dense<TestType, double, plus_monoid<double>, accumulate_with<plus_monoid<double>>>(
      exec, plus_monoid<double>{}, [](double a, double b, vertex_t) { return a + b; }, &plus_acc, 0.0, false,
      "plus+accum");
  // apply(a, b) operator, not commutative; default absent = the accumulator's identity (INT32_MAX).
  const std::function<std::int32_t(std::int32_t, std::int32_t)> min_acc = [](std::int32_t a, std::int32_t b) {
    return b < a ? b : a;
  };
  check_dense<TestType, std::int32_t, minus_op, accumulate_with<min_monoid<std::int32_t>>>(
      exec, minus_op{}, [](std::int32_t a, std::int32_t b, vertex_t) { return a - b; }, &min_acc,
      min_monoid<std::int32_t>::identity(), false, "minus+min");
  // Semiring multiply operator apply(a, b, i, j) with an explicit absent marker that is not the
  // accumulator's identity (an absent old entry must take the result as it is).
  const std::function<float(float, float)> fmin_acc = [](float a, float b) { return b < a ? b : a; };
  check_dense<TestType, float, times_op, no_accumulator>(
      exec, times_op{}, [](float a, float b, vertex_t) { return a * b; }, nullptr, -1.0f, true, "times");
  check_dense<TestType, float, times_op, accumulate_with<min_monoid<float>>>(
      exec, times_op{}, [](float a, float b, vertex_t) { return a * b; }, &fmin_acc, -1.0f, true, "times+min");
  // Positional operator: the result is the position (0 at position 0 equals the default absent T{}).
  check_dense<TestType, std::uint32_t, secondi_op, no_accumulator>(
      exec, secondi_op{}, [](std::uint32_t, std::uint32_t, vertex_t i) { return std::uint32_t(i); }, nullptr, 0u, false,
      "secondi");
}

TEMPLATE_TEST_CASE("ewise on bitmaps equals the reference", "[ops][ewise]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::uint64_t seed = 50;
  test::thinning thin(11);  // reduced mode: every 11th (size, operator, add/mult, mask, accumulator) combination
  for (vertex_t n : sizes) {
    for (bit_op op : {bit_op::lor, bit_op::land, bit_op::lxor, bit_op::landnot}) {
      for (bool mult : {false, true}) {
        for (const auto& mc : mask_cases) {
          for (bool accum : {false, true}) {
            ++seed;
            if (!thin.keep()) continue;
            INFO("n=" << n << " op=" << to_string(op) << " mult=" << mult << " mask=" << mc.use << mc.complement
                      << mc.replace << " accum=" << accum);
            auto uh = test::random_bits(n, 0.4, seed);
            auto vh = test::random_bits(n, 0.6, seed + 1);
            auto w0 = test::random_bits(n, 0.5, seed + 2);
            auto mb = test::random_bits(n, 0.5, seed + 3);
            auto u = make_bits(exec, uh);
            auto v = make_bits(exec, vh);
            auto w = make_bits(exec, w0);
            vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
            auto run = [&](const auto& m, const auto& acc) {
              if (mult)
                ewise_mult(exec, w, m, acc, op, u, v);
              else
                ewise_add(exec, w, m, acc, op, u, v);
            };
            if (mc.use) {
              if (accum)
                run(mask, accumulate_with<lor_monoid>{});
              else
                run(mask, no_accumulator{});
            } else {
              if (accum)
                run(no_mask{}, accumulate_with<lor_monoid>{});
              else
                run(no_mask{}, no_accumulator{});
            }
            auto got = host_bits(w);
            CHECK(padding_clear(w));
            for (vertex_t i = 0; i < n; ++i) {
              const bool a = uh[i], b = vh[i];
              bool t = false;
              switch (op) {
                case bit_op::lor:
                  t = a || b;
                  break;
                case bit_op::land:
                  t = a && b;
                  break;
                case bit_op::lxor:
                  t = a != b;
                  break;
                case bit_op::landnot:
                  t = a && !b;
                  break;
              }
              const bool allowed = allowed_at(mc, mb, i);
              bool expect;
              if (!allowed)
                expect = mc.replace ? false : w0[i] != 0;
              else
                expect = accum ? (w0[i] || t) : t;
              CHECK(got[i] == expect);
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("ewise on sparse vectors equals the reference", "[ops][ewise]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  using T = std::int32_t;
  TestType exec;
  std::uint64_t seed = 900;
  struct value_case {
    bool u, v;
  };
  test::thinning thin(29);  // reduced mode: every 29th (size, densities, values, mask, add/mult, operator) case
  for (vertex_t n : sizes) {
    for (double du : {0.0, 0.1, 0.6, 1.0}) {
      for (double dv : {0.1, 0.6}) {
        for (value_case vc :
             {value_case{true, true}, value_case{true, false}, value_case{false, true}, value_case{false, false}}) {
          for (const auto& mc : mask_cases) {
            if (mc.replace) continue;  // a new sparse output has no old entries to replace
            for (bool mult : {false, true}) {
              for (bool minus : {false, true}) {
                ++seed;
                if (!thin.keep()) continue;
                INFO("n=" << n << " du=" << du << " dv=" << dv << " values=" << vc.u << vc.v << " mask=" << mc.use
                          << mc.complement << " mult=" << mult << " minus=" << minus);
                auto uh = random_sparse(n, du, vc.u, seed);
                auto vh = random_sparse(n, dv, vc.v, seed + 1);
                auto mb = test::random_bits(n, 0.5, seed + 2);
                auto u = make_sparse_vector(exec, n, uh.idx, uh.val);
                auto v = make_sparse_vector(exec, n, vh.idx, vh.val);
                vector_mask<mem> mask{make_bits(exec, mb), mc.complement, false};
                sparse_vector<T, mem> out;
                auto run = [&](const auto& op) {
                  if (mc.use)
                    out = mult ? ewise_mult(exec, mask, op, u, v) : ewise_add(exec, mask, op, u, v);
                  else
                    out = mult ? ewise_mult(exec, op, u, v) : ewise_add(exec, op, u, v);
                };
                if (minus)
                  run(minus_op{});
                else
                  run(plus_monoid<T>{});
                // Reference from ordered maps.
                std::map<vertex_t, T> mu, mv, expect;
                for (std::size_t p = 0; p < uh.idx.size(); ++p) mu[uh.idx[p]] = vc.u ? uh.val[p] : 1;
                for (std::size_t p = 0; p < vh.idx.size(); ++p) mv[vh.idx[p]] = vc.v ? vh.val[p] : 1;
                auto f = [&](T a, T b) { return minus ? a - b : a + b; };
                for (auto [i, a] : mu) {
                  auto it = mv.find(i);
                  if (it != mv.end())
                    expect[i] = f(a, it->second);
                  else if (!mult)
                    expect[i] = a;
                }
                if (!mult)
                  for (auto [i, b] : mv)
                    if (!mu.count(i)) expect[i] = b;
                std::vector<vertex_t> eidx;
                std::vector<T> evals;
                for (auto [i, x] : expect)
                  if (allowed_at(mc, mb, i)) {
                    eidx.push_back(i);
                    evals.push_back(x);
                  }
                CHECK(out.n == n);
                REQUIRE(out.nnz == eidx.size());
                auto gidx = test::to_vector(out.indices);
                gidx.resize(out.nnz);
                CHECK(gidx == eidx);
                // An operand without stored values (including an empty one) is structure-only.
                const bool valued = (vc.u && !uh.idx.empty()) || (vc.v && !vh.idx.empty());
                CHECK((out.values.extent(0) > 0) == (valued && out.nnz > 0));
                if (valued) {
                  auto gval = test::to_vector(out.values);
                  gval.resize(out.nnz);
                  CHECK(gval == evals);
                }
              }
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("ewise rejects bad arguments", "[ops][ewise][errors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto w = Kokkos::View<double*, mem>("w", 10);
  auto u = Kokkos::View<double*, mem>("u", 10);
  auto short_v = Kokkos::View<double*, mem>("v", 9);
  auto m10 = make_bitmap(exec, 10);
  auto m9 = make_bitmap(exec, 9);
  CHECK_THROWS_AS(ewise_add(exec, w, no_mask{}, no_accumulator{}, plus_monoid<double>{}, u, short_v),
                  invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, w, no_mask{}, no_accumulator{}, plus_monoid<double>{}, short_v, u),
                  invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, short_v, no_mask{}, no_accumulator{}, plus_monoid<double>{}, u, u),
                  invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, w, vector_mask<mem>{m9}, no_accumulator{}, plus_monoid<double>{}, u, u),
                  invalid_argument_error);
  CHECK_NOTHROW(ewise_add(exec, w, vector_mask<mem>{m10}, no_accumulator{}, plus_monoid<double>{}, u, u));

  auto b10 = make_bitmap(exec, 10);
  auto b11 = make_bitmap(exec, 11);
  auto c10 = make_bitmap(exec, 10);
  CHECK_THROWS_AS(ewise_add(exec, b10, no_mask{}, no_accumulator{}, bit_op::lor, b11, c10), invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, b10, no_mask{}, no_accumulator{}, bit_op::land, c10, b11), invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, b11, no_mask{}, no_accumulator{}, bit_op::lor, b10, c10), invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, b10, vector_mask<mem>{m9}, no_accumulator{}, bit_op::lor, b10, c10),
                  invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, b10, no_mask{}, accumulate_with<plus_monoid<std::uint8_t>>{}, bit_op::lor, b10, c10),
                  invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, b10, no_mask{}, no_accumulator{}, static_cast<bit_op>(9), b10, c10),
                  invalid_argument_error);
  bitmap<mem> broken = b10;
  broken.n = 200;  // words no longer match the length
  CHECK_THROWS_AS(ewise_add(exec, broken, no_mask{}, no_accumulator{}, bit_op::lor, broken, broken),
                  invalid_argument_error);

  auto s10 = make_sparse_vector<TestType, std::int32_t>(exec, 10, {1, 4}, {3, 5});
  auto s11 = make_sparse_vector<TestType, std::int32_t>(exec, 11, {1, 4}, {3, 5});
  CHECK_THROWS_AS(ewise_add(exec, plus_monoid<std::int32_t>{}, s10, s11), invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, plus_monoid<std::int32_t>{}, s11, s10), invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, vector_mask<mem>{m9}, plus_monoid<std::int32_t>{}, s10, s10), invalid_argument_error);
  auto bad = s10;
  bad.nnz = 5;  // more entries than stored indices
  CHECK_THROWS_AS(ewise_mult(exec, plus_monoid<std::int32_t>{}, bad, s10), invalid_argument_error);
}
