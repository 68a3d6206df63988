// Matrix Market reader and writers.
#include "bitgraph/io/matrix_market.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "io_detail.hpp"

namespace bitgraph::io {

namespace {

using detail::line_reader;
using detail::number_status;
using detail::quote;

constexpr std::string_view banner_usage = "'%%MatrixMarket matrix <format> <field> <symmetry>'";

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

const char* symmetry_name(mm_symmetry s) {
  switch (s) {
    case mm_symmetry::general:
      return "general";
    case mm_symmetry::symmetric:
      return "symmetric";
    case mm_symmetry::skew_symmetric:
      return "skew-symmetric";
    case mm_symmetry::hermitian:
      return "hermitian";
  }
  return "?";
}

// Which values an entry may hold: the field, narrowed by a "%%GraphBLAS type" line (LAGraph's
// extension, whose integer types bound the values: a file declaring uint8_t must not hold 256).
struct value_rule {
  bool has_value = true;
  bool integral = false;
  bool is_unsigned = false;  // range [0, umax]
  std::int64_t lo = INT64_MIN;
  std::uint64_t umax = UINT64_MAX;
  std::int64_t hi = INT64_MAX;
  std::string what;  // names the rule in messages
};

struct graphblas_type {
  std::string_view name;
  bool integral;
  bool is_unsigned;
  std::int64_t lo;
  std::int64_t hi;     // for signed types
  std::uint64_t umax;  // for unsigned types
};

constexpr std::array<graphblas_type, 11> graphblas_types{{
    {"bool", true, true, 0, 0, 1},
    {"int8_t", true, false, INT8_MIN, INT8_MAX, 0},
    {"int16_t", true, false, INT16_MIN, INT16_MAX, 0},
    {"int32_t", true, false, INT32_MIN, INT32_MAX, 0},
    {"int64_t", true, false, INT64_MIN, INT64_MAX, 0},
    {"uint8_t", true, true, 0, 0, UINT8_MAX},
    {"uint16_t", true, true, 0, 0, UINT16_MAX},
    {"uint32_t", true, true, 0, 0, UINT32_MAX},
    {"uint64_t", true, true, 0, 0, UINT64_MAX},
    {"float", false, false, 0, 0, 0},
    {"double", false, false, 0, 0, 0},
}};

// The header after the size line, with everything the entry loop needs.
struct parsed_header {
  mm_header h;
  std::uint64_t n = 0;  // vertices
  edge_storage storage = edge_storage::general;
  value_rule rule;
};

[[noreturn]] void too_many_vertices(const line_reader& in, const char* what, std::uint64_t count,
                                    const mm_read_options& opts) {
  const std::uint64_t limit = std::min(opts.max_vertices, max_vertices - 1);
  throw size_error(fmt::format(
      "{}:{}: the matrix has {} {}, more than the {} vertices {}", in.source(), in.line_number(), count, what, limit,
      limit < max_vertices - 1 ? "allowed by mm_read_options::max_vertices" : "BitGraph supports (32-bit vertex ids)"));
}

void parse_banner(line_reader& in, std::string_view line, parsed_header& ph) {
  const auto tok = detail::split_tokens(line);
  if (detail::lower(tok[0]) != "%%matrixmarket") {
    in.fail(fmt::format("invalid banner {}: expected {}", quote(tok[0]), banner_usage));
  }
  if (tok.size() < 5) in.fail(fmt::format("incomplete banner: expected {}", banner_usage));
  if (tok.size() > 5) in.fail(fmt::format("unexpected {} after the symmetry in the banner", quote(tok[5])));
  if (detail::lower(tok[1]) != "matrix") {
    in.fail(fmt::format("unsupported object {} in the banner (only 'matrix' is supported)", quote(tok[1])));
  }
  mm_header& h = ph.h;
  const std::string format = detail::lower(tok[2]);
  if (format == "coordinate") {
    h.format = mm_format::coordinate;
  } else if (format == "array") {
    h.format = mm_format::array;
  } else {
    in.fail(fmt::format("unknown format {} in the banner (expected 'coordinate' or 'array')", quote(tok[2])));
  }
  const std::string field = detail::lower(tok[3]);
  if (field == "real") {
    h.field = mm_field::real;
  } else if (field == "integer") {
    h.field = mm_field::integer;
  } else if (field == "pattern") {
    h.field = mm_field::pattern;
  } else if (field == "complex") {
    h.field = mm_field::complex;
  } else {
    in.fail(fmt::format("unknown field {} in the banner (expected 'real', 'integer', 'pattern' or 'complex')",
                        quote(tok[3])));
  }
  const std::string sym = detail::lower(tok[4]);
  if (sym == "general") {
    h.symmetry = mm_symmetry::general;
  } else if (sym == "symmetric") {
    h.symmetry = mm_symmetry::symmetric;
  } else if (sym == "skew-symmetric") {
    h.symmetry = mm_symmetry::skew_symmetric;
  } else if (sym == "hermitian") {
    h.symmetry = mm_symmetry::hermitian;
  } else {
    in.fail(fmt::format(
        "unknown symmetry {} in the banner (expected 'general', 'symmetric', 'skew-symmetric' or 'hermitian')",
        quote(tok[4])));
  }
  if (h.field == mm_field::complex) in.fail("complex matrices are not supported");
  if (h.field == mm_field::pattern && h.format == mm_format::array) {
    in.fail("the 'array' format cannot have the 'pattern' field");
  }
  if (h.field == mm_field::pattern && h.symmetry == mm_symmetry::skew_symmetric) {
    in.fail("a 'pattern' matrix cannot be 'skew-symmetric' (its mirrored entries would need negated values)");
  }
}

void parse_graphblas_line(line_reader& in, std::string_view line, parsed_header& ph) {
  const auto tok = detail::split_tokens(line);
  // Only "%%GraphBLAS type <T>" has a meaning; LAGraph ignores other %%GraphBLAS lines, and so do we.
  if (tok.size() < 2 || detail::lower(tok[1]) != "type") return;
  if (!ph.h.graphblas_type.empty()) in.fail("a second '%%GraphBLAS type' line");
  if (tok.size() < 3) in.fail("'%%GraphBLAS type' names no type");
  std::string name = detail::lower(tok[2]);
  for (std::size_t i = 3; i < tok.size(); ++i) {
    name.push_back(' ');
    name.append(detail::lower(tok[i]));
  }
  if (name == "float complex" || name == "double complex") {
    in.fail(fmt::format("complex matrices are not supported (%%GraphBLAS type {})", name));
  }
  const auto it = std::find_if(graphblas_types.begin(), graphblas_types.end(),
                               [&](const graphblas_type& t) { return t.name == name; });
  if (it == graphblas_types.end()) {
    in.fail(
        fmt::format("unknown %%GraphBLAS type {} (expected bool, int8_t, int16_t, int32_t, int64_t, "
                    "uint8_t, uint16_t, uint32_t, uint64_t, float or double)",
                    quote(name)));
  }
  if (ph.h.symmetry == mm_symmetry::skew_symmetric && it->is_unsigned) {
    in.fail(fmt::format("a skew-symmetric matrix cannot have the unsigned %%GraphBLAS type {}", name));
  }
  ph.h.graphblas_type = name;
}

void make_value_rule(parsed_header& ph) {
  value_rule& r = ph.rule;
  const mm_header& h = ph.h;
  if (h.field == mm_field::pattern) {
    r.has_value = false;
    return;
  }
  r.integral = h.field == mm_field::integer;
  r.what = h.field == mm_field::integer ? "the 'integer' field" : "the 'real' field";
  if (h.graphblas_type.empty()) return;
  const auto it = std::find_if(graphblas_types.begin(), graphblas_types.end(),
                               [&](const graphblas_type& t) { return t.name == h.graphblas_type; });
  // The type line decides, as in LAGraph_MMRead: LAGraph writes `integer` fields for float matrices
  // that hold -inf/inf (matrix_fp32.mtx), so a float or double type accepts any real value.
  if (!it->integral) {
    r.integral = false;
    r.what = fmt::format("%%GraphBLAS type {}", it->name);
  } else {
    r.integral = true;
    r.is_unsigned = it->is_unsigned;
    r.lo = it->lo;
    r.hi = it->hi;
    r.umax = it->umax;
    r.what = fmt::format("%%GraphBLAS type {}", it->name);
  }
}

std::uint64_t parse_size_field(line_reader& in, const char*& p, const char* e, const char* what) {
  std::uint64_t v = 0;
  const char* start = p;
  switch (detail::parse_u64(p, e, v)) {
    case number_status::ok:
      return v;
    case number_status::missing:
      in.fail(fmt::format("the size line has no {}", what));
    case number_status::negative:
      in.fail(fmt::format("negative {} {} on the size line", what, quote(detail::token_at(start, e))));
    case number_status::overflow:
      in.fail(fmt::format("{} {} on the size line is too large", what, quote(detail::token_at(start, e))));
    case number_status::invalid:
      break;
  }
  in.fail(fmt::format("invalid {} {} on the size line", what, quote(detail::token_at(start, e))));
}

void parse_size_line(line_reader& in, std::string_view line, parsed_header& ph, const mm_read_options& opts) {
  mm_header& h = ph.h;
  const std::size_t ntok = detail::split_tokens(line).size();
  if (!h.has_banner) {
    // LAGraph's implicit headers: three numbers mean coordinate, two mean a dense array.
    if (ntok == 3) {
      h.format = mm_format::coordinate;
    } else if (ntok == 2) {
      h.format = mm_format::array;
    } else {
      in.fail(fmt::format("expected a size line 'rows columns entries' or 'rows columns', found {}", quote(line)));
    }
    h.field = mm_field::real;
    h.symmetry = mm_symmetry::general;
  } else if (h.format == mm_format::coordinate && ntok != 3) {
    in.fail(fmt::format("the size line of a coordinate matrix must be 'rows columns entries', found {}", quote(line)));
  } else if (h.format == mm_format::array && ntok != 2) {
    in.fail(fmt::format("the size line of an array matrix must be 'rows columns', found {}", quote(line)));
  }
  h.size_line = in.line_number();
  const char* p = line.data();
  const char* e = p + line.size();
  h.rows = parse_size_field(in, p, e, "number of rows");
  h.cols = parse_size_field(in, p, e, "number of columns");
  if (h.format == mm_format::coordinate) h.entries = parse_size_field(in, p, e, "number of entries");

  const std::uint64_t limit = std::min(opts.max_vertices, max_vertices - 1);
  if (h.rows > limit) too_many_vertices(in, "rows", h.rows, opts);
  if (h.cols > limit) too_many_vertices(in, "columns", h.cols, opts);
  if (h.rows != h.cols) {
    if (h.symmetry != mm_symmetry::general) {
      in.fail(
          fmt::format("a {} matrix must be square, this one is {} x {}", symmetry_name(h.symmetry), h.rows, h.cols));
    }
    if (!opts.pad_rectangular) {
      in.fail(
          fmt::format("the matrix is {} x {} but a graph needs a square matrix (set "
                      "mm_read_options::pad_rectangular to read it with {} vertices)",
                      h.rows, h.cols, std::max(h.rows, h.cols)));
    }
  }
  ph.n = std::max(h.rows, h.cols);
  // Rows and columns are below 2^32 here, so these products fit 64 bits.
  const std::uint64_t full = h.rows * h.cols;
  const std::uint64_t triangle = h.rows * (h.rows + 1) / 2;  // with the diagonal
  if (h.format == mm_format::array) {
    switch (h.symmetry) {
      case mm_symmetry::general:
        h.entries = full;
        break;
      case mm_symmetry::symmetric:
      case mm_symmetry::hermitian:
        h.entries = triangle;
        break;
      case mm_symmetry::skew_symmetric:
        h.entries = triangle - h.rows;
        break;  // the zero diagonal is implied
    }
  } else {
    if (h.entries > std::uint64_t(INT64_MAX)) {
      in.fail(fmt::format("the declared number of entries {} exceeds 2^63 - 1", h.entries));
    }
    const std::uint64_t bound = vertex_bound(h.entries, opts.max_vertices_per_entry);
    if (ph.n > bound) {
      throw size_error(
          fmt::format("{}:{}: the matrix declares {} vertices for {} entries, more than the {} allowed by "
                      "mm_read_options::max_vertices_per_entry = {} (at most max(2^20, {} x entries) vertices; "
                      "raise it, or 0 to lift the bound, to read such sparse ids)",
                      in.source(), in.line_number(), ph.n, h.entries, bound, opts.max_vertices_per_entry,
                      opts.max_vertices_per_entry));
    }
    const std::uint64_t positions = h.symmetry == mm_symmetry::general ? full : triangle;
    if (!opts.allow_duplicates && h.entries > positions) {
      in.fail(fmt::format("{} entries are declared but a {} x {} {} matrix has only {} distinct positions", h.entries,
                          h.rows, h.cols, symmetry_name(h.symmetry), positions));
    }
  }
  switch (h.symmetry) {
    case mm_symmetry::general:
      ph.storage = edge_storage::general;
      break;
    // A Hermitian matrix with real values is symmetric.
    case mm_symmetry::symmetric:
    case mm_symmetry::hermitian:
      ph.storage = edge_storage::symmetric;
      break;
    case mm_symmetry::skew_symmetric:
      ph.storage = edge_storage::skew_symmetric;
      break;
  }
  make_value_rule(ph);
}

parsed_header read_header(line_reader& in, const mm_read_options& opts) {
  parsed_header ph;
  std::string_view line;
  if (!in.next(line)) in.fail_at(1, fmt::format("empty input: expected the banner {}", banner_usage));
  bool pending = false;  // `line` still needs the generic handling below
  if (starts_with_ci(detail::token_at(line.data(), line.data() + line.size()), "%%matrixmarket")) {
    parse_banner(in, line, ph);
  } else if (!opts.allow_missing_banner) {
    in.fail(fmt::format("missing banner: expected {} on the first line, found {}", banner_usage, quote(line)));
  } else {
    ph.h.has_banner = false;
    pending = true;
  }
  while (pending || in.next(line)) {
    pending = false;
    const char* p = detail::skip_space(line.data(), line.data() + line.size());
    const std::string_view rest(p, std::size_t(line.data() + line.size() - p));
    if (rest.empty()) continue;
    if (rest.front() == '%') {
      if (starts_with_ci(rest, "%%matrixmarket")) {
        in.fail("a '%%MatrixMarket' banner must be the first line of the file");
      }
      if (ph.h.has_banner && starts_with_ci(rest, "%%graphblas")) parse_graphblas_line(in, rest, ph);
      continue;
    }
    parse_size_line(in, line, ph, opts);
    return ph;
  }
  in.fail_at(in.line_number() + 1, "unexpected end of input: the size line is missing");
}

// Maps entry indices back to line numbers (for duplicate reports) without storing a line per entry:
// only the comment and blank lines among the entries are recorded, merged per entry index.
class line_map {
 public:
  explicit line_map(std::uint64_t first_line) : first_(first_line) {}
  void skip(std::uint64_t entries_so_far) {
    if (!runs_.empty() && runs_.back().first == entries_so_far) {
      ++runs_.back().second;
    } else {
      runs_.emplace_back(entries_so_far, (runs_.empty() ? 0 : runs_.back().second) + 1);
    }
  }
  std::uint64_t line_of(std::uint64_t entry) const {
    auto it =
        std::upper_bound(runs_.begin(), runs_.end(), entry,
                         [](std::uint64_t k, const std::pair<std::uint64_t, std::uint64_t>& r) { return k < r.first; });
    const std::uint64_t skipped = it == runs_.begin() ? 0 : std::prev(it)->second;
    return first_ + entry + skipped;
  }

