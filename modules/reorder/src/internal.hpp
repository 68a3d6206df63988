// Private helpers of the reorder module: input validation, pattern-only CSR transforms and a tiny
// std::thread work splitter.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph::reorder::detail {

/// The sparsity pattern of a square matrix in CSR, rows sorted and free of duplicates.
struct pattern {
  vertex_t n = 0;
  std::vector<offset_t> ptr;  ///< n + 1 offsets
  std::vector<vertex_t> idx;  ///< ascending, unique within each row

  offset_t degree(vertex_t v) const noexcept { return ptr[v + 1] - ptr[v]; }
  const vertex_t* begin(vertex_t v) const noexcept { return idx.data() + ptr[v]; }
  const vertex_t* end(vertex_t v) const noexcept { return idx.data() + ptr[v + 1]; }
};

/// Throws `invalid_argument_error` naming `func` unless `g` satisfies every `host_csr` invariant
/// (offsets, column range, row order, weights length). O(n + m).
void validate_csr(const host_csr& g, const char* func);

/// Throws unless `sigma` is a slice width Blest supports (4, 8, 16 or 32).
void validate_sigma(int sigma, const char* func);

/// Rows of `g` without repeated entries (self-loops kept).
pattern row_pattern(const host_csr& g);

/// Rows of the transpose of `g`, i.e. the columns of `g`, without repeated entries.
pattern column_pattern(const host_csr& g);

/// The undirected version of `g` without self-loops: `g` itself if it is declared undirected, the union
/// of `g` and its transpose otherwise.
pattern symmetric_pattern(const host_csr& g);

/// The permutation that lists vertices by descending `key`, ties by ascending id (a stable counting
/// sort, so O(n + max key)). Returned as old_of_new.
std::vector<vertex_t> order_by_descending(const std::vector<offset_t>& key);

/// Number of worker threads to use for `requested` (0 = the hardware's), never more than `work_items`
/// and never fewer than 1.
unsigned resolve_threads(unsigned requested, std::size_t work_items);

/// Runs `body(item, thread_id)` for every item in [0, count) on `threads` threads that pull items from
/// a shared counter, so uneven items balance; `body` must only write state owned by its item or its
/// thread. The first exception a worker throws (e.g. `std::bad_alloc`) is rethrown after all joined.
template <class Body>
void parallel_items(std::size_t count, unsigned threads, Body&& body) {
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) body(i, 0u);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&](unsigned tid) {
    try {
      for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) body(i, tid);
    } catch (...) {
      next.store(count);  // the others stop at their next item
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bitgraph::reorder::detail
