// Gorder-flavoured pre-order and Blest's JaccardWithWindows clustering.
#include "bitgraph/reorder/jaccard_windows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "internal.hpp"

namespace bitgraph::reorder {

namespace {

/// Items kept sorted by a small non-negative integer key in one array with bucket boundaries (the
/// Batagelj-Zaversnik layout of k-core decomposition): changing a key by one is a swap with the edge of
/// its bucket, so Gorder's score updates cost O(1) with few cache misses.
class bucket_array {
 public:
  explicit bucket_array(std::size_t items)
      : key_(items, 0), pos_(items), order_(items), start_{0, static_cast<vertex_t>(items)} {
    for (std::size_t i = 0; i < items; ++i) pos_[i] = order_[i] = static_cast<vertex_t>(i);
  }

  void increment(vertex_t x) {
    const std::uint32_t k = key_[x];
    if (k + 2 >= start_.size())
      start_.resize(static_cast<std::size_t>(k) * 2 + 4, static_cast<vertex_t>(order_.size()));
    swap_to(x, start_[k + 1] - 1);
    --start_[k + 1];
    key_[x] = k + 1;
    top_ = std::max(top_, k + 1);
  }

  void decrement(vertex_t x) {
    const std::uint32_t k = key_[x];
    swap_to(x, start_[k]);
    ++start_[k];
    key_[x] = k - 1;
  }

  /// Drops `x` to key 0, where it no longer competes; O(key).
  void remove(vertex_t x) {
    while (key_[x] > 0) decrement(x);
  }

  /// An item of the highest key, the one promoted into it most recently (Gorder's heap picks alike),
  /// or `invalid_vertex` when every key is 0.
  vertex_t top_item() noexcept {
    while (top_ > 0 && start_[top_] == start_[top_ + 1]) --top_;
    return top_ > 0 ? order_[start_[top_]] : invalid_vertex;
  }

 private:
  void swap_to(vertex_t x, vertex_t i) {
    const vertex_t y = order_[i], px = pos_[x];
    order_[px] = y;
    pos_[y] = px;
    order_[i] = x;
    pos_[x] = i;
  }

  std::vector<std::uint32_t> key_;
  std::vector<vertex_t> pos_, order_;
  std::vector<vertex_t> start_;  // start_[k]: first position of key k; past the top, the item count
  std::uint32_t top_ = 0;        // no key above is held
};

/// The compared neighbourhoods N(j) (columns of `a`) and, for the pre-order, the lists of vertices
/// having u in their neighbourhood (rows of `a`). Undirected graphs share one pattern for both.
struct neighbourhoods {
  detail::pattern columns;
  detail::pattern rows;
  bool symmetric = false;

