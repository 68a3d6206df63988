#include <catch2/catch_test_macros.hpp>

#include <string>

#include "bitgraph/core/version.hpp"
#include "bitgraph/core/version_info.hpp"

TEST_CASE("library version matches the headers", "[core]") {
  CHECK(std::string(bitgraph::library_version()) == BITGRAPH_VERSION_STRING);
}
