#include "bitgraph/core/version_info.hpp"

#include "bitgraph/core/version.hpp"

namespace bitgraph {

std::string_view library_version() noexcept { return BITGRAPH_VERSION_STRING; }

}  // namespace bitgraph