  const detail::pattern& of_vertex() const noexcept { return columns; }
  const detail::pattern& containing() const noexcept { return symmetric ? columns : rows; }
};

neighbourhoods build_neighbourhoods(const host_csr& a, bool need_rows) {
  neighbourhoods nb;
  nb.symmetric = a.kind == graph_kind::undirected;
  if (nb.symmetric) {
    nb.columns = detail::row_pattern(a);
  } else {
    nb.columns = detail::column_pattern(a);
    if (need_rows) nb.rows = detail::row_pattern(a);
  }
  return nb;
}

std::vector<vertex_t> descending_neighbourhood_size(const detail::pattern& nbr) {
  std::vector<offset_t> size(nbr.n);
  for (vertex_t v = 0; v < nbr.n; ++v) size[v] = nbr.degree(v);
  return detail::order_by_descending(size);
}

std::vector<vertex_t> gorder_sequence(const neighbourhoods& nb, const gorder_options& options) {
  const detail::pattern& nbr = nb.of_vertex();
  const detail::pattern& holders = nb.containing();
  const vertex_t n = nbr.n;
  const vertex_t hub = options.hub_degree;
  const std::vector<vertex_t> fallback = descending_neighbourhood_size(nbr);

  bucket_array heap(n);
  std::vector<std::uint8_t> placed(n, 0);
  // Adds (or removes) the score that vertex v, entering (or leaving) the sliding window, gives to
  // every unplaced vertex: S_s via each non-hub shared neighbour, S_n via each edge direction.
  auto score = [&](vertex_t v, bool add) {
    auto touch = [&](vertex_t x) {
      if (placed[x]) return;
      if (add) {
        heap.increment(x);
      } else {
        heap.decrement(x);
      }
    };
    for (const vertex_t* u = nbr.begin(v); u != nbr.end(v); ++u) {
      touch(*u);
      if (holders.degree(*u) > hub) continue;
      for (const vertex_t* x = holders.begin(*u); x != holders.end(*u); ++x) touch(*x);
    }
    for (const vertex_t* x = holders.begin(v); x != holders.end(v); ++x) touch(*x);
  };

  std::vector<vertex_t> order;
  order.reserve(n);
  std::size_t next_fallback = 0;
  for (vertex_t i = 0; i < n; ++i) {
    vertex_t v = heap.top_item();
    if (v != invalid_vertex) {
      heap.remove(v);
    } else {
      while (placed[fallback[next_fallback]]) ++next_fallback;
      v = fallback[next_fallback];
    }
    placed[v] = 1;
    order.push_back(v);
    score(v, true);
    if (i >= options.window) score(order[i - options.window], false);
  }
  return order;
}

/// num_a / den_a > num_b / den_b, exactly (similarities are compared as fractions so that ties, which
/// decide between candidates, are recognised).
bool greater_ratio(std::uint64_t num_a, std::uint64_t den_a, std::uint64_t num_b, std::uint64_t den_b) {
  return static_cast<unsigned __int128>(num_a) * den_b > static_cast<unsigned __int128>(num_b) * den_a;
}

/// Counts of common neighbours for the candidates of one cluster. Within a cluster counts only grow,
/// so a vertex is appended to level c's list when its count reaches c and never moved: an increment
/// is one counter update and one append. Level c's list thus also holds vertices that have moved on
/// (count above c); readers skip them.
class common_counts {
 public:
  explicit common_counts(std::size_t items) : count_(items, 0), levels_(2) {}

  std::uint32_t count(vertex_t t) const noexcept { return count_[t]; }
  std::uint32_t top() const noexcept { return top_; }
  /// Vertices whose count reached `c` (1 <= c <= top()), some possibly beyond it now.
  const std::vector<vertex_t>& level(std::uint32_t c) const noexcept { return levels_[c]; }

  void increment(vertex_t t) {
    const std::uint32_t c = ++count_[t];
    if (c >= levels_.size()) levels_.resize(static_cast<std::size_t>(c) * 2);
    levels_[c].push_back(t);
    top_ = std::max(top_, c);
  }

  /// Back to all-zero counts, in time proportional to the increments since the last reset.
  void reset() {
    if (top_ == 0) return;
    for (vertex_t t : levels_[1]) count_[t] = 0;
    for (std::uint32_t c = 1; c <= top_; ++c) levels_[c].clear();
    top_ = 0;
  }

 private:
  std::vector<std::uint32_t> count_;
  std::vector<std::vector<vertex_t>> levels_;
  std::uint32_t top_ = 0;
};

/// Per-thread buffers of the window clustering, reused across the windows a thread takes.
///
/// Common neighbours are counted only for vertices that have some, via each neighbour's list of the
/// window vertices holding it, and lazily by degree: J(t) <= |N(t)| / |U|, so a vertex of degree
/// below `floor` cannot beat a candidate whose similarity reaches floor / |U|. Window vertices are
/// numbered by descending degree (their rank), so each holder list is sorted by degree and "degree at
/// least floor" is "rank below a bound". Every element of U is propagated down to the cluster's floor,
/// which is lowered (propagating the pending parts) only while the best candidate stays below
/// floor / |U|, and never under min_ratio * |U|. Vertices above the floor have exact counts, those
/// below have none and provably lose, so with min_ratio = 0 the result is exactly Algorithm 1's,
/// while a cluster whose U is a hub's huge neighbourhood rarely visits the window's low-degree
/// vertices.
class window_clusterer {
  /// Everything about one distinct neighbour, in half a cache line: its live holder list
  /// holder_idx_[begin, end), how far the current cluster propagated it, the clustered vertices still
  /// listed, and the cluster that last put it in U.
  struct slot_state {
    offset_t begin = 0, end = 0, progress = 0;
    vertex_t dead = 0;
    std::uint32_t stamp = 0;
  };

 public:
  window_clusterer(const detail::pattern& nbr, int sigma, double min_ratio)
      : nbr_(nbr), sigma_(static_cast<vertex_t>(sigma)), min_ratio_(min_ratio) {}

