// Graph spec parsing and printing, and dispatch to the generators.

#include "bitgraph/generators/graph_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "bitgraph/core/error.hpp"

namespace bitgraph::gen {

namespace {

constexpr const char* parse_func = "gen::parse_graph_spec";

struct source_entry {
  graph_source source;
  std::string_view name;
};

constexpr std::array<source_entry, 7> sources{{
    {graph_source::kronecker, "kron"},
    {graph_source::uniform_random, "urand"},
    {graph_source::grid_2d, "grid2d"},
    {graph_source::grid_3d, "grid3d"},
    {graph_source::random_geometric, "rgg"},
    {graph_source::mycielski, "mycielski"},
    {graph_source::file, "file"},
}};

struct ordering_entry {
  vertex_ordering order;
  std::string_view name;
};

constexpr std::array<ordering_entry, 5> orderings{{
    {vertex_ordering::none, "none"},
    {vertex_ordering::degree, "degree"},
    {vertex_ordering::rcm, "rcm"},
    {vertex_ordering::random, "random"},
    {vertex_ordering::cluster, "cluster"},
}};

bool is_gap_source(graph_source s) { return s == graph_source::kronecker || s == graph_source::uniform_random; }

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t pos = text.find(sep, begin);
    if (pos == std::string_view::npos) {
      parts.push_back(text.substr(begin));
      return parts;
    }
    parts.push_back(text.substr(begin, pos - begin));
    begin = pos + 1;
  }
}

