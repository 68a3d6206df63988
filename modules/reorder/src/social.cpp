// Degree-distribution statistics behind the social-graph test.
#include "bitgraph/reorder/social.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "internal.hpp"

namespace bitgraph::reorder {

namespace {

/// Sum of the `count` largest degrees, walking a degree histogram from the top.
std::uint64_t top_degree_sum(const std::vector<std::uint64_t>& vertices_of_degree, std::uint64_t count) {
  std::uint64_t sum = 0;
  for (std::size_t d = vertices_of_degree.size(); d-- > 0 && count > 0;) {
    const std::uint64_t take = std::min(count, vertices_of_degree[d]);
    sum += take * d;
    count -= take;
  }
  return sum;
}

/// The report from offsets already checked (n + 1 of them, from 0, not decreasing).
social_graph_report degree_report(const std::vector<offset_t>& row_ptr, const social_criteria& criteria) {
  const vertex_t n = static_cast<vertex_t>(row_ptr.size() - 1);
  social_graph_report r;
  r.n = n;
  r.m = row_ptr.back();
  if (n == 0 || r.m == 0) return r;

  offset_t max_degree = 0;
  for (vertex_t v = 0; v < n; ++v) max_degree = std::max(max_degree, row_ptr[v + 1] - row_ptr[v]);
  std::vector<std::uint64_t> vertices_of_degree(static_cast<std::size_t>(max_degree) + 1, 0);
  std::vector<std::uint64_t> bin_count(64, 0);
  for (vertex_t v = 0; v < n; ++v) {
    const offset_t d = row_ptr[v + 1] - row_ptr[v];
    ++vertices_of_degree[d];
    if (d > 0) ++bin_count[std::bit_width(d) - 1];
  }
  const auto top_count = [&](double fraction) {
    return static_cast<std::uint64_t>(std::ceil(fraction * static_cast<double>(n)));
  };
  const double m = static_cast<double>(r.m);
  r.top1_share = static_cast<double>(top_degree_sum(vertices_of_degree, top_count(0.01))) / m;
  r.top10_share = static_cast<double>(top_degree_sum(vertices_of_degree, top_count(0.10))) / m;
  r.heavy_tailed = r.top1_share > criteria.top1_share && r.top10_share > criteria.top10_share;

  // Dividing by the bin width turns counts into a density, whose log-log slope is the power law's
  // exponent; raw per-degree histograms are dominated by the noisy single-vertex tail.
  std::size_t peak = 0;
  double peak_density = -1;
  for (std::size_t b = 0; b < bin_count.size(); ++b) {
    const double density = std::ldexp(static_cast<double>(bin_count[b]), -static_cast<int>(b));
    if (density > peak_density) {
      peak_density = density;
      peak = b;
    }
  }
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  unsigned points = 0;
  for (std::size_t b = peak; b < bin_count.size(); ++b) {
    if (bin_count[b] == 0) continue;
    const double x = (static_cast<double>(b) + 0.5) * std::log(2.0);
    const double y = std::log(static_cast<double>(bin_count[b])) - static_cast<double>(b) * std::log(2.0);
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
    ++points;
  }
  r.fit_points = points;
  if (points >= 2) {
    const double k = points;
    const double var_x = sxx - sx * sx / k, var_y = syy - sy * sy / k, cov = sxy - sx * sy / k;
    r.slope = cov / var_x;
    r.r_squared = var_y > 0 ? (cov * cov) / (var_x * var_y) : 1.0;
  }
  r.power_law = points >= criteria.min_fit_points && r.slope >= criteria.slope_min && r.slope <= criteria.slope_max &&
                r.r_squared >= criteria.min_r_squared;
  return r;
}

}  // namespace

social_graph_report analyze_degrees(const host_csr& g, const social_criteria& criteria) {
  detail::validate_csr(g, "reorder::analyze_degrees");
  return degree_report(g.row_ptr, criteria);
}

social_graph_report analyze_degrees(const std::vector<offset_t>& row_ptr, const social_criteria& criteria) {
  BITGRAPH_CHECK_ARG(!row_ptr.empty() && row_ptr.front() == 0, "reorder::analyze_degrees",
                     "row_ptr must hold n + 1 offsets starting at 0");
  for (std::size_t v = 0; v + 1 < row_ptr.size(); ++v)
    BITGRAPH_CHECK_ARG(row_ptr[v] <= row_ptr[v + 1], "reorder::analyze_degrees", "row_ptr decreases at row ", v);
  return degree_report(row_ptr, criteria);
}

}  // namespace bitgraph::reorder
