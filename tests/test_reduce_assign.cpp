// reduce (vectors to scalars, B2SR / CSR to vectors), assign (masked scalar, indexed) and apply against host
// references, for every tile size, packing order, mask form and accumulator.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "bitgraph/ops/assign.hpp"
#include "bitgraph/ops/reduce.hpp"
#include "support/random_graphs.hpp"
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

// GraphBLAS merge of one dense element with an absent marker; `accum` null means none.
template <class T, class F>
T ref_merge(T old, T t, bool allowed, bool replace, T absent, const F* accum) {
  if (!allowed) return replace ? absent : old;
  if (accum == nullptr) return t;
  if (t == absent) return old;
  if (old == absent) return t;
  return (*accum)(old, t);
}

template <class T>
std::vector<T> random_dense(vertex_t n, double density, T absent, std::uint64_t seed, int lo = 1, int hi = 9) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution present(density);
  std::uniform_int_distribution<int> val(lo, hi);
  std::vector<T> x(n, absent);
  for (auto& v : x)
    if (present(rng)) v = static_cast<T>(val(rng));
  return x;
}

struct graph_case {
  edge_list el;
  graph_kind kind;
};

std::vector<graph_case> graphs() {
  std::vector<graph_case> g;
  g.push_back({test::random_edges(0, 0, 1), graph_kind::directed});
  g.push_back({test::random_edges(1, 2, 11), graph_kind::directed});
  g.push_back({test::random_edges(45, 180, 12, true), graph_kind::directed});
  g.push_back({test::random_edges(70, 900, 13, true), graph_kind::undirected});
  g.push_back({test::random_edges(130, 300, 14, true), graph_kind::directed});
  return g;
}

}  // namespace

TEMPLATE_TEST_CASE("reduce vectors to a scalar equals the reference", "[ops][reduce]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::uint64_t seed = 1;
  for (vertex_t n : sizes) {
    for (double density : {0.0, 0.3, 1.0}) {
      ++seed;
      INFO("n=" << n << " density=" << density);
      // Dense: identity entries are absent.
      auto xi = random_dense<std::int64_t>(n, density, 0, seed, -50, 50);
      std::int64_t sum = 0;
      for (auto v : xi) sum += v;
      CHECK(reduce(exec, plus_monoid<std::int64_t>{}, test::to_view<mem>(xi)) == sum);
      const double inf = min_monoid<double>::identity();
      auto xd = random_dense<double>(n, density, inf, seed + 1, -20, 20);
      double mn = inf;
      for (auto v : xd) mn = v < mn ? v : mn;
      CHECK(reduce(exec, min_monoid<double>{}, Kokkos::View<const double*, mem>(test::to_view<mem>(xd))) == mn);
      const vertex_t none = any_monoid<vertex_t>::identity();
      std::vector<vertex_t> xa(n, none);
      for (vertex_t i = 0; i < n; ++i)
        if ((i * 7 + seed) % 5 == 0) xa[i] = i;
      const vertex_t got_any = reduce(exec, any_monoid<vertex_t>{}, test::to_view<mem>(xa));
      bool any_valid = got_any == none;
      bool exists = false;
      for (vertex_t i = 0; i < n; ++i) {
        exists = exists || xa[i] != none;
        any_valid = any_valid || (xa[i] != none && xa[i] == got_any);
      }
      CHECK(any_valid);
      CHECK((got_any != none) == exists);

      // Sparse: values, or 1 per entry when structure-only.
      std::vector<vertex_t> idx;
      std::vector<std::int64_t> vals;
      std::int64_t vmax = max_monoid<std::int64_t>::identity();
      for (vertex_t i = 0; i < n; ++i)
        if (xi[i] != 0) {
          idx.push_back(i);
          vals.push_back(xi[i]);
          vmax = xi[i] > vmax ? xi[i] : vmax;
        }
      auto sv = make_sparse_vector(exec, n, idx, vals);
      CHECK(reduce(exec, plus_monoid<std::int64_t>{}, sv) == sum);
      CHECK(reduce(exec, max_monoid<std::int64_t>{}, sv) == vmax);
      auto sp = make_sparse_vector(exec, n, idx, std::vector<std::int64_t>{});
      CHECK(reduce(exec, plus_monoid<std::int64_t>{}, sp) == std::int64_t(idx.size()));

      // Bitmap: count and "any".
      auto bits = test::random_bits(n, density, seed + 2);
      std::uint64_t c = 0;
      for (auto b : bits) c += b;
      auto bm = make_bits(exec, bits);
      CHECK(reduce(exec, plus_monoid<offset_t>{}, bm) == c);
      CHECK(reduce(exec, lor_monoid{}, bm) == (c > 0 ? 1 : 0));
      // One-byte values (LOR on a dense Boolean vector) right after a reduction with another result.
      CHECK(reduce(exec, lor_monoid{}, test::to_view<mem>(bits)) == (c > 0 ? 1 : 0));
      CHECK(reduce(exec, min_monoid<std::int32_t>{}, bm) == (c > 0 ? 1 : min_monoid<std::int32_t>::identity()));
    }
  }
}

