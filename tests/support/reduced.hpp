// Reduced-input mode of the test suite (BITGRAPH_TEST_REDUCED=1, set by scripts/gpu_sanitize.sh): the largest property
// tests run a thinned subset of their combinations so that every CUDA case finishes under compute-sanitizer.
#pragma once

#include <cstdlib>
#include <string_view>

namespace bitgraph::test {

/// True when BITGRAPH_TEST_REDUCED is set to anything but "" or "0".
inline bool reduced() {
  static const bool on = [] {
    const char* v = std::getenv("BITGRAPH_TEST_REDUCED");
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
  }();
  return on;
}

/// Keeps every combination of a nested loop, or in reduced mode every `stride`-th one. A prime stride that divides no
/// loop's length still reaches every value of every loop (each tile size, direction, path, mask kind) somewhere.
class thinning {
 public:
  explicit thinning(unsigned stride) : stride_(reduced() ? stride : 1) {}
  bool keep() { return count_++ % stride_ == 0; }

 private:
  unsigned stride_;
  unsigned long long count_ = 0;
};

}  // namespace bitgraph::test
