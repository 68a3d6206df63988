// The fuzz targets' property check: a broken property aborts, which libFuzzer reports with the input that broke it.
#pragma once

#include <cstdlib>

namespace bitgraph::fuzz {

inline void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace bitgraph::fuzz
