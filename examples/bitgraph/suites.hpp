// The bench suites' graphs, and the part of a suite a command line asks for. Light on purpose: the CLI's
// argument check reads it before any execution space starts.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph_cli_config.hpp"
#include "cli.hpp"

namespace bitgraph::cli {

/// The graphs of a suite.
inline std::vector<std::string> suite_graphs(const std::string& suite) {
  const std::string data = std::string(BITGRAPH_SOURCE_DIR) + "/tests/data/";
  // Each suite but smoke ends with ordered variants of some of its graphs (`order=`: degree, and on kron:22 hub
  // clusters, for power-law and random graphs, RCM for meshes), so that an ordering's effect is measured on the
  // same graph.
  if (suite == "smoke")
    return {"kron:10", "grid2d:64", "mycielski:8", "file:" + data + "karate.mtx", "kron:10:order=degree"};
  if (suite == "paper")
    return {"mycielski:9",
            "mycielski:11",
            "mycielski:13",
            "mycielski:15",
            "grid2d:1024",
            "grid2d:2048",
            "grid3d:64",
            "grid3d:128",
            "kron:18",
            "kron:19",
            "kron:20",
            "urand:18",
            "urand:19",
            "urand:20",
            "file:" + data + "bcsstk13.mtx",
            "file:" + data + "pushpull.mtx",
            "file:" + data + "jagmesh7.mtx",
            "file:" + data + "zenios.mtx",
            "kron:20:order=degree",
            "urand:20:order=degree",
            "grid3d:128:order=rcm"};
  if (suite == "h100")
    return {"kron:22",
            "kron:24",
            "urand:22",
            "urand:24",
            "grid2d:4096",
            "grid2d:8192",
            "rgg:22",
            "rgg:23",
            "mycielski:15",
            "mycielski:16",
            "kron:22:order=degree",
            "kron:22:order=cluster",
            "urand:22:order=degree",
            "rgg:22:order=rcm",
            "mycielski:16:order=degree"};
  throw invalid_argument_error("bitgraph bench: --suite must be smoke, paper or h100, not '" + suite + "'");
}

/// The suite's graphs, or those of them named by `--graphs` (so that a suite longer than one session's time can be
/// run in parts). A name that is not in the suite throws `invalid_argument_error` listing the suite.
inline std::vector<std::string> chosen_graphs(const options& opts) {
  const auto all = suite_graphs(opts.suite);
  if (opts.graphs.empty()) return all;
  for (const auto& g : opts.graphs)
    if (std::find(all.begin(), all.end(), g) == all.end()) {
      std::string list;
      for (const auto& s : all) list += (list.empty() ? "" : ", ") + s;
      throw invalid_argument_error("bitgraph bench: --graphs names '" + g + "', which is not in the " + opts.suite +
                                   " suite (" + list + ")");
    }
  std::vector<std::string> kept;
  for (const auto& s : all)
    if (std::find(opts.graphs.begin(), opts.graphs.end(), s) != opts.graphs.end()) kept.push_back(s);
  return kept;
}

}  // namespace bitgraph::cli