 private:
  std::uint64_t first_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs_;  // (entries read, skipped lines so far)
};

// Entries to reserve: never more than the rest of the input could hold, so that a header declaring
// billions of entries in a tiny file allocates nothing.
std::uint64_t reservation(const line_reader& in, std::uint64_t declared, std::uint64_t min_line_bytes) {
  const auto left = in.bytes_left();
  if (!left) return std::min<std::uint64_t>(declared, 4096);
  return std::min(declared, *left / min_line_bytes + 1);
}

[[noreturn]] void bad_number(const line_reader& in, number_status s, const char* what, const char* start, const char* e,
                             const char* usage) {
  const auto tok = quote(detail::token_at(start, e));
  switch (s) {
    case number_status::missing:
      in.fail(fmt::format("the entry has no {} (expected '{}')", what, usage));
    case number_status::negative:
      in.fail(fmt::format("negative {} {}", what, tok));
    case number_status::overflow:
      in.fail(fmt::format("{} {} is out of range", what, tok));
    default:
      in.fail(fmt::format("invalid {} {}", what, tok));
  }
}

double parse_value(const line_reader& in, const value_rule& rule, const char*& p, const char* e, const char* usage) {
  const char* start = p;
  if (!rule.integral) {
    double v = 0;
    const auto s = detail::parse_f64(p, e, v);
    if (s != number_status::ok) bad_number(in, s, "value", start, e, usage);
    return v;
  }
  // Integer rule: an integer literal, or (real field narrowed by an integer %%GraphBLAS type, as LAGraph
  // reads it) a real literal with an integral value.
  if (rule.is_unsigned) {
    std::uint64_t u = 0;
    auto s = detail::parse_u64(p, e, u);
    if (s == number_status::ok) {
      if (u > rule.umax) in.fail(fmt::format("value {} is out of the range 0..{} of {}", u, rule.umax, rule.what));
      return double(u);
    }
    if (s == number_status::negative) {
      in.fail(fmt::format("value {} is out of the range 0..{} of {}", quote(detail::token_at(start, e)), rule.umax,
                          rule.what));
    }
    if (s != number_status::invalid) bad_number(in, s, "value", start, e, usage);
  } else {
    std::int64_t i = 0;
    auto s = detail::parse_i64(p, e, i);
    if (s == number_status::ok) {
      if (i < rule.lo || i > rule.hi) {
        in.fail(fmt::format("value {} is out of the range {}..{} of {}", i, rule.lo, rule.hi, rule.what));
      }
      return double(i);
    }
    if (s == number_status::overflow) {
      in.fail(fmt::format("value {} is out of the range {}..{} of {}", quote(detail::token_at(start, e)), rule.lo,
                          rule.hi, rule.what));
    }
    if (s != number_status::invalid) bad_number(in, s, "value", start, e, usage);
  }
  double v = 0;
  const char* q = p;
  if (detail::parse_f64(q, e, v) != number_status::ok) bad_number(in, number_status::invalid, "value", start, e, usage);
  if (!std::isfinite(v) || v != std::trunc(v)) {
    in.fail(fmt::format("value {} is not an integer ({})", quote(detail::token_at(start, e)), rule.what));
  }
  const double lo = rule.is_unsigned ? 0.0 : double(rule.lo);
  const double hi = rule.is_unsigned ? double(rule.umax) : double(rule.hi);
  if (v < lo || v > hi) {
    in.fail(fmt::format("value {} is out of the range {}..{} of {}", quote(detail::token_at(start, e)),
                        rule.is_unsigned ? 0 : rule.lo, rule.is_unsigned ? rule.umax : std::uint64_t(rule.hi),
                        rule.what));
  }
  p = q;
  return v;
}

// A value about to be stored as an edge weight: NaN and infinities are refused unless the options allow them.
void check_finite(const line_reader& in, double w, const char* start, const char* e, const mm_read_options& opts) {
  if (opts.allow_non_finite || std::isfinite(w)) return;
  in.fail(
      fmt::format("value {} is {}: NaN and infinite edge weights are rejected (set "
                  "mm_read_options::allow_non_finite to keep them)",
                  quote(detail::token_at(start, e)), std::isnan(w) ? "NaN" : "infinite"));
}

[[noreturn]] void trailing(const line_reader& in, const char* p, const char* e, const char* after, bool pattern) {
  in.fail(fmt::format("unexpected {} after the {}{}", quote(detail::token_at(p, e)), after,
                      pattern ? " (pattern entries have no value)" : ""));
}

// In-place LSD radix sort on 11-bit digits; passes whose digit is the same for every key are skipped,
// so keys of small graphs take few passes.
void radix_sort(std::vector<std::uint64_t>& keys) {
  constexpr int digit_bits = 11;
  constexpr std::size_t buckets = std::size_t(1) << digit_bits;
  constexpr int passes = (64 + digit_bits - 1) / digit_bits;
  std::vector<std::array<std::uint64_t, buckets>> hist(passes);
  for (auto& h : hist) h.fill(0);
  for (const std::uint64_t k : keys) {
    for (int d = 0; d < passes; ++d) ++hist[d][(k >> (d * digit_bits)) & (buckets - 1)];
  }
  std::vector<std::uint64_t> tmp(keys.size());
  std::vector<std::uint64_t>* src = &keys;
  std::vector<std::uint64_t>* dst = &tmp;
  for (int d = 0; d < passes; ++d) {
    auto& h = hist[d];
    if (std::find(h.begin(), h.end(), keys.size()) != h.end()) continue;
    std::uint64_t sum = 0;
    for (auto& c : h) {
      const std::uint64_t c0 = c;
      c = sum;
      sum += c0;
    }
    for (const std::uint64_t k : *src) (*dst)[h[(k >> (d * digit_bits)) & (buckets - 1)]++] = k;
    std::swap(src, dst);
  }
  if (src != &keys) keys.swap(tmp);
}

void check_duplicates(const line_reader& in, const parsed_header& ph, const edge_list& out, const line_map& lines) {
  const std::size_t m = out.src.size();
  if (m < 2) return;
  const bool mirrored = ph.storage != edge_storage::general;
  // Keys as narrow as the ids allow: the radix sort skips the digits no key uses.
  int shift = 1;
  while (shift < 32 && (std::uint64_t(1) << shift) < ph.n) ++shift;
  auto key_of = [&](std::size_t k) {
    std::uint64_t u = out.src[k], v = out.dst[k];
    if (mirrored && u < v) std::swap(u, v);
    return (u << shift) | v;
  };
  std::vector<std::uint64_t> keys(m);
  for (std::size_t k = 0; k < m; ++k) keys[k] = key_of(k);
  radix_sort(keys);
  const auto dup = std::adjacent_find(keys.begin(), keys.end());
  if (dup == keys.end()) return;
  const std::uint64_t key = *dup;
  keys.clear();
  keys.shrink_to_fit();
  std::size_t first = m, second = m;
  for (std::size_t k = 0; k < m && second == m; ++k) {
    if (key_of(k) != key) continue;
    (first == m ? first : second) = k;
  }
  in.fail_at(lines.line_of(second),
             fmt::format("duplicate entry ({}, {}): the entry on line {} has the same position{}",
                         std::uint64_t(out.src[second]) + 1, std::uint64_t(out.dst[second]) + 1, lines.line_of(first),
                         mirrored ? " ((i, j) and (j, i) are one entry of a symmetric matrix)" : ""));
}

void read_coordinate(line_reader& in, const parsed_header& ph, const mm_read_options& opts, edge_list& out) {
  const mm_header& h = ph.h;
  const value_rule& rule = ph.rule;
  const bool keep_values = rule.has_value && opts.read_values;
  const bool skew = ph.storage == edge_storage::skew_symmetric;
  const char* usage = rule.has_value ? "row column value" : "row column";
  const std::uint64_t want = h.entries;
  const std::uint64_t reserve = reservation(in, want, rule.has_value ? 6 : 4);
  out.src.reserve(reserve);
  out.dst.reserve(reserve);
  if (keep_values) out.weights.reserve(reserve);
  line_map lines(h.size_line + 1);
  std::string_view line;
  std::uint64_t k = 0;
  while (k < want) {
    if (!in.next(line)) {
      in.fail_at(in.line_number() + 1,
                 fmt::format("unexpected end of input: {} of the {} entries declared on line {} were found", k, want,
                             h.size_line));
    }
    const char* e = line.data() + line.size();
    const char* p = detail::skip_space(line.data(), e);
    if (p == e || *p == '%') {
      lines.skip(k);
      continue;
    }
    std::uint64_t i = 0, j = 0;
    const char* start = p;
    auto s = detail::parse_u64(p, e, i);
    if (s != number_status::ok) bad_number(in, s, "row index", start, e, usage);
    start = p;
    s = detail::parse_u64(p, e, j);
    if (s != number_status::ok) bad_number(in, s, "column index", start, e, usage);
    if (i == 0 || i > h.rows) in.fail(fmt::format("row index {} is out of the range 1..{}", i, h.rows));
    if (j == 0 || j > h.cols) in.fail(fmt::format("column index {} is out of the range 1..{}", j, h.cols));
    double w = 1.0;
    if (rule.has_value) {
      const char* value_start = p;
      w = parse_value(in, rule, p, e, usage);
      if (keep_values) check_finite(in, w, value_start, e, opts);
    }
    p = detail::skip_space(p, e);
    if (p != e) trailing(in, p, e, rule.has_value ? "value" : "column index", !rule.has_value);
    if (skew && i == j && w != 0.0) {
      in.fail(fmt::format("diagonal entry ({}, {}) of a skew-symmetric matrix must be zero", i, j));
    }
    out.src.push_back(vertex_t(i - 1));
    out.dst.push_back(vertex_t(j - 1));
    if (keep_values) out.weights.push_back(w);
    ++k;
  }
  while (in.next(line)) {
    const char* e = line.data() + line.size();
    const char* p = detail::skip_space(line.data(), e);
    if (p == e || *p == '%') continue;
    in.fail(fmt::format("more entries than the {} declared on line {}", want, h.size_line));
  }
  if (!opts.allow_duplicates) check_duplicates(in, ph, out, lines);
}

void read_array(line_reader& in, const parsed_header& ph, const mm_read_options& opts, edge_list& out) {
  const mm_header& h = ph.h;
  const bool keep_values = opts.read_values;
  const std::uint64_t want = h.entries;
  const std::uint64_t reserve = reservation(in, want, 2);
  out.src.reserve(reserve);
  out.dst.reserve(reserve);
  if (keep_values) out.weights.reserve(reserve);
  // Column-major; symmetric arrays list the lower triangle with the diagonal, skew-symmetric ones
  // the strict lower triangle.
  const std::uint64_t start_offset = ph.storage == edge_storage::skew_symmetric ? 1 : 0;
  const bool triangular = ph.storage != edge_storage::general;
  std::uint64_t i = start_offset, j = 0;
  std::string_view line;
  for (std::uint64_t k = 0; k < want; ++k) {
    for (;;) {
      if (!in.next(line)) {
        in.fail_at(in.line_number() + 1,
                   fmt::format("unexpected end of input: {} of the {} values of the {} x {} {} array were found", k,
                               want, h.rows, h.cols, symmetry_name(h.symmetry)));
      }
      const char* e = line.data() + line.size();
      const char* p = detail::skip_space(line.data(), e);
      if (p != e && *p != '%') break;
    }
    const char* e = line.data() + line.size();
    const char* p = line.data();
    const double w = parse_value(in, ph.rule, p, e, "value");
    if (keep_values) check_finite(in, w, line.data(), e, opts);
    p = detail::skip_space(p, e);
    if (p != e) trailing(in, p, e, "value (an array line holds one value)", false);
    out.src.push_back(vertex_t(i));
    out.dst.push_back(vertex_t(j));
    if (keep_values) out.weights.push_back(w);
    if (++i == h.rows) {
      ++j;
      i = triangular ? j + start_offset : 0;
    }
  }
  while (in.next(line)) {
    const char* e = line.data() + line.size();
    const char* p = detail::skip_space(line.data(), e);
    if (p == e || *p == '%') continue;
    in.fail(fmt::format("more values than the {} of the {} x {} {} array declared on line {}", want, h.rows, h.cols,
                        symmetry_name(h.symmetry), h.size_line));
  }
}

edge_list read_mm(detail::byte_source& src, const std::string& name, const mm_read_options& opts, mm_header* header) {
  line_reader in(src, name);
  const parsed_header ph = read_header(in, opts);
  edge_list out;
  out.name = name;
  out.num_vertices = ph.n;
  out.storage = ph.storage;
  if (ph.h.format == mm_format::coordinate) {
    read_coordinate(in, ph, opts, out);
  } else {
    read_array(in, ph, opts, out);
  }
  if (header != nullptr) *header = ph.h;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// writers

void put_banner(detail::text_sink& out, bool pattern, const char* symmetry, const mm_write_options& opts) {
  out.put("%%MatrixMarket matrix coordinate ");
  out.put(pattern ? "pattern " : "real ");
  out.put(symmetry);
  out.put("\n% written by BitGraph\n");
  std::string_view c = opts.comment;
  while (!c.empty()) {
    const auto nl = c.find('\n');
    const auto part = c.substr(0, nl);
    out.put("% ");
    out.put(part);
    out.put('\n');
    c = nl == std::string_view::npos ? std::string_view{} : c.substr(nl + 1);
  }
}

void put_entry(detail::text_sink& out, std::uint64_t i, std::uint64_t j, const double* w) {
  out.put_u64(i + 1);
  out.put(' ');
  out.put_u64(j + 1);
  if (w != nullptr) {
    out.put(' ');
    out.put_f64(*w);
  }
  out.put('\n');
}

// Whether row v of a graph with sorted rows holds u (with weight *w when w is given).
bool has_mirror(const host_csr& g, vertex_t u, vertex_t v, const double* w) {
  const auto first = g.col_idx.begin() + std::ptrdiff_t(g.row_ptr[v]);
  const auto last = g.col_idx.begin() + std::ptrdiff_t(g.row_ptr[v + 1]);
  auto it = std::lower_bound(first, last, u);
  if (it == last || *it != u) return false;
  if (w == nullptr) return true;
  for (; it != last && *it == u; ++it) {
    if (detail::same_weight(g.weights[std::size_t(it - g.col_idx.begin())], *w)) return true;
  }
  return false;
}

// Checks `g` before anything is written (no partial file is left behind) and returns the entry count.
std::uint64_t check_csr(const host_csr& g, bool symmetric, bool values) {
  const std::string problem = detail::host_csr_problem(g);
  BITGRAPH_CHECK_ARG(problem.empty(), "io::write_matrix_market", problem);
  if (!symmetric) return g.nnz();
  std::uint64_t lower = 0, lower_strict = 0, upper = 0;
  for (vertex_t u = 0; u < g.n; ++u) {
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      if (v > u) {
        ++upper;
        continue;
      }
      ++lower;
      if (v == u) continue;
      ++lower_strict;
      // Only the lower triangle is written: an asymmetric "undirected" graph would be silently changed.
      BITGRAPH_CHECK_ARG(has_mirror(g, u, v, values ? &g.weights[p] : nullptr), "io::write_matrix_market",
                         "the undirected graph is not symmetric: entry (", u, ", ", v, ") has no mirror (", v, ", ", u,
                         ")", values ? " of the same weight" : "");
    }
  }
  // Every lower entry has its mirror; equal counts then leave no unmatched upper entry (duplicates make
  // counts ambiguous, so multigraphs are checked one way only).
  BITGRAPH_CHECK_ARG(g.has_duplicates || lower_strict == upper, "io::write_matrix_market",
                     "the undirected graph is not symmetric: ", upper, " entries above the diagonal but ", lower_strict,
                     " below");
  return lower;
}

void write_csr(detail::text_sink& out, const host_csr& g, bool symmetric, bool values, std::uint64_t count,
               const mm_write_options& opts) {
  put_banner(out, !values, symmetric ? "symmetric" : "general", opts);
  out.put_u64(g.n);
  out.put(' ');
  out.put_u64(g.n);
  out.put(' ');
  out.put_u64(count);
  out.put('\n');
  for (vertex_t u = 0; u < g.n; ++u) {
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      if (symmetric && v > u) continue;
      put_entry(out, u, v, values ? &g.weights[p] : nullptr);
    }
  }
  out.close();
}

void check_edges(const edge_list& el) {
  BITGRAPH_CHECK_ARG(el.src.size() == el.dst.size(), "io::write_matrix_market", "src has ", el.src.size(),
                     " entries but dst has ", el.dst.size());
  BITGRAPH_CHECK_ARG(el.weights.empty() || el.weights.size() == el.src.size(), "io::write_matrix_market",
                     "weights has ", el.weights.size(), " entries but there are ", el.src.size(), " edges");
  BITGRAPH_CHECK_ARG(el.num_vertices <= max_vertices - 1, "io::write_matrix_market", "num_vertices = ", el.num_vertices,
                     " exceeds the limit of ", max_vertices - 1);
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    BITGRAPH_CHECK_ARG(el.src[k] < el.num_vertices && el.dst[k] < el.num_vertices, "io::write_matrix_market", "entry ",
                       k, " (", el.src[k], ", ", el.dst[k], ") has an id >= num_vertices = ", el.num_vertices);
  }
}

