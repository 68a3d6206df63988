// BitGraph's own driver for Blest (https://github.com/delbek/blest), used by scripts/blest/side_by_side.sh to
// time Blest's BFS on the same Matrix Market file and sources as `bitgraph run`. Only this file is ours: it is
// compiled against a separate checkout of Blest's public repository (never committed here) and calls its
// CSC / reordering / BVSS / BVSSBFSKernel classes the way Blest's Benchmark::run does, without the SuiteSparse
// downloader (no network on the GPU machine).
//
//   blest_driver --graph FILE.mtx --sources FILE --json OUT [--jaccard 0|1] [--window W] [--wait-sources S]
//
// The sources are read after Blest's host preparation (read, order, BVSS), so --wait-sources S lets a device script
// start the driver early and hand it the sources (written to another name and renamed) only once the GPU is free of
// other timed work: the driver waits up to S seconds for the file to appear, then fails saying so.
//
// Per source it reports Blest's own timer (omp_get_wtime from the cooperative launch to cudaDeviceSynchronize:
// the kernel only; the BVSS upload and buffer set-up of each call are outside it), the reached count, depth and
// the sum of levels (to compare with bitgraph's `reached`, `depth` and `level_sum`).
#include "BVSSBFSKernel.cuh"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct banner {
  bool symmetric = false;
  bool pattern = false;
};

banner read_banner(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);
  if (line.rfind("%%MatrixMarket", 0) != 0) throw std::runtime_error(path + " is not a Matrix Market file");
  for (auto& c : line) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  banner b;
  b.symmetric = line.find("symmetric") != std::string::npos;
  b.pattern = line.find("pattern") != std::string::npos;
  if (line.find("coordinate") == std::string::npos) throw std::runtime_error(path + " is not a coordinate file");
  return b;
}

}  // namespace

int main(int argc, char** argv) try {
  std::string graph, sources_path, json_path;
  bool jaccard = true;
  unsigned window = 65536;
  double wait_sources = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("missing value for " + a);
      return argv[++i];
    };
    if (a == "--graph")
      graph = value();
    else if (a == "--sources")
      sources_path = value();
    else if (a == "--json")
      json_path = value();
    else if (a == "--jaccard")
      jaccard = value() != "0";
    else if (a == "--window")
      window = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--wait-sources")
      wait_sources = std::stod(value());
    else
      throw std::runtime_error("unknown option " + a);
  }
  if (graph.empty() || sources_path.empty() || json_path.empty())
    throw std::runtime_error(
        "usage: blest_driver --graph FILE.mtx --sources FILE --json OUT [--jaccard 0|1] [--window W] "
        "[--wait-sources S]");
  JACKARD_ON = jaccard;
  WINDOW_SIZE = window;
  constexpr unsigned slice_size = 8, no_masks = 32 / slice_size;

  const banner b = read_banner(graph);
  auto t0 = std::chrono::steady_clock::now();
  CSC* csc = new CSC(graph, b.symmetric, b.pattern);  // symmetric files hold one triangle: Blest mirrors it
  const double read_s = seconds_since(t0);
  FULL_PADDING = !csc->isSocialNetwork();  // as Benchmark::run decides
  t0 = std::chrono::steady_clock::now();
  unsigned* inverse = csc->reorder(slice_size);  // new id of each old vertex; also relabels the CSC
  const double reorder_s = seconds_since(t0);
  std::ofstream analysis("/dev/null");
  BVSS* bvss = new BVSS(slice_size, no_masks, analysis);
  t0 = std::chrono::steady_clock::now();
  bvss->constructFromCSCMatrix(csc);
  const double bvss_s = seconds_since(t0);
  const unsigned n = csc->getN();
  const double divergence = bvss->getUpdateDivergence();

  std::vector<unsigned> sources;
  {
    const auto waiting = std::chrono::steady_clock::now();
    while (!std::filesystem::exists(sources_path) && seconds_since(waiting) < wait_sources)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream in(sources_path);
    if (!in)
      throw std::runtime_error("cannot open the sources file " + sources_path +
                               (wait_sources > 0 ? " (waited " + std::to_string(wait_sources) + " s for it)" : ""));
    unsigned s;
    while (in >> s) {
      if (s >= n) throw std::runtime_error("source " + std::to_string(s) + " out of range");
      sources.push_back(s);
    }
  }
  BVSSBFSKernel* kernel = new BVSSBFSKernel(dynamic_cast<BitMatrix*>(bvss));
  std::ostringstream rows;
  double total = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    BFSResult r = kernel->run(inverse[sources[k]]);
    unsigned long long reached = 0, level_sum = 0;
    unsigned depth = 0;
    for (unsigned v = 0; v < n; ++v)
      if (r.levels[v] != UNSIGNED_MAX) {
        ++reached;
        level_sum += r.levels[v];
        depth = std::max(depth, r.levels[v]);
      }
    delete[] r.levels;
    total += r.time;
    rows << (k ? "," : "") << "{\"source\":" << sources[k] << ",\"ms\":" << r.time * 1e3 << ",\"reached\":" << reached
         << ",\"depth\":" << depth << ",\"level_sum\":" << level_sum << "}";
  }
  std::ofstream out(json_path);
  out << "{\"tool\":\"blest\",\"graph\":\"" << graph << "\",\"n\":" << n << ",\"stored_entries\":" << csc->getNNZ()
      << ",\"social\":" << (csc->isSocialNetwork() ? "true" : "false")
      << ",\"jaccard\":" << (jaccard ? "true" : "false") << ",\"window\":" << window << ",\"read_seconds\":" << read_s
      << ",\"reorder_seconds\":" << reorder_s << ",\"bvss_seconds\":" << bvss_s
      << ",\"update_divergence\":" << divergence
      << ",\"lazy\":" << (divergence > LAZY_KERNEL_THRESHOLD ? "true" : "false")
      << ",\"full_padding\":" << (FULL_PADDING ? "true" : "false")
      << ",\"mean_ms\":" << (sources.empty() ? 0.0 : total * 1e3 / sources.size()) << ",\"runs\":[" << rows.str()
      << "]}\n";
  std::printf("blest: %s n=%u nnz=%u reorder %.2f s bvss %.2f s mean %.4f ms over %zu sources\n", graph.c_str(), n,
              csc->getNNZ(), reorder_s, bvss_s, sources.empty() ? 0.0 : total * 1e3 / sources.size(), sources.size());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "blest_driver: %s\n", e.what());
  return 1;
}
