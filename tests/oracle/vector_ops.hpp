// What the element-wise checks share (ewise, assign, apply, reduce, select, fold): random dense / bitmap /
// sparse operands and masks, their GraphBLAS forms, BitGraph masks and accumulators chosen at run time, and
// the comparison of dense, bitmap and sparse results with the self-test's planting.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"
#include "mxv.hpp"

namespace bitgraph::oracle::vops {

/// The densities random operands are drawn with: empty, sparse, half, full.
inline double random_density(std::mt19937_64& rng) {
  static constexpr double d[] = {0.0, 0.005, 0.05, 0.3, 0.8, 1.0};
  return d[rng() % 6];
}
inline bool coin(std::mt19937_64& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

/// A random output mask: none, mask, complemented mask, each with or without replace.
struct mask_spec {
  int state = 0;  ///< 0 none, 1 mask, 2 ~mask, 3 mask + replace, 4 ~mask + replace
  std::vector<char> bits;
  bool masked() const { return state != 0; }
  bool complement() const { return state == 2 || state == 4; }
  bool replace() const { return state >= 3; }
  bool allows(std::size_t i) const { return !masked() || ((bits[i] != 0) != complement()); }
  std::string str() const {
    static const char* const names[] = {"no mask", "mask", "~mask", "mask+replace", "~mask+replace"};
    return names[state];
  }
};

/// `replace` only where it means something (outputs with old values); sparse outputs are new vectors.
inline mask_spec random_mask(std::mt19937_64& rng, vertex_t n, bool with_replace = true) {
  mask_spec m;
  m.state = int(rng() % (with_replace ? 5 : 3));
  const double d = random_density(rng);
  m.bits.assign(n, 0);
  for (vertex_t i = 0; i < n; ++i) m.bits[i] = coin(rng, d);
  return m;
}

/// Random bits of density drawn from `random_density`.
inline std::vector<char> random_bits(std::mt19937_64& rng, vertex_t n) {
  const double d = random_density(rng);
  std::vector<char> b(n, 0);
  for (vertex_t i = 0; i < n; ++i) b[i] = coin(rng, d);
  return b;
}

/// A random dense vector: `absent` where no entry, gen(rng) elsewhere (which may itself be `absent`).
template <class T, class Gen>
std::vector<T> random_dense(std::mt19937_64& rng, vertex_t n, T absent, Gen gen) {
  const double d = random_density(rng);
  std::vector<T> x(n, absent);
  for (vertex_t i = 0; i < n; ++i)
    if (coin(rng, d)) x[i] = gen(rng);
  return x;
}

// ------------------------------------------------------------------------------------ GraphBLAS side
//
// Every GraphBLAS vector of these checks has one position more than BitGraph's (index n), where no operand holds an
// entry and no operation makes one, so that no output vector is ever full. SuiteSparse:GraphBLAS 7.4.0 (Debian's)
// mishandles full iso outputs (every position present, one stored value, as a bitmap of all zeros or all ones
// is): GrB_eWiseAdd / eWiseMult without mask and accumulator write n values over the single one (heap corruption,
// wrong results), and with a full mask and an accumulator GB_subassign_08n reads through a null pointer. Results
// are read back below n, and an entry at n is an error (`gb_dense`).

/// The GraphBLAS length of a BitGraph vector of n entries.
inline GrB_Index gb_length(std::size_t n) { return GrB_Index(n) + 1; }

/// The entries of a dense vector (those that differ from `absent`) as a GraphBLAS vector of type G.
template <class G, class T>
gb::vector gb_sparse(const std::vector<T>& x, T absent) {
  std::vector<GrB_Index> idx;
  std::vector<G> val;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i] == absent)) {
      idx.push_back(i);
      val.push_back(to_g<G>(x[i]));
    }
  return gb::make_vector<G>(gb_length(x.size()), idx, val);
}