void write_edges(detail::text_sink& out, const edge_list& el, const mm_write_options& opts) {
  const bool skew = el.storage == edge_storage::skew_symmetric;
  const bool values = skew || (opts.values && el.weighted());
  const char* sym = el.storage == edge_storage::general ? "general" : skew ? "skew-symmetric" : "symmetric";
  put_banner(out, !values, sym, opts);
  out.put_u64(el.num_vertices);
  out.put(' ');
  out.put_u64(el.num_vertices);
  out.put(' ');
  out.put_u64(el.src.size());
  out.put('\n');
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    std::uint64_t u = el.src[k], v = el.dst[k];
    double w = el.weighted() ? el.weights[k] : 1.0;
    // The format stores the lower triangle of symmetric matrices; moving a skew entry negates it.
    if (el.storage != edge_storage::general && u < v) {
      std::swap(u, v);
      if (skew) w = -w;
    }
    put_entry(out, u, v, values ? &w : nullptr);
  }
  out.close();
}

}  // namespace

std::string to_string(const mm_read_options& opts) {
  return fmt::format(
      "mm;banner={};rectangular={};duplicates={};values={};max_vertices={};vertices_per_entry={};non_finite={}",
      opts.allow_missing_banner ? "optional" : "required", opts.pad_rectangular ? "pad" : "reject",
      opts.allow_duplicates ? "keep" : "reject", opts.read_values ? "read" : "skip", opts.max_vertices,
      opts.max_vertices_per_entry, opts.allow_non_finite ? "keep" : "reject");
}

