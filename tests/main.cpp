// Catch2 entry point for BitGraph's tests: Kokkos lives exactly as long as the test session.
#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// BITGRAPH_TEST_COUNT_KERNELS=1 prints the Kokkos kernels (parallel_for / reduce / scan) each test case dispatches:
// the measure the reduced-input mode (tests/support/reduced.hpp) is sized by, since compute-sanitizer's cost grows
// with the launches.
std::atomic<std::uint64_t> kernels{0};
bool counting = false;

void count_kernel(const char*, std::uint32_t, std::uint64_t*) { kernels.fetch_add(1, std::memory_order_relaxed); }

class kernel_count_listener : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo&) override { kernels = 0; }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (counting)
      std::printf("kernels %10llu  %s\n", static_cast<unsigned long long>(kernels.load()),
                  stats.testInfo->name.c_str());
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(kernel_count_listener)

int main(int argc, char* argv[]) {
  // Unit tests want unpinned OpenMP threads; setting it also keeps Kokkos from printing its
  // OMP_PROC_BIND advice into the test listing that ctest parses.
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard kokkos(argc, argv);
  if (const char* v = std::getenv("BITGRAPH_TEST_COUNT_KERNELS"); v != nullptr && *v != '\0' && *v != '0') {
    counting = true;
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(count_kernel);
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(count_kernel);
    Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(count_kernel);
  }
  return Catch::Session().run(argc, argv);
}
