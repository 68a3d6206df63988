// select (band selections of CSR and B2SR, value predicates on vectors) and fold / unfold (B2SR and dense bit
// matrices) against host references, for every tile size and packing order.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "bitgraph/ops/fold.hpp"
#include "bitgraph/ops/select.hpp"
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
  g.push_back({test::random_edges(130, 2000, 14, true), graph_kind::directed});
  return g;
}

bool band_keeps(select_kind s, vertex_t i, vertex_t j, std::int64_t k) {
  const std::int64_t d = std::int64_t(j) - std::int64_t(i);
  switch (s) {
    case select_kind::tril:
      return d <= k;
    case select_kind::triu:
      return d >= k;
    case select_kind::diag:
      return d == k;
    case select_kind::offdiag:
      return d != k;
  }
  return false;
}

// Dense pattern of a B2SR matrix read tile by tile on the host (independent of to_csr), plus the
// structural invariants every B2SR must keep: no empty tiles, ascending tile columns, nnz = set bits,
// zero bits beyond n, the longest tile row recorded.
template <class Mem>
std::vector<std::uint8_t> b2sr_pattern(const b2sr_matrix<Mem>& dev, bool& invariants_ok) {
  auto b = copy_to<Kokkos::HostSpace>(dev);
  const vertex_t n = b.n;
  const int T = b.tile_dim;
  const int wb = tile_word_bytes(T);
  std::vector<std::uint8_t> a(std::size_t(n) * n, 0);
  invariants_ok = b.tile_row_ptr.extent(0) == std::size_t(b.n_tile_rows) + 1 && b.tile_row_ptr(0) == 0 &&
                  b.tile_row_ptr(b.n_tile_rows) == b.n_tiles;
  offset_t bits = 0, longest = 0;
  for (vertex_t tr = 0; tr < b.n_tile_rows && invariants_ok; ++tr) {
    longest = std::max<offset_t>(longest, b.tile_row_ptr(tr + 1) - b.tile_row_ptr(tr));
    for (offset_t k = b.tile_row_ptr(tr); k < b.tile_row_ptr(tr + 1); ++k) {
      const vertex_t tc = b.tile_col_idx(k);
      if (k > b.tile_row_ptr(tr) && b.tile_col_idx(k - 1) >= tc) invariants_ok = false;
      bool any = false;
      for (int w = 0; w < T; ++w) {
        std::uint64_t word = 0;
        for (int byte = 0; byte < wb; ++byte) word |= std::uint64_t(b.tile_bits((k * T + w) * wb + byte)) << (8 * byte);
        for (int bit = 0; bit < T; ++bit) {
          if (!((word >> bit) & 1u)) continue;
          any = true;
          ++bits;
          const std::uint64_t r = std::uint64_t(tr) * T + (b.order == bit_order::row_major ? w : bit);
          const std::uint64_t c = std::uint64_t(tc) * T + (b.order == bit_order::row_major ? bit : w);
          if (r >= n || c >= n)
            invariants_ok = false;
          else
            a[r * n + c] = 1;
        }
        if (T < 8 && (word >> T) != 0) invariants_ok = false;
      }
      if (!any) invariants_ok = false;
    }
  }
  if (bits != b.nnz) invariants_ok = false;
  if (invariants_ok && b.longest_tile_row != longest) invariants_ok = false;  // recorded by every builder
  return a;
}

// A user predicate on the position (at namespace scope: nvcc rejects kernels instantiated with local types).
struct even_index {
  KOKKOS_INLINE_FUNCTION bool apply(vertex_t i, std::int32_t) const { return i % 2 == 0; }
};

std::vector<std::uint8_t> dense_pattern(const test::dense_matrix& A) { return A.a; }

// A random rows x cols dense bit matrix and its bits on the host.
template <class Exec>
dense_bit_matrix<typename Exec::memory_space> random_bit_matrix(const Exec& exec, vertex_t rows, vertex_t cols,
                                                                double density, std::uint64_t seed,
                                                                std::vector<std::uint8_t>& bits) {
  bits = test::random_bits(rows * cols, density, seed);
  auto m = make_dense_bit_matrix(exec, rows, cols);
  auto h = Kokkos::create_mirror_view(m.words);
  Kokkos::deep_copy(h, 0u);
  for (vertex_t i = 0; i < rows; ++i)
    for (vertex_t j = 0; j < cols; ++j)
      if (bits[std::size_t(i) * cols + j]) h(i, j / 32) |= std::uint32_t(1) << (j % 32);
  Kokkos::deep_copy(m.words, h);
  return m;
}