/// A bitmap as GraphBLAS sees a Boolean vector that holds a value at every position (a full vector but for the
/// padding position).
inline gb::vector gb_full_bool(const std::vector<char>& b) {
  std::vector<GrB_Index> idx(b.size());
  std::vector<bool> val(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) idx[i] = i, val[i] = b[i] != 0;
  return gb::make_vector<bool>(gb_length(b.size()), idx, val);
}

/// An empty GraphBLAS vector for a BitGraph vector of n entries.
template <class G>
gb::vector gb_empty(std::size_t n) {
  return gb::new_vector<G>(gb_length(n));
}

/// The set bits of a bitmap as a structural mask (empty handle when unmasked).
inline gb::vector gb_mask(const mask_spec& m) {
  if (!m.masked()) return {};
  std::vector<GrB_Index> idx;
  for (std::size_t i = 0; i < m.bits.size(); ++i)
    if (m.bits[i]) idx.push_back(i);
  return gb::make_mask(gb_length(m.bits.size()), idx);
}

inline gb::descriptor gb_desc(const mask_spec& m, bool transpose_a = false) {
  return gb::make_descriptor(m.masked(), m.complement(), m.replace(), transpose_a);
}

/// The indices 0 .. n-1: GrB_ALL would reach the padding position.
inline std::vector<GrB_Index> gb_all(std::size_t n) {
  std::vector<GrB_Index> i(n);
  for (std::size_t k = 0; k < n; ++k) i[k] = k;
  return i;
}

/// Dense copy of the first n positions of a padded vector: `fill` where no entry is stored. Throws if the
/// padding position holds an entry.
template <class G>
std::vector<G> gb_dense(GrB_Vector v, std::size_t n, G fill) {
  const auto e = gb::extract<G>(v);
  std::vector<G> d(n, fill);
  for (std::size_t k = 0; k < e.index.size(); ++k) {
    if (e.index[k] >= n) throw std::logic_error(cat("oracle: GraphBLAS result has an entry at ", e.index[k], " >= n"));
    d[e.index[k]] = e.value[k];
  }
  return d;
}

/// A padded GraphBLAS vector read back as bits: true values set, false values and missing entries clear.
inline std::vector<char> gb_bits(GrB_Vector v, std::size_t n) {
  const auto d = gb_dense<bool>(v, n, false);
  return std::vector<char>(d.begin(), d.end());
}

/// A padded copy of a square matrix (one empty row and column more), for reductions into padded vectors.
inline gb::matrix gb_padded(GrB_Matrix a, GrB_Type type) {
  auto c = gb::cast(a, type);
  const GrB_Index n = gb::nrows(c.get());
  gb::check(GrB_Matrix_resize(c.get(), n + 1, n + 1), "GrB_Matrix_resize");
  return c;
}

// -------------------------------------------------------------------------------------- BitGraph side

/// Calls f(no_mask{}) or f(vector_mask{...}) as the spec says.
template <class F>
void with_mask(const exec_space& exec, const mask_spec& m, F&& f) {
  if (m.masked())
    f(vector_mask<mem_space>{to_bits(exec, m.bits), m.complement(), m.replace()});
  else
    f(no_mask{});
}

/// Calls f(no_accumulator{}) or f(accumulate_with<Monoid>{}).
template <class Monoid, class F>
void with_accum(bool accumulate, F&& f) {
  if (accumulate)
    f(accumulate_with<Monoid>{});
  else
    f(no_accumulator{});
}

template <class V>
auto host_copy(const V& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v);
  return std::vector<typename V::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

/// A sparse vector's entries on the host (values empty for a structure-only vector).
template <class T>
void host_sparse(const sparse_vector<T, mem_space>& s, std::vector<vertex_t>& idx, std::vector<T>& val) {
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, s.indices);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, s.values);
  idx.assign(hi.data(), hi.data() + std::min<std::size_t>(s.nnz, hi.extent(0)));
  val.assign(hv.data(), hv.data() + std::min<std::size_t>(s.nnz, hv.extent(0)));
}

