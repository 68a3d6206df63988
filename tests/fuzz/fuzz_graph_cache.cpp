// libFuzzer target: the graph cache loader must reject (parse_error) anything but a valid cache, and what
// it accepts must satisfy the CSR invariants. Each input is tried as is and with its trailing checksum
// recomputed, so that mutations reach the structural checks behind the checksum.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/graph_cache.hpp"
#include "io_detail.hpp"

namespace {

void run(const std::string& bytes) {
  try {
    std::string key;
    const bitgraph::host_csr g = bitgraph::io::parse_graph_cache(bytes, "fuzz", &key);
    if (!bitgraph::io::detail::host_csr_problem(g).empty()) std::abort();
    if (g.row_ptr.size() != std::size_t(g.n) + 1) std::abort();
  } catch (const bitgraph::parse_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  run(bytes);
  if (size >= 8) {
    bitgraph::io::detail::xxh64 h;
    h.update(bytes.data(), size - 8);
    const std::uint64_t sum = h.digest();
    std::memcpy(bytes.data() + size - 8, &sum, 8);
    run(bytes);
  }
  return 0;
}