edge_list read_matrix_market(const std::string& path, const mm_read_options& opts, mm_header* header) {
  const auto src = detail::open_input(path);  // gzip-compressed files are inflated
  return read_mm(*src, path, opts, header);
}

edge_list read_matrix_market(std::istream& in, const std::string& source_name, const mm_read_options& opts,
                             mm_header* header) {
  detail::stream_source src(in, source_name);
  return read_mm(src, source_name, opts, header);
}

mm_header read_matrix_market_header(const std::string& path, const mm_read_options& opts) {
  const auto src = detail::open_input(path);
  line_reader in(*src, path);
  return read_header(in, opts).h;
}

void write_matrix_market(const std::string& path, const host_csr& g, const mm_write_options& opts) {
  const bool symmetric = opts.symmetric && g.kind == graph_kind::undirected;
  const bool values = opts.values && g.has_weights;
  const std::uint64_t count = check_csr(g, symmetric, values);
  detail::text_sink out(path, "write_matrix_market");
  write_csr(out, g, symmetric, values, count, opts);
}

void write_matrix_market(std::ostream& os, const host_csr& g, const mm_write_options& opts) {
  const bool symmetric = opts.symmetric && g.kind == graph_kind::undirected;
  const bool values = opts.values && g.has_weights;
  const std::uint64_t count = check_csr(g, symmetric, values);
  detail::text_sink out(os, "write_matrix_market");
  write_csr(out, g, symmetric, values, count, opts);
}

void write_matrix_market(const std::string& path, const edge_list& edges, const mm_write_options& opts) {
  check_edges(edges);
  detail::text_sink out(path, "write_matrix_market");
  write_edges(out, edges, opts);
}

void write_matrix_market(std::ostream& os, const edge_list& edges, const mm_write_options& opts) {
  check_edges(edges);
  detail::text_sink out(os, "write_matrix_market");
  write_edges(out, edges, opts);
}

}  // namespace bitgraph::io