// The whole text must be digits: from_chars stops quietly at the first other character.
bool parse_unsigned(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// The options seen so far, to reject repeats.
struct option_state {
  bool seed = false, degree = false, weighted = false, kind = false, loops = false, order = false;
};

enum class option_result { not_an_option, applied };

// Applies one `:option` segment; throws for malformed or inapplicable options of a known name.
option_result apply_option(std::string_view option, std::string_view text, graph_spec& spec, option_state& seen) {
  const std::size_t eq = option.find('=');
  const std::string_view key = option.substr(0, eq);
  const bool has_value = eq != std::string_view::npos;
  const std::string_view value = has_value ? option.substr(eq + 1) : std::string_view{};
  auto once = [&](bool& flag) {
    BITGRAPH_CHECK_ARG(!flag, parse_func, "'", text, "': option '", key, "' is given more than once");
    flag = true;
  };
  auto no_value = [&] {
    BITGRAPH_CHECK_ARG(!has_value, parse_func, "'", text, "': option '", key, "' takes no value");
  };
  auto number = [&](std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t v = 0;
    BITGRAPH_CHECK_ARG(has_value && parse_unsigned(value, v) && v >= lo && v <= hi, parse_func, "'", text,
                       "': option '", option, "' needs an integer value in ", lo, "..", hi);
    return v;
  };
  if (key == "seed") {
    once(seen.seed);
    spec.seed = static_cast<std::uint32_t>(number(0, std::numeric_limits<std::uint32_t>::max()));
  } else if (key == "degree") {
    once(seen.degree);
    BITGRAPH_CHECK_ARG(is_gap_source(spec.source), parse_func, "'", text,
                       "': option 'degree' applies only to kron and urand");
    spec.degree = static_cast<std::uint32_t>(number(1, std::numeric_limits<std::uint32_t>::max()));
  } else if (key == "weighted") {
    no_value();
    once(seen.weighted);
    spec.weighted = true;
  } else if (key == "directed" || key == "undirected") {
    no_value();
    BITGRAPH_CHECK_ARG(!seen.kind, parse_func, "'", text, "': give at most one of 'directed' and 'undirected'");
    seen.kind = true;
    spec.kind = key == "directed" ? graph_kind::directed : graph_kind::undirected;
  } else if (key == "loops") {
    no_value();
    once(seen.loops);
    spec.keep_self_loops = true;
  } else if (key == "order") {
    once(seen.order);
    const auto found = std::find_if(orderings.begin(), orderings.end(),
                                    [&](const ordering_entry& e) { return has_value && e.name == value; });
    BITGRAPH_CHECK_ARG(found != orderings.end(), parse_func, "'", text, "': option '", option,
                       "' needs one of order=degree, order=cluster, order=rcm, order=random, order=none");
    spec.order = found->order;
  } else {
    return option_result::not_an_option;
  }
  return option_result::applied;
}

bool is_option_name(std::string_view segment) {
  const std::string_view key = segment.substr(0, segment.find('='));
  return key == "seed" || key == "degree" || key == "weighted" || key == "directed" || key == "undirected" ||
         key == "loops" || key == "order";
}

void check_parameter(const graph_spec& spec, std::string_view text, const char* func) {
  const std::uint64_t p = spec.parameter;
  switch (spec.source) {
    case graph_source::kronecker:
    case graph_source::uniform_random:
    case graph_source::random_geometric:
      BITGRAPH_CHECK_ARG(p >= 1 && p <= max_scale, func, "'", text, "': scale ", p, " is out of range 1..", max_scale);
      break;
    case graph_source::grid_2d:
      BITGRAPH_CHECK_ARG(p >= 1 && p <= max_grid_2d_k, func, "'", text, "': grid side ", p, " is out of range 1..",
                         max_grid_2d_k, " (K^2 vertices must be fewer than 2^32 - 1)");
      break;
    case graph_source::grid_3d:
      BITGRAPH_CHECK_ARG(p >= 1 && p <= max_grid_3d_k, func, "'", text, "': grid side ", p, " is out of range 1..",
                         max_grid_3d_k, " (K^3 vertices must be fewer than 2^32 - 1)");
      break;
    case graph_source::mycielski:
      BITGRAPH_CHECK_ARG(p >= min_mycielski_k && p <= max_mycielski_k, func, "'", text, "': Mycielski order ", p,
                         " is out of range ", min_mycielski_k, "..", max_mycielski_k);
      break;
    case graph_source::file:
      break;
  }
}

file_format format_of(std::string_view path) {
  constexpr std::string_view ext = ".mtx";
  if (path.size() < ext.size()) return file_format::edge_list;
  const std::string_view tail = path.substr(path.size() - ext.size());
  const bool mtx = std::equal(tail.begin(), tail.end(), ext.begin(),
                              [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return mtx ? file_format::matrix_market : file_format::edge_list;
}

}  // namespace

std::string_view ordering_name(vertex_ordering order) {
  for (const auto& entry : orderings)
    if (entry.order == order) return entry.name;
  throw invalid_argument_error(
      detail::concat("bitgraph::gen::ordering_name: unknown vertex ordering ", static_cast<int>(order)));
}

std::string_view source_name(graph_source source) {
  for (const auto& entry : sources)
    if (entry.source == source) return entry.name;
  throw invalid_argument_error(
      detail::concat("bitgraph::gen::source_name: unknown graph source ", static_cast<int>(source)));
}

csr_build_options graph_spec::build_options(edge_storage storage) const {
  csr_build_options options;
  if (kind) {
    options.kind = *kind;
  } else if (source == graph_source::file) {
    options.kind = storage == edge_storage::general ? graph_kind::directed : graph_kind::undirected;
  } else {
    options.kind = graph_kind::undirected;
  }
  options.remove_self_loops = !keep_self_loops;
  options.remove_duplicates = true;
  options.keep_weights = source == graph_source::file || weighted;
  return options;
}

graph_spec parse_graph_spec(std::string_view text) {
  BITGRAPH_CHECK_ARG(!text.empty(), parse_func, "empty graph spec; expected NAME:PARAM[:option...], e.g. kron:20");
  const auto parts = split(text, ':');
  graph_spec spec;
  const auto found =
      std::find_if(sources.begin(), sources.end(), [&](const source_entry& e) { return e.name == parts[0]; });
  BITGRAPH_CHECK_ARG(found != sources.end(), parse_func, "'", text, "': unknown generator '", parts[0],
                     "' (expected kron, urand, grid2d, grid3d, rgg, mycielski or file)");
  spec.source = found->source;
  option_state seen;

  if (spec.source == graph_source::file) {
    // Options are taken from the right so that the path itself may contain ':'.
    std::size_t path_end = parts.size();
    while (path_end > 2 && is_option_name(parts[path_end - 1])) --path_end;
    for (std::size_t i = path_end; i < parts.size(); ++i) apply_option(parts[i], text, spec, seen);
    BITGRAPH_CHECK_ARG(path_end >= 2, parse_func, "'", text, "': missing path after 'file:'");
    std::string path(parts[1]);
    for (std::size_t i = 2; i < path_end; ++i) {
      path += ':';
      path += parts[i];
    }
    BITGRAPH_CHECK_ARG(!path.empty(), parse_func, "'", text, "': missing path after 'file:'");
    spec.format = format_of(path);
    spec.path = std::move(path);
    return spec;
  }

  BITGRAPH_CHECK_ARG(parts.size() >= 2 && !parts[1].empty(), parse_func, "'", text, "': missing parameter after '",
                     parts[0], "' (", parts[0], ":N)");
  BITGRAPH_CHECK_ARG(parse_unsigned(parts[1], spec.parameter), parse_func, "'", text, "': parameter '", parts[1],
                     "' of ", parts[0], " is not a non-negative integer");
  check_parameter(spec, text, parse_func);
  for (std::size_t i = 2; i < parts.size(); ++i) {
    BITGRAPH_CHECK_ARG(!parts[i].empty(), parse_func, "'", text, "': empty option");
    BITGRAPH_CHECK_ARG(apply_option(parts[i], text, spec, seen) == option_result::applied, parse_func, "'", text,
                       "': unknown option '", parts[i],
                       "' (expected seed=N, degree=N, weighted, directed, undirected, loops or order=NAME)");
  }
  return spec;
}

std::string to_string(const graph_spec& spec) {
  std::string text(source_name(spec.source));
  text += ':';
  if (spec.source == graph_source::file)
    text += spec.path;
  else
    text += std::to_string(spec.parameter);
  if (is_gap_source(spec.source) && spec.degree != gap_degree) text += fmt::format(":degree={}", spec.degree);
  if (spec.seed != gap_seed) text += fmt::format(":seed={}", spec.seed);
  if (spec.weighted) text += ":weighted";
  if (spec.kind) text += *spec.kind == graph_kind::directed ? ":directed" : ":undirected";
  if (spec.keep_self_loops) text += ":loops";
  if (spec.order != vertex_ordering::none) text += fmt::format(":order={}", ordering_name(spec.order));
  return text;
}

edge_list generate(const graph_spec& spec, unsigned threads) {
  constexpr const char* func = "gen::generate";
  threads = generator_threads(threads);
  edge_list edges;
  const std::uint64_t p = spec.parameter;
  // The plain generators check their ranges too; checking here first names the spec in the message.
  if (spec.source != graph_source::file) check_parameter(spec, to_string(spec), func);
  switch (spec.source) {
    case graph_source::kronecker:
      edges = kronecker(static_cast<unsigned>(p), spec.degree, spec.seed, threads);
      break;
    case graph_source::uniform_random:
      edges = uniform_random(static_cast<unsigned>(p), spec.degree, spec.seed, threads);
      break;
    case graph_source::grid_2d:
      edges = grid_2d(p, threads);
      break;
    case graph_source::grid_3d:
      edges = grid_3d(p, threads);
      break;
    case graph_source::random_geometric:
      edges = random_geometric(static_cast<unsigned>(p), spec.seed, threads);
      break;
    case graph_source::mycielski:
      edges = mycielski(static_cast<unsigned>(p));
      break;
    case graph_source::file:
      throw invalid_argument_error(
          detail::concat("bitgraph::", func, ": '", to_string(spec), "' names a file; load it with bitgraph::io"));
  }
  if (spec.weighted) insert_gap_weights(edges, spec.seed, threads);
  edges.name = to_string(spec);
  return edges;
}

}  // namespace bitgraph::gen
