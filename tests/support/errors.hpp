// Reading the message of an expected exception, for tests that check what it says.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <string>
#include <utility>

namespace bitgraph::test {

/// The message of the `E` that `f` throws, or "no error" when it throws nothing (an exception of another type
/// propagates and fails the test case).
template <class E, class F>
std::string thrown_text(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

/// Whether an error message `text` mentions `what`; when not, the message goes with the next assertion's report.
inline bool mentions(const std::string& text, const char* what) {
  const bool found = text.find(what) != std::string::npos;
  if (!found) UNSCOPED_INFO("the message: " << text);
  return found;
}

}  // namespace bitgraph::test
