// Run-time access to the BitGraph version the library was built as.
#pragma once

#include <string_view>

namespace bitgraph {

/// The library's version, "MAJOR.MINOR.PATCH", as compiled into the library (not the headers).
std::string_view library_version() noexcept;

}  // namespace bitgraph
