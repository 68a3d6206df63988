// Method dispatch and Blest's ordering decision.
#include "bitgraph/reorder/reorder.hpp"

#include <string>

#include "internal.hpp"

namespace bitgraph::reorder {

std::string_view to_string(reorder_method method) noexcept {
  switch (method) {
    case reorder_method::none:
      return "none";
    case reorder_method::random:
      return "random";
    case reorder_method::degree:
      return "degree";
    case reorder_method::rcm:
      return "rcm";
    case reorder_method::jaccard_windows:
      return "jaccard";
  }
  return "?";
}

reorder_method parse_reorder_method(std::string_view name) {
  for (auto m : {reorder_method::none, reorder_method::random, reorder_method::degree, reorder_method::rcm,
                 reorder_method::jaccard_windows})
    if (to_string(m) == name) return m;
  BITGRAPH_CHECK_ARG(false, "reorder::parse_reorder_method", "unknown method '", std::string(name),
                     "' (expected none, random, degree, rcm or jaccard)");
  return reorder_method::none;
}

reorder_choice choose_reordering(const host_csr& g, const social_criteria& criteria) {
  reorder_choice choice;
  choice.report = analyze_degrees(g, criteria);
  choice.method = choice.report.is_social() ? reorder_method::jaccard_windows : reorder_method::rcm;
  return choice;
}

permutation compute(const host_csr& g, reorder_method method, const reorder_options& options) {
  switch (method) {
    case reorder_method::none:
      detail::validate_csr(g, "reorder::compute");
      return permutation::identity(g.n);
    case reorder_method::random:
      detail::validate_csr(g, "reorder::compute");
      return random_order(g.n, options.seed);
    case reorder_method::degree:
      return degree_order(g);
    case reorder_method::rcm:
      return rcm(g);
    case reorder_method::jaccard_windows:
      return jaccard_windows(g, options.jaccard);
  }
  BITGRAPH_CHECK_ARG(false, "reorder::compute", "unknown reorder_method ", static_cast<int>(method));
  return {};
}

}  // namespace bitgraph::reorder
