// The reference the scan lesson's single pass is held against: CUB's inclusive sum of u32s and
// a device-to-device copy of the same bytes, timed the same way on the same buffers.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/cub_scan.cu -o cub_scan && ./cub_scan > data/h200-scan-cub.txt
//
// For each size (2^24 … 2^27 values): every buffer is allocated and written once, and touched by
// an untimed copy and an untimed scan before anything is timed; then rounds of (copy, scan),
// interleaved, so neither is timed on colder memory or a cooler clock than the other. Each round
// times `REPEATS` back-to-back calls with CUDA events and keeps the time per call; the figure is
// the median round. Every scan's output is checked against the host's running sum (u32, wrapping)
// after the timed rounds. GB/s counts 8 bytes per value (read once, written once), as the
// lesson's own report does.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e = (call);                                                                           \
    if (e != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

constexpr int ROUNDS = 7;
constexpr int REPEATS = 20;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  CHECK(cudaDriverGetVersion(&driver));
  std::printf("{\n  \"syncscope\": \"scan/cub\",\n");
  // The name on a line of its own, where the project's report reader looks for it.
  std::printf("  \"device\": {\n    \"name\": \"%s\",\n    \"cuda_driver\": %d,\n    \"sm\": \"%d.%d\"\n  },\n", prop.name, driver,
              prop.major, prop.minor);
  std::printf("  \"method\": \"bench/cub_scan.cu: cub::DeviceScan::InclusiveSum on u32 and cudaMemcpy device to device of the same "
              "bytes, buffers written and both ways run once untimed first, then %d interleaved rounds of (copy, scan), each round %d "
              "back-to-back calls timed by CUDA events; gpu_ms_median: the median round's time per call; gb_per_s: 8 bytes per value "
              "over it; runs: rounds; runs_exact: rounds whose last scan's output equals the host's running sum (the output cleared before each round); "
              "workgroup_size 0: CUB picks its own blocks\",\n",
              ROUNDS, REPEATS);
  std::printf("  \"columns\": [\"way\", \"invocations\", \"workgroup_size\", \"runs\", \"runs_exact\", \"wrong_min\", \"wrong_max\", "
              "\"gpu_ms_median\", \"cpu_ms_median\", \"gb_per_s\", \"fallbacks\", \"give_ups\", \"lookback_windows\"],\n");
  std::printf("  \"rows\": [\n");
  bool first_row = true;
  for (int log2 = 24; log2 <= 27; ++log2) {
    const size_t n = size_t(1) << log2;
    const size_t bytes = n * sizeof(uint32_t);
    std::vector<uint32_t> input(n), expected(n), output(n);
    uint64_t state = 0x9E3779B97F4A7C15ull ^ n;
    uint32_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      input[i] = uint32_t(state >> 59);  // 0..31, as the lesson's inputs are small
      sum += input[i];
      expected[i] = sum;
    }
    uint32_t *d_in, *d_out, *d_copy;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMalloc(&d_copy, bytes));
    CHECK(cudaMemcpy(d_in, input.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, bytes));
    CHECK(cudaMemset(d_copy, 0, bytes));
    size_t temp_bytes = 0;
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d_in, d_out, int(n)));
    void* d_temp;
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    auto copy = [&] { CHECK(cudaMemcpyAsync(d_copy, d_in, bytes, cudaMemcpyDeviceToDevice)); };
    auto scan = [&] { CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, int(n))); };
    auto timed = [&](auto&& call) {
      CHECK(cudaEventRecord(start));
      for (int r = 0; r < REPEATS; ++r) call();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      return double(ms) / REPEATS;
    };
    // Warm: every buffer touched, both ways run, before anything is timed.
    copy();
    scan();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> copy_ms, scan_ms;
    int exact_rounds = 0;
    size_t wrong_min = n, wrong_max = 0;
    for (int round = 0; round < ROUNDS; ++round) {
      // Cleared before each round, so that a round's check reads that round's scans.
      CHECK(cudaMemset(d_out, 0, bytes));
      CHECK(cudaDeviceSynchronize());
      copy_ms.push_back(timed(copy));
      scan_ms.push_back(timed(scan));
      CHECK(cudaMemcpy(output.data(), d_out, bytes, cudaMemcpyDeviceToHost));
      size_t wrong = 0;
      for (size_t i = 0; i < n; ++i) wrong += output[i] != expected[i];
      exact_rounds += wrong == 0;
      wrong_min = std::min(wrong_min, wrong);
      wrong_max = std::max(wrong_max, wrong);
    }
    const double c = median(copy_ms), s = median(scan_ms);
    auto row = [&](const char* way, double ms, int exact, size_t lo, size_t hi) {
      std::printf("%s    [\"%s\", %zu, 0, %d, %d, %zu, %zu, %.6f, null, %.1f, 0, 0, \"\"]", first_row ? "" : ",\n", way, n,
                  ROUNDS, exact, lo, hi, ms, 8.0 * double(n) / (ms * 1e6));
      first_row = false;
    };
    row("copy-cuda", c, ROUNDS, 0, 0);
    row("cub", s, exact_rounds, wrong_min, wrong_max);
    CHECK(cudaFree(d_temp));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_copy));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
