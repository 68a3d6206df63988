// One entry point to the reorder module: pick an ordering the way Blest does (Jaccard-with-windows for
// social-like graphs, RCM otherwise) or compute a named one. Includes every reorder header.
#pragma once

#include <cstdint>
#include <string_view>

#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/reorder/jaccard_windows.hpp"
#include "bitgraph/reorder/metrics.hpp"
#include "bitgraph/reorder/orderings.hpp"
#include "bitgraph/reorder/permutation.hpp"
#include "bitgraph/reorder/social.hpp"

namespace bitgraph::reorder {

/// The orderings `compute` offers.
enum class reorder_method : std::uint8_t {
  none,             ///< identity
  random,           ///< `random_order(n, seed)`
  degree,           ///< `degree_order`
  rcm,              ///< `rcm`
  jaccard_windows,  ///< `jaccard_windows` with the options' `jaccard` parameters
};

/// Name of a method as used on command lines: "none", "random", "degree", "rcm", "jaccard".
std::string_view to_string(reorder_method method) noexcept;

/// Inverse of `to_string`. Throws `invalid_argument_error` listing the valid names.
reorder_method parse_reorder_method(std::string_view name);

/// Parameters of `compute`; each method reads only its own.
struct reorder_options {
  std::uint64_t seed = 0;   ///< `random`
  jaccard_options jaccard;  ///< `jaccard_windows`
};

/// Blest's ordering decision for a graph, with the degree statistics it was based on.
struct reorder_choice {
  reorder_method method = reorder_method::none;  ///< `jaccard_windows` or `rcm`
  social_graph_report report;                    ///< why
};

/// Jaccard-with-windows when `analyze_degrees(g, criteria).is_social()`, RCM otherwise. Throws
/// `invalid_argument_error` if `g` is inconsistent.
reorder_choice choose_reordering(const host_csr& g, const social_criteria& criteria = {});

/// The permutation `method` computes for `g`. For `jaccard_windows`, `g` is the matrix Blest pulls from
/// (see `jaccard_windows`). Throws `invalid_argument_error` if `g` is inconsistent or the method's
/// options are invalid.
permutation compute(const host_csr& g, reorder_method method, const reorder_options& options = {});

}  // namespace bitgraph::reorder