TEMPLATE_TEST_CASE("reduce B2SR rows and columns equals the reference", "[ops][reduce]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  using T = std::int32_t;
  TestType exec;
  std::uint64_t seed = 300;
  const auto plus_acc = [](T a, T b) { return a + b; };
  test::thinning thin(11);  // reduced mode: every 11th (graph, tile size, order, rows/columns, mask, accum) reduce
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    const vertex_t n = g.n;
    auto A = test::to_dense_matrix(g);
    std::vector<offset_t> rows(n, 0), cols(n, 0);
    for (vertex_t i = 0; i < n; ++i)
      for (vertex_t j = 0; j < n; ++j)
        if (A(i, j)) {
          ++rows[i];
          ++cols[j];
        }
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        INFO("n=" << n << " T=" << t << " order=" << to_string(order));
        auto b = to_b2sr(exec, g, {t, order});
        CHECK(test::to_vector(out_degrees(exec, b)) == rows);
        CHECK(test::to_vector(in_degrees(exec, b)) == cols);
        for (bool columns : {false, true}) {
          const auto& ref = columns ? cols : rows;
          for (const auto& mc : mask_cases) {
            for (bool accum : {false, true}) {
              ++seed;
              if (!thin.keep()) continue;
              INFO("columns=" << columns << " mask=" << mc.use << mc.complement << mc.replace << " accum=" << accum);
              auto mb = test::random_bits(n, 0.5, seed);
              vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
              // PLUS: counts; the absent marker is the identity 0.
              auto w0 = random_dense<T>(n, 0.5, 0, seed + 1);
              auto w = test::to_view<mem>(w0);
              auto run = [&](const auto& m, const auto& acc, const auto& monoid, auto& out) {
                if (columns)
                  reduce_columns(exec, out, m, acc, monoid, b);
                else
                  reduce_rows(exec, out, m, acc, monoid, b);
              };
              if (mc.use) {
                if (accum)
                  run(mask, accumulate_with<plus_monoid<T>>{}, plus_monoid<T>{}, w);
                else
                  run(mask, no_accumulator{}, plus_monoid<T>{}, w);
              } else {
                if (accum)
                  run(no_mask{}, accumulate_with<plus_monoid<T>>{}, plus_monoid<T>{}, w);
                else
                  run(no_mask{}, no_accumulator{}, plus_monoid<T>{}, w);
              }
              auto got = test::to_vector(w);
              for (vertex_t i = 0; i < n; ++i)
                CHECK(got[i] == ref_merge<T>(w0[i], T(ref[i]), allowed_at(mc, mb, i), mc.replace, T(0),
                                             accum ? &plus_acc : nullptr));
              // MAX over the pattern: 1 for a non-empty line, the identity (absent) otherwise.
              const T lowest = max_monoid<T>::identity();
              auto x0 = random_dense<T>(n, 0.5, lowest, seed + 2);
              auto x = test::to_view<mem>(x0);
              if (mc.use)
                run(mask, no_accumulator{}, max_monoid<T>{}, x);
              else
                run(no_mask{}, no_accumulator{}, max_monoid<T>{}, x);
              auto gotx = test::to_vector(x);
              for (vertex_t i = 0; i < n; ++i)
                CHECK(gotx[i] == ref_merge<T>(x0[i], ref[i] ? T(1) : lowest, allowed_at(mc, mb, i), mc.replace, lowest,
                                              static_cast<decltype(plus_acc)*>(nullptr)));
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("reduce CSR rows over weights equals the reference", "[ops][reduce]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::uint64_t seed = 700;
  const auto min_acc = [](double a, double b) { return b < a ? b : a; };
  for (auto& gc : graphs()) {
    for (bool weighted : {false, true}) {
      csr_build_options o;
      o.kind = gc.kind;
      o.keep_weights = weighted;
      auto g = build_csr(exec, gc.el, o);
      const vertex_t n = g.n;
      auto h = copy_to<Kokkos::HostSpace>(g);
      std::vector<double> sum(n, 0.0), mn(n, min_monoid<double>::identity());
      for (vertex_t i = 0; i < n; ++i)
        for (offset_t p = h.row_ptr(i); p < h.row_ptr(i + 1); ++p) {
          const double x = g.has_weights ? h.weights(p) : 1.0;
          sum[i] += x;
          mn[i] = x < mn[i] ? x : mn[i];
        }
      for (const auto& mc : mask_cases) {
        ++seed;
        INFO("n=" << n << " weighted=" << g.has_weights << " mask=" << mc.use << mc.complement << mc.replace);
        auto mb = test::random_bits(n, 0.5, seed);
        vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
        auto w0 = random_dense<double>(n, 0.5, 0.0, seed + 1);
        auto w = test::to_view<mem>(w0);
        const double inf = min_monoid<double>::identity();
        auto x0 = random_dense<double>(n, 0.5, inf, seed + 2);
        auto x = test::to_view<mem>(x0);
        if (mc.use) {
          reduce_rows(exec, w, mask, no_accumulator{}, plus_monoid<double>{}, g);
          reduce_rows(exec, x, mask, accumulate_with<min_monoid<double>>{}, min_monoid<double>{}, g);
        } else {
          reduce_rows(exec, w, no_mask{}, no_accumulator{}, plus_monoid<double>{}, g);
          reduce_rows(exec, x, no_mask{}, accumulate_with<min_monoid<double>>{}, min_monoid<double>{}, g);
        }
        auto gw = test::to_vector(w);
        auto gx = test::to_vector(x);
        for (vertex_t i = 0; i < n; ++i) {
          const bool allowed = allowed_at(mc, mb, i);
          CHECK(gw[i] ==
                ref_merge<double>(w0[i], sum[i], allowed, mc.replace, 0.0, static_cast<decltype(min_acc)*>(nullptr)));
          CHECK(gx[i] == ref_merge<double>(x0[i], mn[i], allowed, mc.replace, inf, &min_acc));
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("assign a scalar under a mask equals the reference", "[ops][assign]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::uint64_t seed = 1000;
  const auto plus_acc = [](double a, double b) { return a + b; };
  for (vertex_t n : sizes) {
    for (const auto& mc : mask_cases) {
      for (bool accum : {false, true}) {
        ++seed;
        INFO("n=" << n << " mask=" << mc.use << mc.complement << mc.replace << " accum=" << accum);
        auto mb = test::random_bits(n, 0.5, seed);
        vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
        // Dense, with an explicit absent marker -1.
        auto w0 = random_dense<double>(n, 0.6, -1.0, seed + 1);
        auto w = test::to_view<mem>(w0);
        if (mc.use) {
          if (accum)
            assign(exec, w, mask, accumulate_with<plus_monoid<double>>{}, 2.5, -1.0);
          else
            assign(exec, w, mask, no_accumulator{}, 2.5, -1.0);
        } else {
          if (accum)
            assign(exec, w, no_mask{}, accumulate_with<plus_monoid<double>>{}, 2.5, -1.0);
          else
            assign(exec, w, no_mask{}, no_accumulator{}, 2.5, -1.0);
        }
        auto got = test::to_vector(w);
        for (vertex_t i = 0; i < n; ++i)
          CHECK(got[i] ==
                ref_merge<double>(w0[i], 2.5, allowed_at(mc, mb, i), mc.replace, -1.0, accum ? &plus_acc : nullptr));
        // Bitmap, both values of the scalar.
        for (bool s : {false, true}) {
          auto b0 = test::random_bits(n, 0.5, seed + 2);
          auto bw = make_bits(exec, b0);
          if (mc.use) {
            if (accum)
              assign(exec, bw, mask, accumulate_with<lor_monoid>{}, s);
            else
              assign(exec, bw, mask, no_accumulator{}, s);
          } else {
            if (accum)
              assign(exec, bw, no_mask{}, accumulate_with<lor_monoid>{}, s);
            else
              assign(exec, bw, no_mask{}, no_accumulator{}, s);
          }
          auto gb = host_bits(bw);
          CHECK(padding_clear(bw));
          for (vertex_t i = 0; i < n; ++i) {
            const bool allowed = allowed_at(mc, mb, i);
            bool expect;
            if (!allowed)
              expect = mc.replace ? false : b0[i] != 0;
            else
              expect = accum ? (b0[i] || s) : s;
            CHECK(gb[i] == expect);
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("assign a scalar at indices equals the reference", "[ops][assign]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::mt19937_64 rng(5);
  for (vertex_t n : sizes) {
    if (n == 0) continue;
    std::uniform_int_distribution<vertex_t> pick(0, n - 1);
    std::vector<vertex_t> idx;
    for (vertex_t k = 0; k < n / 2 + 3; ++k) idx.push_back(pick(rng));  // repeats on purpose
    auto iv = Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(idx));
    INFO("n=" << n);
    auto w0 = random_dense<std::int32_t>(n, 0.5, 0, n);
    auto w = test::to_view<mem>(w0);
    assign(exec, w, iv, std::int32_t(-7));
    auto expect = w0;
    for (auto i : idx) expect[i] = -7;
    CHECK(test::to_vector(w) == expect);
    for (bool s : {true, false}) {
      auto b0 = test::random_bits(n, 0.5, n + 1);
      auto b = make_bits(exec, b0);
      assign(exec, b, iv, s);
      auto eb = b0;
      for (auto i : idx) eb[i] = s;
      CHECK(host_bits(b) == eb);
      CHECK(padding_clear(b));
    }
    // An index out of range rejects the whole call before anything is written.
    auto bad_idx = idx;
    bad_idx.push_back(n);
    auto bad = Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(bad_idx));
    auto w2 = test::to_view<mem>(w0);
    CHECK_THROWS_AS(assign(exec, w2, bad, std::int32_t(1)), invalid_argument_error);
    CHECK(test::to_vector(w2) == w0);
    auto b2 = make_bits(exec, test::random_bits(n, 0.5, 3));
    auto before = host_bits(b2);
    CHECK_THROWS_AS(assign(exec, b2, bad, true), invalid_argument_error);
    CHECK(host_bits(b2) == before);
  }
}

TEMPLATE_TEST_CASE("apply a unary operator equals the reference", "[ops][assign]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  using T = std::int32_t;
  TestType exec;
  std::uint64_t seed = 2000;
  const auto max_acc = [](T a, T b) { return a < b ? b : a; };
  for (vertex_t n : sizes) {
    for (const auto& mc : mask_cases) {
      for (int which = 0; which < 5; ++which) {
        ++seed;
        INFO("n=" << n << " mask=" << mc.use << mc.complement << mc.replace << " op=" << which);
        auto mb = test::random_bits(n, 0.5, seed);
        vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
        auto uh = random_dense<T>(n, 0.6, 0, seed + 1, -9, 9);
        auto u = Kokkos::View<const T*, mem>(test::to_view<mem>(uh));
        auto w0 = random_dense<T>(n, 0.5, 0, seed + 2, -9, 9);
        auto w = test::to_view<mem>(w0);
        auto run = [&](const auto& f, const auto& acc) {
          if (mc.use)
            apply(exec, w, mask, acc, f, u, T(0));
          else
            apply(exec, w, no_mask{}, acc, f, u, T(0));
        };
        const bool accum = which == 4;
        switch (which) {
          case 0:
            run(identity_op{}, no_accumulator{});
            break;
          case 1:
            run(abs_op{}, no_accumulator{});
            break;
          case 2:
            run(ainv_op{}, no_accumulator{});
            break;
          case 3:
            run(times_scalar<T>{3}, no_accumulator{});
            break;
          default:
            run(bind_second_of(minus_op{}, T(2)), accumulate_with<max_monoid<T>>{});
            break;
        }
        auto got = test::to_vector(w);
        for (vertex_t i = 0; i < n; ++i) {
          const T x = uh[i];
          T t = 0;
          if (x != 0) {
            switch (which) {
              case 0:
                t = x;
                break;
              case 1:
                t = x < 0 ? -x : x;
                break;
              case 2:
                t = -x;
                break;
              case 3:
                t = 3 * x;
                break;
              default:
                t = x - 2;
                break;
            }
          }
          CHECK(got[i] == ref_merge<T>(w0[i], t, allowed_at(mc, mb, i), mc.replace, T(0), accum ? &max_acc : nullptr));
        }
      }
    }
  }
  // A positional operator bound to a scalar sees the position.
  auto u = test::to_view<mem>(std::vector<vertex_t>{5, 5, 5, 5});
  auto w = test::to_view<mem>(std::vector<vertex_t>{0, 0, 0, 0});
  apply(exec, w, no_mask{}, no_accumulator{}, bind_second_of(secondi_op{}, vertex_t(9)), u);
  CHECK(test::to_vector(w) == std::vector<vertex_t>{0, 1, 2, 3});
}

TEMPLATE_TEST_CASE("reduce, assign and apply reject bad arguments", "[ops][reduce][assign][errors]",
                   BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto g = build_csr(exec, test::random_edges(20, 50, 1));
  auto b = to_b2sr(exec, g);
  auto w19 = Kokkos::View<std::int32_t*, mem>("w19", 19);
  auto w20 = Kokkos::View<std::int32_t*, mem>("w20", 20);
  auto m19 = make_bitmap(exec, 19);
  auto m20 = make_bitmap(exec, 20);
  CHECK_THROWS_AS(reduce_rows(exec, w19, no_mask{}, no_accumulator{}, plus_monoid<std::int32_t>{}, b),
                  invalid_argument_error);
  CHECK_THROWS_AS(reduce_columns(exec, w19, no_mask{}, no_accumulator{}, plus_monoid<std::int32_t>{}, b),
                  invalid_argument_error);
  CHECK_THROWS_AS(reduce_rows(exec, w20, vector_mask<mem>{m19}, no_accumulator{}, plus_monoid<std::int32_t>{}, b),
                  invalid_argument_error);
  CHECK_THROWS_AS(reduce_rows(exec, w19, no_mask{}, no_accumulator{}, plus_monoid<std::int32_t>{}, g),
                  invalid_argument_error);
  CHECK_NOTHROW(reduce_rows(exec, w20, vector_mask<mem>{m20}, no_accumulator{}, plus_monoid<std::int32_t>{}, g));
  bitmap<mem> broken = m20;
  broken.n = 100;
  CHECK_THROWS_AS(reduce(exec, plus_monoid<offset_t>{}, broken), invalid_argument_error);

  CHECK_THROWS_AS(assign(exec, w20, vector_mask<mem>{m19}, no_accumulator{}, 1), invalid_argument_error);
  auto bits20 = make_bitmap(exec, 20);
  CHECK_THROWS_AS(assign(exec, bits20, vector_mask<mem>{m19}, no_accumulator{}, true), invalid_argument_error);
  CHECK_THROWS_AS(assign(exec, bits20, no_mask{}, accumulate_with<plus_monoid<std::uint8_t>>{}, true),
                  invalid_argument_error);
  auto idx = Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(std::vector<vertex_t>{3, 20}));
  CHECK_THROWS_AS(assign(exec, w20, idx, 1), invalid_argument_error);
  CHECK_THROWS_AS(assign(exec, bits20, idx, true), invalid_argument_error);

  CHECK_THROWS_AS(apply(exec, w20, no_mask{}, no_accumulator{}, abs_op{}, w19), invalid_argument_error);
  CHECK_THROWS_AS(apply(exec, w19, vector_mask<mem>{m20}, no_accumulator{}, abs_op{}, w19), invalid_argument_error);
}
