// The oracle's bookkeeping: tally of comparisons, failure reports, host patterns, B2SR configurations.
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "oracle.hpp"

namespace bitgraph::oracle {

void tally::begin_graph(std::string name, std::string repro) {
  graph_name_ = std::move(name);
  repro_ = std::move(repro);
  ++graphs_;
}

void tally::report(const std::string& header, const std::vector<std::string>& lines, std::uint64_t total) {
  ++failures_;
  if (reports_ >= max_reports_) {
    if (reports_ == max_reports_) std::cout << "oracle: further failures are counted but not printed\n";
    ++reports_;
    return;
  }
  ++reports_;
  std::cout << "MISMATCH " << header << "\n  graph: " << graph_name_ << "\n  repro: " << repro_ << "\n";
  for (const auto& l : lines) std::cout << "    " << l << "\n";
  if (total > lines.size()) std::cout << "    ... " << (total - lines.size()) << " more\n";
  std::cout.flush();
}

void tally::record(const std::string& kind, const std::string& what, const diffs& d, bool planted) {
  auto& k = kinds_[kind];
  ++k.compared;
  if (planted) {
    ++k.planted;
    if (!d.empty()) {
      ++k.caught;
    } else {
      report(cat(kind, " [", what, "]: a planted fault was NOT detected"), {}, 0);
    }
    return;
  }
  if (!d.empty()) {
    ++k.mismatched;
    report(cat(kind, " [", what, "]: ", d.count, " differences (BitGraph vs GraphBLAS/LAGraph)"), d.first, d.count);
  }
}

void tally::error(const std::string& kind, const std::string& what, const std::string& message) {
  auto& k = kinds_[kind];
  ++k.compared;
  ++k.errors;
  report(cat(kind, " [", what, "]: error"), {message}, 1);
}

void tally::print_summary(std::ostream& os, double seconds) const {
  os << "\noracle summary: " << graphs_ << " graphs, " << std::fixed << std::setprecision(1) << seconds << " s"
     << (self_test_ ? " (self-test: a fault planted in every comparison that allows one)" : "") << "\n";
  std::uint64_t total = 0, bad = 0, planted = 0, caught = 0;
  os << "  " << std::left << std::setw(34) << "kind" << std::right << std::setw(10) << "compared" << std::setw(11)
     << "mismatch" << std::setw(8) << "error";
  if (self_test_) os << std::setw(9) << "planted" << std::setw(8) << "caught";
  os << "\n";
  for (const auto& [name, k] : kinds_) {
    os << "  " << std::left << std::setw(34) << name << std::right << std::setw(10) << k.compared << std::setw(11)
       << k.mismatched << std::setw(8) << k.errors;
    if (self_test_) os << std::setw(9) << k.planted << std::setw(8) << k.caught;
    os << "\n";
    total += k.compared;
    bad += k.mismatched + k.errors;
    planted += k.planted;
    caught += k.caught;
  }
  os << "  " << std::left << std::setw(34) << "total" << std::right << std::setw(10) << total << std::setw(11) << bad
     << "\n";
  if (self_test_) os << "  planted faults: " << planted << ", caught: " << caught << "\n";
  if (!coverage_.empty()) {
    os << "  coverage (operand combinations exercised):\n";
    for (const auto& [what, count] : coverage_)
      os << "    " << std::left << std::setw(60) << what << std::right << count << "\n";
  }
  for (const auto& n : notes_) os << "  note: " << n << "\n";
  os << (failures_ == 0 ? "oracle: PASS" : cat("oracle: FAIL (", failures_, " failures)")) << std::endl;
}

bool host_pattern::has(vertex_t i, vertex_t j) const {
  if (i >= n) return false;
  const auto b = idx.begin() + static_cast<std::ptrdiff_t>(ptr[i]);
  const auto e = idx.begin() + static_cast<std::ptrdiff_t>(ptr[i + 1]);
  return std::binary_search(b, e, j);
}

host_pattern host_pattern::of(GrB_Matrix a) {
  host_pattern p;
  p.n = static_cast<vertex_t>(gb::nrows(a));
  const auto t = gb::extract<bool>(a);  // sorted by (row, column)
  p.ptr.assign(std::size_t(p.n) + 1, 0);
  for (auto r : t.row) ++p.ptr[r + 1];
  for (vertex_t i = 0; i < p.n; ++i) p.ptr[i + 1] += p.ptr[i];
  p.idx.assign(t.col.begin(), t.col.end());
  return p;
}

std::vector<b2sr_config> pick_configs(std::uint64_t seed, int count) {
  static constexpr int tiles[] = {4, 8, 16, 32, 64};
  std::vector<b2sr_config> out;
  // Consecutive picks walk the ten (tile, order) pairs from a seed-chosen start, so no pair repeats
  // within a graph and all ten appear over any ten graphs' worth of starts.
  const std::uint64_t start = mix(seed, 0xb2) % 10;
  for (int k = 0; k < count; ++k) {
    const std::uint64_t c = (start + 3 * std::uint64_t(k)) % 10;  // 3 is coprime with 10
    out.push_back({tiles[c % 5], c < 5});
  }
  return out;
}

}  // namespace bitgraph::oracle