template <class M>
std::vector<std::uint8_t> host_bit_matrix(const M& m, bool& padding_ok) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.words);
  std::vector<std::uint8_t> bits(std::size_t(m.rows) * m.cols);
  padding_ok = h.extent(0) == m.rows && h.extent(1) == M::words_per_row(m.cols);
  for (vertex_t i = 0; i < m.rows && padding_ok; ++i)
    for (std::size_t w = 0; w < h.extent(1); ++w)
      for (int b = 0; b < 32; ++b) {
        const std::uint64_t j = w * 32 + b;
        const bool set = (h(i, w) >> b) & 1u;
        if (j < m.cols)
          bits[std::size_t(i) * m.cols + j] = set;
        else if (set)
          padding_ok = false;
      }
  return bits;
}

}  // namespace

TEMPLATE_TEST_CASE("select on CSR equals the reference", "[ops][select]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    auto h = copy_to<Kokkos::HostSpace>(g);
    for (auto s : {select_kind::tril, select_kind::triu, select_kind::diag, select_kind::offdiag}) {
      for (std::int64_t k : {std::int64_t(-1000000000000), std::int64_t(-70), std::int64_t(-3), std::int64_t(-1),
                             std::int64_t(0), std::int64_t(1), std::int64_t(4), std::int64_t(1) << 40}) {
        INFO("n=" << g.n << " kind=" << to_string(s) << " k=" << k);
        std::vector<offset_t> rp{0};
        std::vector<vertex_t> ci;
        std::vector<double> wt;
        for (vertex_t i = 0; i < h.n; ++i) {
          for (offset_t p = h.row_ptr(i); p < h.row_ptr(i + 1); ++p)
            if (band_keeps(s, i, h.col_idx(p), k)) {
              ci.push_back(h.col_idx(p));
              if (h.has_weights) wt.push_back(h.weights(p));
            }
          rp.push_back(ci.size());
        }
        auto r = select(exec, g, s, k);
        CHECK(r.n == g.n);
        CHECK(r.nnz == ci.size());
        CHECK(r.has_weights == g.has_weights);
        CHECK(test::to_vector(r.row_ptr) == rp);
        CHECK(test::to_vector(r.col_idx) == ci);
        if (g.has_weights) CHECK(test::to_vector(r.weights) == wt);
        const bool symmetric =
            gc.kind == graph_kind::undirected && (s == select_kind::diag || s == select_kind::offdiag) && k == 0;
        CHECK((r.kind == graph_kind::undirected) == symmetric);
      }
    }
  }
}

