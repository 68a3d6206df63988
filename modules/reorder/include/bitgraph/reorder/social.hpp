// Blest's social-graph test (paper section 3.2.1): heavy-tailed edge sharing or a power-law degree
// histogram sends a graph to the compression-oriented ordering, anything else to RCM.
#pragma once

#include <cstdint>
#include <vector>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph::reorder {

/// Thresholds of the social-graph test. The share thresholds are the paper's; the paper gives no
/// numbers for the power-law test, these accept the exponents of scale-free networks (2 to 3, with
/// margin) only when the binned log-log histogram is close to a line over at least a 16x degree range.
struct social_criteria {
  double top1_share = 0.05;   ///< heavy tail: the top 1 % of vertices hold more than this share ...
  double top10_share = 0.40;  ///< ... and the top 10 % more than this share of the entries
  double slope_min = -3.5;    ///< power law: fitted slope within [slope_min, slope_max] ...
  double slope_max = -1.5;
  double min_r_squared = 0.90;  ///< ... with at least this coefficient of determination ...
  unsigned min_fit_points = 5;  ///< ... over at least this many non-empty bins
};

/// Degree statistics of a graph and the verdict of the social-graph test. Degrees are row lengths
/// (stored entries per row: the degree of an undirected graph, the out-degree of a directed one).
struct social_graph_report {
  vertex_t n = 0;          ///< vertices
  offset_t m = 0;          ///< stored entries
  double top1_share = 0;   ///< share of the entries held by the ceil(1 %) highest-degree vertices
  double top10_share = 0;  ///< same for the ceil(10 %) highest-degree vertices
  /// Least-squares slope of ln(vertices per unit degree) against ln(degree) over power-of-two degree
  /// bins [2^b, 2^(b+1)), from the densest bin up (the tail, where a power law would show), empty bins
  /// skipped; 0 when fewer than two bins qualify.
  double slope = 0;
  double r_squared = 0;       ///< coefficient of determination of that fit (0 when not fitted)
  unsigned fit_points = 0;    ///< bins in the fit
  bool heavy_tailed = false;  ///< both top shares above their thresholds
  bool power_law = false;     ///< enough bins, slope in range and R^2 high enough

  /// Blest's decision: social-like (compression-oriented ordering) when either property holds.
  bool is_social() const noexcept { return heavy_tailed || power_law; }
};

/// Computes the report in O(n + m). Throws `invalid_argument_error` if `g` is inconsistent.
social_graph_report analyze_degrees(const host_csr& g, const social_criteria& criteria = {});

/// The same from the row offsets alone (n + 1 of them, from 0, not decreasing; checked), in O(n): what a
/// caller holding its graph on a device copies back for the test.
social_graph_report analyze_degrees(const std::vector<offset_t>& row_ptr, const social_criteria& criteria = {});

}  // namespace bitgraph::reorder