  /// Clusters `members` (the window's vertices in pre-order) and writes the new id of each into
  /// `new_of_old`, taking ids first_id, first_id + 1, ....
  void run(const vertex_t* members, vertex_t length, vertex_t first_id, std::vector<vertex_t>& new_of_old) {
    index_window(members, length);
    common_counts counts(length);
    std::vector<std::uint8_t> clustered(length, 0);  // by rank
    std::vector<vertex_t> union_slots;
    vertex_t next_seed = 0, remaining = length;  // next_seed walks the window order
    std::uint32_t stamp = 0;
    constexpr offset_t no_floor = ~offset_t{0};
    offset_t floor = no_floor;
    vertex_t rank_bound = 0;  // ranks below it have degree >= floor

    auto degree = [&](vertex_t t) -> offset_t { return local_ptr_[t + 1] - local_ptr_[t]; };
    auto take = [&](vertex_t t, vertex_t id) {
      clustered[t] = 1;
      --remaining;
      new_of_old[members[local_of_rank_[t]]] = id;
      for (offset_t k = local_ptr_[t]; k < local_ptr_[t + 1]; ++k) ++slot_[local_idx_[k]].dead;
    };
    auto propagate = [&](slot_state& st) {
      offset_t h = st.progress;
      for (; h < st.end && holder_idx_[h] < rank_bound; ++h)
        if (!clustered[holder_idx_[h]]) counts.increment(holder_idx_[h]);
      st.progress = h;
    };
    auto absorb = [&](vertex_t t) {
      for (offset_t k = local_ptr_[t]; k < local_ptr_[t + 1]; ++k) {
        slot_state& st = slot_[local_idx_[k]];
        if (st.stamp == stamp) continue;
        st.stamp = stamp;
        union_slots.push_back(local_idx_[k]);
        drop_clustered(st, clustered);
        st.progress = st.begin;
        propagate(st);
      }
    };
    auto lower_floor = [&](offset_t to) {
      floor = to;
      const auto above = [to](offset_t d) { return d >= to; };
      rank_bound = static_cast<vertex_t>(std::partition_point(rank_degree_.begin(), rank_degree_.end(), above) -
                                         rank_degree_.begin());
      for (vertex_t slot : union_slots) propagate(slot_[slot]);
    };
    // argmax of |N(t) ∩ U| / |N(t) ∪ U| over the counted candidates, earliest in the window on ties.
    // Nothing with c common neighbours can exceed c / |U|, so the scan from the highest count down
    // stops at the first level that bound rules out.
    vertex_t best = invalid_vertex;
    std::uint64_t best_num = 0, best_den = 1;
    auto scan = [&]() {
      best = invalid_vertex;
      best_num = 0;
      best_den = 1;
      const std::uint64_t union_size = union_slots.size();
      for (std::uint32_t c = counts.top(); c > 0; --c) {
        if (best != invalid_vertex && greater_ratio(best_num, best_den, c, union_size)) break;
        for (const vertex_t t : counts.level(c)) {
          if (counts.count(t) != c || clustered[t]) continue;
          const std::uint64_t den = degree(t) + union_size - c;
          if (best == invalid_vertex || greater_ratio(c, den, best_num, best_den) ||
              (!greater_ratio(best_num, best_den, c, den) && local_of_rank_[t] < local_of_rank_[best])) {
            best = t;
            best_num = c;
            best_den = den;
          }
        }
      }
    };
    auto most_similar = [&]() {
      const std::uint64_t union_size = union_slots.size();
      // Vertices under min_ratio * |U| are never counted (exact Algorithm 1 when min_ratio is 0).
      const auto lowest =
          std::max<offset_t>(1, static_cast<offset_t>(std::ceil(min_ratio_ * static_cast<double>(union_size))));
      while (true) {
        scan();
        if (floor <= lowest) return best;
        // Everything below the floor has J < floor / |U|: done once the best reaches that.
        if (best != invalid_vertex && !greater_ratio(floor, union_size, best_num, best_den)) return best;
        offset_t to;
        if (best != invalid_vertex) {
          to = static_cast<offset_t>(static_cast<unsigned __int128>(best_num) * union_size / best_den);
        } else {
          to = floor == no_floor ? (union_size + 1) / 2 : floor / 2;
        }
        lower_floor(std::max<offset_t>(lowest, std::min(to, floor - 1)));
      }
    };

    const vertex_t clusters = (length + sigma_ - 1) / sigma_;
    for (vertex_t l = 0; l < clusters; ++l) {
      ++stamp;
      floor = no_floor;
      rank_bound = 0;
      union_slots.clear();
      while (clustered[rank_of_local_[next_seed]]) ++next_seed;
      const vertex_t base = first_id + l * sigma_;
      const vertex_t seed = rank_of_local_[next_seed];
      take(seed, base);
      absorb(seed);
      for (vertex_t r = 1; r < sigma_ && remaining > 0; ++r) {
        vertex_t pick = most_similar();
        if (pick == invalid_vertex) {
          while (clustered[rank_of_local_[next_seed]]) ++next_seed;
          pick = rank_of_local_[next_seed];
        }
        take(pick, base + r);
        if (r + 1 < sigma_) absorb(pick);  // the last member's neighbours would steer no further pick
      }
      counts.reset();
    }
  }

