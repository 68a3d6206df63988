// How an op's face settles its kernel path once, how a backend leaf hands the paths it does not run back to
// the generic core, and the profiling region every face opens. See docs/dispatch.md.
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"

namespace bitgraph::detail {

/// Rejects a forced CUDA path on an execution space that is not Cuda (the first check of every face that
/// takes an `op_algorithm`, algorithms included).
template <class ExecSpace>
void check_algorithm(op_algorithm a, const char* func) {
  if ((a == op_algorithm::cuda_warp || a == op_algorithm::cuda_mma) && !is_cuda_space_v<ExecSpace>) {
    throw unsupported_error(concat("bitgraph::", func, ": algorithm '", to_string(a),
                                   "' needs the Cuda execution space, not '", space_name<ExecSpace>(), "'"));
  }
}

/// The kernel paths an implementation can run for one call's operands. `generic` is always offered; a
/// backend leaf offers its own paths for the operands it handles and says why it refuses the others.
/// `preferred` is what `op_algorithm::automatic` runs.
class path_offer {
 public:
  /// What a generic core offers: the portable path only.
  path_offer() = default;

  /// Offers `p` (a CUDA path); with `prefer`, `automatic` picks it.
  path_offer& offer(op_algorithm p, bool prefer = true) {
    refusal_[index(p)] = {};
    if (prefer) preferred_ = p;
    return *this;
  }
  /// Refuses `p` for these operands, saying why (a literal: it is kept as a view).
  path_offer& refuse(op_algorithm p, std::string_view why) {
    refusal_[index(p)] = why;
    if (preferred_ == p) preferred_ = op_algorithm::generic;
    return *this;
  }
  bool offers(op_algorithm p) const { return refusal_[index(p)].empty(); }
  std::string_view refusal(op_algorithm p) const { return refusal_[index(p)]; }
  op_algorithm preferred() const { return preferred_; }

 private:
  static std::size_t index(op_algorithm p) { return static_cast<std::size_t>(p); }
  op_algorithm preferred_ = op_algorithm::generic;
  std::array<std::string_view, 4> refusal_{
      {{}, {}, "there is no cuda-warp kernel for it", "there is no tensor-core (cuda-mma) kernel for it"}};
};

/// The one path decision of a face: `automatic` runs the offer's preferred path, `generic` the portable
/// code, a forced CUDA path runs when offered and throws `unsupported_error` naming `func` and the
/// offer's reason otherwise (never a silent fallback).
template <class ExecSpace>
op_algorithm choose_path(const char* func, op_algorithm asked, const path_offer& offer) {
  check_algorithm<ExecSpace>(asked, func);
  if (asked == op_algorithm::automatic) return offer.preferred();
  if (asked == op_algorithm::generic || offer.offers(asked)) return asked;
  throw unsupported_error(
      concat("bitgraph::", func, ": algorithm '", to_string(asked), "' is not available: ", offer.refusal(asked)));
}

/// How a backend leaf runs every path it does not implement itself: through the generic core it
/// specialises, with the arguments it was given.
template <class Generic, class... Args>
decltype(auto) run_generic(Args&&... args) {
  return Generic::run(op_algorithm::generic, std::forward<Args>(args)...);
}

/// A Kokkos profiling region (`bitgraph::<op>`) for the lifetime of a face's call; free when no tool is
/// loaded, and closed on the way out of an exception too.
class profiling_region {
 public:
  explicit profiling_region(const char* name) : pushed_(Kokkos::Profiling::profileLibraryLoaded()) {
    if (pushed_) Kokkos::Profiling::pushRegion(name);
  }
  ~profiling_region() {
    if (pushed_) Kokkos::Profiling::popRegion();
  }
  profiling_region(const profiling_region&) = delete;
  profiling_region& operator=(const profiling_region&) = delete;

 private:
  bool pushed_;
};

}  // namespace bitgraph::detail
