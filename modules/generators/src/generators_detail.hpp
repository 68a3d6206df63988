// Internal helpers of the generators: a deterministic chunked thread loop and checked allocation.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "bitgraph/core/error.hpp"

namespace bitgraph::detail {

/// Calls `fn(begin, end)` on disjoint chunks of `grain` consecutive indices covering `[0, count)`, on up
/// to `threads` threads (the calling thread is one of them). Chunks are claimed dynamically, so callers
/// must make each chunk's output depend only on its indices: then the result does not depend on the
/// thread count or the schedule. The first exception thrown by `fn` (or by starting a thread) is
/// rethrown after every thread has stopped.
template <class F>
void parallel_chunks(std::uint64_t count, std::uint64_t grain, unsigned threads, F&& fn) {
  if (count == 0) return;
  grain = std::max<std::uint64_t>(grain, 1);
  const std::uint64_t chunks = (count - 1) / grain + 1;
  const std::uint64_t workers = std::min<std::uint64_t>(std::max(threads, 1u), chunks);
  if (workers == 1) {
    fn(std::uint64_t{0}, count);
    return;
  }
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto record = [&](std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(error_mutex);
    if (!first_error) first_error = e;
    failed.store(true, std::memory_order_relaxed);
  };
  auto work = [&] {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const std::uint64_t chunk = next.fetch_add(1, std::memory_order_relaxed);
        if (chunk >= chunks) break;
        const std::uint64_t begin = chunk * grain;
        fn(begin, std::min(count, begin + grain));
      }
    } catch (...) {
      record(std::current_exception());
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(workers - 1);
    for (std::uint64_t t = 1; t < workers; ++t) pool.emplace_back(work);
  } catch (...) {
    // Fewer threads give the same result: the calling thread claims whatever the others do not.
  }
  work();
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

/// Bit-for-bit `std::mt19937` (same seeding, same output sequence) that twists and tempers its whole
/// 624-word state at once: the loops vectorise, where libstdc++ tempers one word per call. GAP's
/// generators spend almost all their time drawing numbers, and must draw exactly these numbers.
class mt19937_block {
 public:
  using result_type = std::uint32_t;  ///< 32-bit outputs, as std::mt19937's

  /// Smallest output.
  static constexpr result_type min() { return 0; }
  /// Largest output.
  static constexpr result_type max() { return 0xffffffffu; }

  /// Seeded like `std::mt19937(value)`.
  explicit mt19937_block(result_type value = 5489u) { seed(value); }

  /// Reseeds like `std::mt19937::seed(value)`.
  void seed(result_type value) {
    state_[0] = value;
    for (std::uint32_t i = 1; i < n; ++i) state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + i;
    next_ = n;
  }

  /// The next output of the `std::mt19937` sequence.
  result_type operator()() {
    if (next_ == n) refill();
    return out_[next_++];
  }

 private:
  static constexpr std::uint32_t n = 624, m = 397;
  static constexpr std::uint32_t upper = 0x80000000u, lower = 0x7fffffffu, matrix = 0x9908b0dfu;

  static std::uint32_t twist(std::uint32_t hi, std::uint32_t lo, std::uint32_t far) {
    const std::uint32_t y = (hi & upper) | (lo & lower);
    return far ^ (y >> 1) ^ ((0u - (y & 1u)) & matrix);
  }

  void refill() {
    for (std::uint32_t k = 0; k < n - m; ++k) state_[k] = twist(state_[k], state_[k + 1], state_[k + m]);
    for (std::uint32_t k = n - m; k < n - 1; ++k) state_[k] = twist(state_[k], state_[k + 1], state_[k + m - n]);
    state_[n - 1] = twist(state_[n - 1], state_[0], state_[m - 1]);
    for (std::uint32_t k = 0; k < n; ++k) {
      std::uint32_t z = state_[k];
      z ^= z >> 11;
      z ^= (z << 7) & 0x9d2c5680u;
      z ^= (z << 15) & 0xefc60000u;
      out_[k] = z ^ (z >> 18);
    }
    next_ = 0;
  }

  alignas(64) std::uint32_t state_[n];
  alignas(64) std::uint32_t out_[n];
  std::uint32_t next_ = n;
};

/// A zero-initialised vector of `count` elements; throws `size_error` when `count` cannot be
/// represented and `allocation_error` (naming `what` and the bytes) when the allocation fails.
template <class T>
std::vector<T> checked_vector(std::uint64_t count, const char* func, const char* what) {
  std::vector<T> v;
  if (count > v.max_size())
    throw size_error(concat("bitgraph::", func, ": ", what, " needs ", count, " elements of ", sizeof(T),
                            " bytes, more than a std::vector can hold"));
  try {
    v.resize(static_cast<std::size_t>(count));
  } catch (const std::bad_alloc&) {
    throw allocation_error(concat("bitgraph::", func, ": cannot allocate ", what, " (", count, " elements, ",
                                  count * sizeof(T), " bytes)"));
  }
  return v;
}

}  // namespace bitgraph::detail