 private:
  /// Ranks the window's vertices by descending degree (ties in window order), renames their distinct
  /// neighbours to dense slots (open addressing, so memory follows the window, not n) and builds both
  /// directions: rank -> slots and slot -> ranks (ascending, i.e. by descending degree).
  void index_window(const vertex_t* members, vertex_t length) {
    std::vector<offset_t> degree(length);
    offset_t entries = 0;
    for (vertex_t i = 0; i < length; ++i) entries += degree[i] = nbr_.degree(members[i]);
    local_of_rank_ = detail::order_by_descending(degree);
    rank_of_local_.resize(length);
    rank_degree_.resize(length);
    for (vertex_t r = 0; r < length; ++r) {
      rank_of_local_[local_of_rank_[r]] = r;
      rank_degree_[r] = degree[local_of_rank_[r]];
    }
    std::size_t capacity = 16;
    while (capacity < 2 * entries) capacity *= 2;
    const int shift = 64 - std::countr_zero(capacity);
    table_keys_.assign(capacity, invalid_vertex);
    table_slots_.resize(capacity);
    local_ptr_.assign(static_cast<std::size_t>(length) + 1, 0);
    local_idx_.resize(entries);
    slots_ = 0;
    offset_t k = 0;
    for (vertex_t r = 0; r < length; ++r) {
      const vertex_t j = members[local_of_rank_[r]];
      for (const vertex_t* u = nbr_.begin(j); u != nbr_.end(j); ++u) {
        std::size_t h = static_cast<std::size_t>((*u * 0x9E3779B97F4A7C15ull) >> shift);
        while (table_keys_[h] != invalid_vertex && table_keys_[h] != *u) h = (h + 1) & (capacity - 1);
        if (table_keys_[h] == invalid_vertex) {
          table_keys_[h] = *u;
          table_slots_[h] = slots_++;
        }
        local_idx_[k++] = table_slots_[h];
      }
      local_ptr_[r + 1] = k;
    }
    slot_.assign(slots_, slot_state{});
    for (offset_t e = 0; e < entries; ++e) ++slot_[local_idx_[e]].end;
    offset_t start = 0;
    for (slot_state& st : slot_) {
      st.begin = start;
      start += st.end;
      st.end = st.begin;
    }
    holder_idx_.resize(entries);
    for (vertex_t r = 0; r < length; ++r)
      for (offset_t e = local_ptr_[r]; e < local_ptr_[r + 1]; ++e) holder_idx_[slot_[local_idx_[e]].end++] = r;
  }

  /// Removes clustered vertices from `slot`'s holder list, keeping the degree order. High-degree
  /// vertices tend to be clustered first, so dead entries gather at the front: those are skipped for
  /// good by moving the list's start; the list is compacted once dead entries make up half of it.
  /// Amortised O(1) per clustered vertex and slot.
  void drop_clustered(slot_state& st, const std::vector<std::uint8_t>& clustered) {
    while (st.begin < st.end && clustered[holder_idx_[st.begin]]) {
      ++st.begin;
      --st.dead;
    }
    if (2 * static_cast<offset_t>(st.dead) <= st.end - st.begin) return;
    offset_t out = st.begin;
    for (offset_t h = st.begin; h < st.end; ++h)
      if (!clustered[holder_idx_[h]]) holder_idx_[out++] = holder_idx_[h];
    st.end = out;
    st.dead = 0;
  }

