// Reading the message of an expected exception, for tests that check what it says.
#pragma once

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

}  // namespace bitgraph::test