// ---------------------------------------------------------------------------------------- comparisons

/// Records the comparison of a dense BitGraph result with GraphBLAS's entries (`absent` where none).
/// Self-test: one element is changed first (to `absent`, or away from it).
template <class T>
void compare_dense(context& ctx, planter& plant, const std::string& kind, const std::string& what, std::vector<T> got,
                   const std::vector<T>& want, T absent) {
  bool planted = false;
  if (plant.on() && !got.empty()) {
    auto& x = got[plant.pick(got.size())];
    x = x == absent ? (absent == T(1) ? T(2) : T(1)) : absent;
    planted = true;
  }
  diffs d;
  if (got.size() != want.size()) d.add("output has ", got.size(), " entries, expected ", want.size());
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    if (!(got[i] == want[i]))
      d.add("w(", i, "): BitGraph ", got[i] == absent ? std::string("absent") : cat(+got[i]), ", GraphBLAS ",
            want[i] == absent ? std::string("absent") : cat(+want[i]));
  ctx.t.record(kind, what, d, planted);
}

/// The same for bits (a bitmap result); `padding` reports bits set at or beyond n.
inline void compare_bits(context& ctx, planter& plant, const std::string& kind, const std::string& what,
                         std::vector<char> got, const std::vector<char>& want, bool padding) {
  bool planted = false;
  if (plant.on() && !got.empty()) {
    auto& b = got[plant.pick(got.size())];
    b = !b;
    planted = true;
  }
  diffs d;
  if (padding) d.add("bits set at or beyond n = ", want.size());
  if (got.size() != want.size()) d.add("output has ", got.size(), " bits, expected ", want.size());
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    if (bool(got[i]) != bool(want[i])) d.add("bit ", i, ": BitGraph ", int(got[i]), ", GraphBLAS ", int(want[i]));
  ctx.t.record(kind, what, d, planted);
}

/// The same for sparse results: index lists, and values unless `structure_only` (then BitGraph must store
/// none). Self-test: one entry is dropped, or (0, 1) added to an empty result.
template <class T, class G>
void compare_sparse(context& ctx, planter& plant, const std::string& kind, const std::string& what,
                    std::vector<vertex_t> gi, std::vector<T> gv, const gb::entries<G>& want, bool structure_only,
                    vertex_t n) {
  bool planted = false;
  if (plant.on() && n > 0) {
    if (gi.empty()) {
      gi.push_back(0);
      if (!structure_only) gv.push_back(T(1));
    } else {
      const std::size_t k = plant.pick(gi.size());
      gi.erase(gi.begin() + std::ptrdiff_t(k));
      if (k < gv.size()) gv.erase(gv.begin() + std::ptrdiff_t(k));
    }
    planted = true;
  }
  diffs d;
  if (structure_only && !gv.empty()) d.add("the result should be structure-only but holds ", gv.size(), " values");
  if (!structure_only && gv.size() != gi.size()) d.add(gi.size(), " indices but ", gv.size(), " values");
  std::size_t a = 0, b = 0;
  while (a < gi.size() || b < want.index.size()) {
    if (b == want.index.size() || (a < gi.size() && gi[a] < want.index[b])) {
      d.add("w(", gi[a], "): BitGraph has an entry, GraphBLAS none");
      ++a;
    } else if (a == gi.size() || want.index[b] < gi[a]) {
      d.add("w(", want.index[b], "): GraphBLAS has ", +want.value[b], ", BitGraph no entry");
      ++b;
    } else {
      if (!structure_only && a < gv.size() && !(gv[a] == from_g<T>(want.value[b])))
        d.add("w(", gi[a], "): BitGraph ", +gv[a], ", GraphBLAS ", +want.value[b]);
      ++a;
      ++b;
    }
  }
  ctx.t.record(kind, what, d, planted);
}

}  // namespace bitgraph::oracle::vops