  const detail::pattern& nbr_;
  vertex_t sigma_;
  double min_ratio_;
  std::vector<vertex_t> local_of_rank_, rank_of_local_;
  std::vector<offset_t> rank_degree_;
  std::vector<vertex_t> table_keys_, table_slots_;
  std::vector<offset_t> local_ptr_;
  std::vector<vertex_t> local_idx_, holder_idx_;
  std::vector<slot_state> slot_;
  vertex_t slots_ = 0;
};

/// Window boundaries over the pre-ordered sequence, n appended: every `window` vertices, and earlier
/// when the window's neighbourhoods would exceed `window_entries` entries (never fewer than sigma
/// vertices). Every window but the last starts and ends on a multiple of sigma, so clusters stay
/// aligned with slice sets.
std::vector<vertex_t> window_starts(const detail::pattern& nbr, const std::vector<vertex_t>& sequence,
                                    const jaccard_options& options) {
  const auto n = static_cast<vertex_t>(sequence.size());
  const auto sigma = static_cast<vertex_t>(options.sigma);
  std::vector<vertex_t> starts{0};
  offset_t entries = 0;
  vertex_t begin = 0;
  for (vertex_t group = 0; group < n; group += sigma) {
    // Whole slice sets are added at a time.
    const vertex_t group_end = std::min<vertex_t>(n, group + sigma);
    offset_t group_entries = 0;
    for (vertex_t i = group; i < group_end; ++i) group_entries += nbr.degree(sequence[i]);
    const bool full = group - begin >= options.window;
    const bool heavy = options.window_entries != 0 && group > begin && entries + group_entries > options.window_entries;
    if (full || heavy) {
      starts.push_back(group);
      begin = group;
      entries = 0;
    }
    entries += group_entries;
  }
  if (n > 0) starts.push_back(n);
  return starts;
}

void validate_gorder_options(const gorder_options& options, const char* func) {
  BITGRAPH_CHECK_ARG(options.window >= 1, func, "the Gorder window must hold at least one vertex");
}

}  // namespace

permutation gorder_like(const host_csr& a, const gorder_options& options) {
  constexpr const char* func = "reorder::gorder_like";
  detail::validate_csr(a, func);
  validate_gorder_options(options, func);
  return permutation::from_old_of_new(gorder_sequence(build_neighbourhoods(a, true), options));
}

permutation jaccard_windows(const host_csr& a, const jaccard_options& options) {
  constexpr const char* func = "reorder::jaccard_windows";
  detail::validate_csr(a, func);
  detail::validate_sigma(options.sigma, func);
  BITGRAPH_CHECK_ARG(options.window > 0 && options.window % static_cast<vertex_t>(options.sigma) == 0, func,
                     "window = ", options.window, " is not a positive multiple of sigma = ", options.sigma);
  BITGRAPH_CHECK_ARG(options.min_degree_ratio >= 0.0 && options.min_degree_ratio <= 1.0, func,
                     "min_degree_ratio = ", options.min_degree_ratio, " is not in [0, 1]");
  if (options.pre == pre_order::gorder_like) validate_gorder_options(options.gorder, func);

  const neighbourhoods nb = build_neighbourhoods(a, options.pre == pre_order::gorder_like);
  const vertex_t n = a.n;
  std::vector<vertex_t> sequence;
  switch (options.pre) {
    case pre_order::none:
      sequence = permutation::identity(n).old_of_new();
      break;
    case pre_order::degree:
      sequence = descending_neighbourhood_size(nb.of_vertex());
      break;
    case pre_order::gorder_like:
      sequence = gorder_sequence(nb, options.gorder);
      break;
  }

  const std::vector<vertex_t> starts = window_starts(nb.of_vertex(), sequence, options);
  const std::size_t windows = starts.size() - 1;
  const unsigned threads = detail::resolve_threads(options.threads, windows);
  std::vector<window_clusterer> workers;
  workers.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(nb.of_vertex(), options.sigma, options.min_degree_ratio);
  std::vector<vertex_t> new_of_old(n, invalid_vertex);
  detail::parallel_items(windows, threads, [&](std::size_t k, unsigned tid) {
    workers[tid].run(sequence.data() + starts[k], starts[k + 1] - starts[k], starts[k], new_of_old);
  });
  return permutation::from_new_of_old(std::move(new_of_old));
}

}  // namespace bitgraph::reorder