TEMPLATE_TEST_CASE("select on B2SR equals the reference", "[ops][select]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning thin(11);  // reduced mode: every 11th (graph, tile size, order, kind, k) combination
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    auto A = test::to_dense_matrix(g);
    const vertex_t n = g.n;
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        auto b = to_b2sr(exec, g, {t, order});
        for (auto s : {select_kind::tril, select_kind::triu, select_kind::diag, select_kind::offdiag}) {
          for (std::int64_t k : {std::int64_t(-200), std::int64_t(-9), std::int64_t(-1), std::int64_t(0),
                                 std::int64_t(2), std::int64_t(33)}) {
            if (!thin.keep()) continue;
            INFO("n=" << n << " T=" << t << " order=" << to_string(order) << " kind=" << to_string(s) << " k=" << k);
            auto r = select(exec, b, s, k);
            CHECK(r.n == n);
            CHECK(r.tile_dim == t);
            CHECK(r.order == order);
            CHECK(r.n_tile_rows == b.n_tile_rows);
            bool ok = false;
            auto got = b2sr_pattern(r, ok);
            CHECK(ok);
            std::vector<std::uint8_t> expect(std::size_t(n) * n, 0);
            for (vertex_t i = 0; i < n; ++i)
              for (vertex_t j = 0; j < n; ++j) expect[std::size_t(i) * n + j] = A(i, j) && band_keeps(s, i, j, k);
            CHECK(got == expect);
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("select on vectors equals the reference", "[ops][select]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  using T = std::int32_t;
  TestType exec;
  std::mt19937_64 rng(9);
  std::uniform_int_distribution<int> val(-5, 5);
  for (vertex_t n : {0u, 1u, 31u, 33u, 100u, 257u}) {
    std::vector<T> x(n);
    for (auto& v : x) v = val(rng);
    auto xv = test::to_view<mem>(x);
    for (int which = 0; which < 4; ++which) {
      INFO("n=" << n << " predicate=" << which);
      auto keep = [&](vertex_t i, T v) {
        switch (which) {
          case 0:
            return v > 2;
          case 1:
            return v == -1;
          case 2:
            return v <= 0;
          default:
            return i % 2 == 0;
        }
      };
      // Dense input with absent marker 0 (the default).
      std::vector<vertex_t> ei;
      std::vector<T> ev;
      for (vertex_t i = 0; i < n; ++i)
        if (x[i] != 0 && keep(i, x[i])) {
          ei.push_back(i);
          ev.push_back(x[i]);
        }
      sparse_vector<T, mem> r;
      switch (which) {
        case 0:
          r = select(exec, xv, value_gt<T>{2});
          break;
        case 1:
          r = select(exec, xv, value_eq<T>{-1});
          break;
        case 2:
          r = select(exec, xv, value_le<T>{0});
          break;
        default:
          r = select(exec, xv, even_index{});
          break;
      }
      CHECK(r.n == n);
      REQUIRE(r.nnz == ei.size());
      CHECK(test::to_vector(r.indices) == ei);
      CHECK(test::to_vector(r.values) == ev);
      // The same through an explicit absent marker that no entry has: every entry is present.
      auto all = select(exec, xv, value_ne<T>{3}, T(100));
      offset_t expect_all = 0;
      for (auto v : x) expect_all += v != 3;
      CHECK(all.nnz == expect_all);

      // Sparse input, with values and structure-only (values read as 1).
      auto sv = to_sparse<TestType, T>(exec, Kokkos::View<const T*, mem>(xv));
      auto sr = which == 3 ? select(exec, sv, even_index{}) : select(exec, sv, value_lt<T>{0});
      std::vector<vertex_t> si;
      std::vector<T> sval;
      for (vertex_t i = 0; i < n; ++i)
        if (x[i] != 0 && (which == 3 ? i % 2 == 0 : x[i] < 0)) {
          si.push_back(i);
          sval.push_back(x[i]);
        }
      REQUIRE(sr.nnz == si.size());
      CHECK(test::to_vector(sr.indices) == si);
      if (!si.empty()) CHECK(test::to_vector(sr.values) == sval);
      sparse_vector<T, mem> pattern = sv;
      pattern.values = Kokkos::View<T*, mem>();
      auto pr = select(exec, pattern, value_ge<T>{1});  // every structural entry (value 1) survives
      CHECK(pr.nnz == sv.nnz);
      CHECK(pr.values.extent(0) == 0);
      CHECK(select(exec, pattern, value_gt<T>{1}).nnz == 0);
    }
  }
}

TEMPLATE_TEST_CASE("fold and unfold on B2SR equal the reference", "[ops][fold]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 40;
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    auto A = test::to_dense_matrix(g);
    const vertex_t n = g.n;
    std::vector<std::uint8_t> col_any(n, 0), row_any(n, 0);
    for (vertex_t i = 0; i < n; ++i)
      for (vertex_t j = 0; j < n; ++j)
        if (A(i, j)) row_any[i] = col_any[j] = 1;
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        INFO("n=" << n << " T=" << t << " order=" << to_string(order));
        auto b = to_b2sr(exec, g, {t, order});
        auto fr = fold_rows(exec, b);
        auto fc = fold_columns(exec, b);
        CHECK(fr.n == n);
        CHECK(fc.n == n);
        CHECK(host_bits(fr) == col_any);
        CHECK(host_bits(fc) == row_any);
        // The dense expansion holds the same pattern.
        auto d = to_dense_bit_matrix(exec, b);
        bool pad = false;
        CHECK(host_bit_matrix(d, pad) == dense_pattern(A));
        CHECK(pad);
        for (double density : {0.0, 0.3, 1.0}) {
          ++seed;
          INFO("mask density=" << density);
          auto mb = test::random_bits(n, density, seed);
          auto u = unfold(exec, b, make_bits(exec, mb));
          CHECK(u.tile_dim == t);
          CHECK(u.order == order);
          bool ok = false;
          auto got = b2sr_pattern(u, ok);
          CHECK(ok);
          std::vector<std::uint8_t> expect(std::size_t(n) * n, 0);
          for (vertex_t i = 0; i < n; ++i)
            for (vertex_t j = 0; j < n; ++j) expect[std::size_t(i) * n + j] = A(i, j) && mb[j];
          CHECK(got == expect);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("fold and unfold on dense bit matrices equal the reference", "[ops][fold]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  struct shape {
    vertex_t rows, cols;
  };
  std::uint64_t seed = 77;
  for (shape sh : {shape{0, 0}, shape{1, 1}, shape{0, 40}, shape{40, 0}, shape{5, 70}, shape{70, 5}, shape{100, 129},
                   shape{33, 64}, shape{300, 31}}) {
    for (double density : {0.0, 0.02, 0.3}) {
      ++seed;
      INFO("rows=" << sh.rows << " cols=" << sh.cols << " density=" << density);
      std::vector<std::uint8_t> bits;
      auto m = random_bit_matrix(exec, sh.rows, sh.cols, density, seed, bits);
      std::vector<std::uint8_t> col_any(sh.cols, 0), row_any(sh.rows, 0);
      for (vertex_t i = 0; i < sh.rows; ++i)
        for (vertex_t j = 0; j < sh.cols; ++j)
          if (bits[std::size_t(i) * sh.cols + j]) row_any[i] = col_any[j] = 1;
      auto fr = fold_rows(exec, m);
      auto fc = fold_columns(exec, m);
      CHECK(fr.n == sh.cols);
      CHECK(fc.n == sh.rows);
      CHECK(host_bits(fr) == col_any);
      CHECK(host_bits(fc) == row_any);
      auto mb = test::random_bits(sh.cols, 0.5, seed + 1);
      auto u = unfold(exec, m, make_bits(exec, mb));
      CHECK(u.rows == sh.rows);
      CHECK(u.cols == sh.cols);
      std::vector<std::uint8_t> expect(bits.size());
      for (vertex_t i = 0; i < sh.rows; ++i)
        for (vertex_t j = 0; j < sh.cols; ++j)
          expect[std::size_t(i) * sh.cols + j] = bits[std::size_t(i) * sh.cols + j] && mb[j];
      bool pad = false;
      CHECK(host_bit_matrix(u, pad) == expect);
      CHECK(pad);
    }
  }
}

TEMPLATE_TEST_CASE("select and fold reject bad arguments", "[ops][select][fold][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(20, 50, 1));
  auto b = to_b2sr(exec, g);
  CHECK_THROWS_AS(select(exec, g, static_cast<select_kind>(7)), invalid_argument_error);
  CHECK_THROWS_AS(select(exec, b, static_cast<select_kind>(7)), invalid_argument_error);
  auto bad_tile = b;
  bad_tile.tile_dim = 12;
  CHECK_THROWS_AS(select(exec, bad_tile, select_kind::tril), invalid_argument_error);
  CHECK_THROWS_AS(fold_rows(exec, bad_tile), invalid_argument_error);
  CHECK_THROWS_AS(unfold(exec, b, make_bitmap(exec, 19)), invalid_argument_error);
  CHECK_THROWS_AS(unfold(exec, b, make_bitmap(exec, 21)), invalid_argument_error);
  auto m = make_dense_bit_matrix(exec, 10, 40);
  CHECK_THROWS_AS(unfold(exec, m, make_bitmap(exec, 10)), invalid_argument_error);
  CHECK_NOTHROW(unfold(exec, m, make_bitmap(exec, 40)));
  auto broken = m;
  broken.cols = 100;  // the word array no longer fits the declared size
  CHECK_THROWS_AS(fold_rows(exec, broken), invalid_argument_error);
  CHECK_THROWS_AS(fold_columns(exec, broken), invalid_argument_error);
  auto sv = make_sparse_vector<TestType, std::int32_t>(exec, 10, {1, 4}, {3, 5});
  sv.nnz = 3;
  CHECK_THROWS_AS(select(exec, sv, value_gt<std::int32_t>{0}), invalid_argument_error);
}
