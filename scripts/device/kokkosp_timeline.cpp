// A KokkosP tool that shows where a CUDA call's time goes: inside one profiling region it records a CUDA event
// on the legacy default stream before and after every Kokkos kernel and deep copy, and the host clock around
// each; when the region closes it prints the GPU span, the time kernels held the GPU and the idle gaps.
//
//   g++ -O2 -shared -fPIC -std=c++17 -I/usr/local/cuda/include scripts/device/kokkosp_timeline.cpp -o
//        /tmp/libtimeline.so -L/usr/local/cuda/lib64 -lcudart
//   KOKKOS_PROFILE_LIBRARY=/tmp/libtimeline.so TIMELINE_REGION=bitgraph::multi_source_bfs TIMELINE_DETAIL=3
//       bitgraph bench --suite h100 --graphs kron:22 --kernels msbfs_
//
// TIMELINE_REGION: the region to record (default bitgraph::multi_source_bfs); TIMELINE_DETAIL: which occurrence
// of it (0-based, comma-separated) gets one line per kernel. Kokkos 3.4 fences around every callback unless the
// tool declines, which would make each launch wait for its kernel: this tool declines. Kernels that a backend
// launches itself (not through Kokkos) are not seen; their time shows as gaps.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct record {
  std::string name;
  double host_begin = 0, host_end = 0;
  int event_begin = -1, event_end = -1;
};

std::vector<cudaEvent_t> events;
int events_used = 0;
std::vector<record> records;
std::vector<std::uint64_t> open_copies;
std::string region = "bitgraph::multi_source_bfs";
std::set<int> detailed = {3};
int depth = 0, region_depth = -1, occurrence = 0, region_event = -1;
double region_host = 0;

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int record_event() {
  if (events_used >= static_cast<int>(events.size())) return -1;
  cudaEventRecord(events[events_used], nullptr);
  return events_used++;
}

double elapsed_us(int a, int b) {
  float ms = 0;
  if (a < 0 || b < 0 || cudaEventElapsedTime(&ms, events[a], events[b]) != cudaSuccess) return 0;
  return 1000.0 * ms;
}

std::uint64_t begin(const char* kind, const std::string& name) {
  if (region_depth < 0) return ~std::uint64_t(0);
  record r;
  r.name = std::string(kind) + " " + name;
  r.host_begin = now_us();
  r.event_begin = record_event();
  records.push_back(r);
  return records.size() - 1;
}

void end(std::uint64_t id) {
  if (id >= records.size()) return;
  records[id].event_end = record_event();
  records[id].host_end = now_us();
}

void report(int end_event, double end_host) {
  double busy = 0, idle = 0;
  int previous = region_event;
  for (const auto& r : records) {
    busy += elapsed_us(r.event_begin, r.event_end);
    idle += elapsed_us(previous, r.event_begin);
    previous = r.event_end;
  }
  idle += elapsed_us(previous, end_event);
  std::printf("timeline %d %s: host %.1f us, gpu span %.1f us, %zu kernels/copies busy %.1f us, idle %.1f us\n",
              occurrence, region.c_str(), end_host - region_host, elapsed_us(region_event, end_event), records.size(),
              busy, idle);
  if (detailed.count(occurrence)) {
    previous = region_event;
    for (const auto& r : records) {
      std::printf("  idle %8.1f  gpu %8.1f  host %8.1f  %s\n", elapsed_us(previous, r.event_begin),
                  elapsed_us(r.event_begin, r.event_end), r.host_end - r.host_begin, r.name.c_str());
      previous = r.event_end;
    }
    std::printf("  idle %8.1f  (to the region's end)\n", elapsed_us(previous, end_event));
  }
  std::fflush(stdout);
}

}  // namespace

extern "C" {

struct Kokkos_Tools_ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

struct SpaceHandle {
  char name[64];
};

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  if (const char* r = std::getenv("TIMELINE_REGION")) region = r;
  if (const char* d = std::getenv("TIMELINE_DETAIL")) {
    detailed.clear();
    std::stringstream list(d);
    for (std::string item; std::getline(list, item, ',');)
      if (!item.empty()) detailed.insert(std::atoi(item.c_str()));
  }
}

void kokkosp_request_tool_settings(std::uint32_t, Kokkos_Tools_ToolSettings* settings) {
  settings->requires_global_fencing = false;
}

void kokkosp_finalize_library() {
  for (auto& e : events) cudaEventDestroy(e);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) { *id = begin("for", name); }
void kokkosp_end_parallel_for(std::uint64_t id) { end(id); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) { *id = begin("reduce", name); }
void kokkosp_end_parallel_reduce(std::uint64_t id) { end(id); }
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) { *id = begin("scan", name); }
void kokkosp_end_parallel_scan(std::uint64_t id) { end(id); }

void kokkosp_begin_deep_copy(SpaceHandle dst_space, const char* dst, const void*, SpaceHandle src_space,
                             const char* src, const void*, std::uint64_t bytes) {
  open_copies.push_back(begin("copy", std::string(dst) + " <- " + src + " (" + src_space.name + " -> " +
                                          dst_space.name + ", " + std::to_string(bytes) + " B)"));
}
void kokkosp_end_deep_copy() {
  if (open_copies.empty()) return;
  end(open_copies.back());
  open_copies.pop_back();
}

void kokkosp_push_profile_region(const char* name) {
  ++depth;
  if (region_depth >= 0 || region != name) return;
  if (events.empty()) {
    events.resize(20000);
    for (auto& e : events) cudaEventCreate(&e);
  }
  events_used = 0;
  records.clear();
  region_depth = depth;
  region_host = now_us();
  region_event = record_event();
}

void kokkosp_pop_profile_region() {
  if (region_depth == depth) {
    const int end_event = record_event();
    const double end_host = now_us();
    if (end_event >= 0) cudaEventSynchronize(events[end_event]);
    region_depth = -1;
    report(end_event, end_host);
    ++occurrence;
  }
  --depth;
}

}  // extern "C"
