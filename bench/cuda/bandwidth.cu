// Device memory bandwidth (bandwidth.hpp): a large device-to-device copy and a read-only stream
// of 16-byte loads, each the median of timed runs, plus the device facts the floors need.
#include <cuda_runtime.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "cuda_support.hpp"
#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/bench/timing.hpp"

namespace pmom::bench {
namespace {

constexpr int block_size = 256;
// Independent loads in flight per thread: one 16-byte load each is too little to cover HBM
// latency at the occupancy a streaming kernel gets.
constexpr int unroll = 4;
constexpr int timed_runs = 10;

// Distinct non-zero values, so that no run is measured on freshly zeroed memory.
__global__ void fill(double2* data, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    data[i] = make_double2(1.0 + 1e-9 * static_cast<double>(i), -1.0);
}

// Reads every element once through the read-only path; a warp reads 512 contiguous bytes per
// load. The sum goes to `sink` only so that the loads cannot be dropped.
__global__ void __launch_bounds__(block_size)
    read_stream(const double2* __restrict__ data, std::size_t count, double* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  double2 acc[unroll] = {};
  for (; i + (unroll - 1) * stride < count; i += unroll * stride) {
    double2 v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) v[u] = __ldg(data + i + u * stride);
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      acc[u].x += v[u].x;
      acc[u].y += v[u].y;
    }
  }
  for (; i < count; i += stride) {
    const double2 v = __ldg(data + i);
    acc[0].x += v.x;
    acc[0].y += v.y;
  }
  double sum = 0;
#pragma unroll
  for (int u = 0; u < unroll; ++u) sum += acc[u].x + acc[u].y;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sink, sum);
}

void check_launch(const char* kernel) { gpu::check(cudaGetLastError(), kernel); }

// Median seconds of `timed_runs` runs of `work` on the default stream, after one warm-up run.
template <class Work> double median_seconds(Work&& work) {
  const gpu::Event start = gpu::make_event(), stop = gpu::make_event();
  work();
  PMOM_CHECKED(cudaDeviceSynchronize);
  std::vector<double> seconds;
  for (int run = 0; run < timed_runs; ++run) {
    PMOM_CHECKED(cudaEventRecord, start.get());
    work();
    PMOM_CHECKED(cudaEventRecord, stop.get());
    PMOM_CHECKED(cudaEventSynchronize, stop.get());
    float ms = 0;
    PMOM_CHECKED(cudaEventElapsedTime, &ms, start.get(), stop.get());
    seconds.push_back(1e-3 * ms);
  }
  return summarize(std::move(seconds)).median;
}

}  // namespace

DeviceBandwidth measure_device_bandwidth(std::size_t bytes) {
  const std::size_t count = bytes / sizeof(double2);
  if (count == 0)
    throw std::invalid_argument("measure_device_bandwidth: " + std::to_string(bytes) +
                                " bytes is less than one 16-byte element");
  bytes = count * sizeof(double2);

  DeviceBandwidth result;
  int device = 0, l2 = 0;
  PMOM_CHECKED(cudaGetDevice, &device);
  PMOM_CHECKED(cudaDeviceGetAttribute, &result.sm_count, cudaDevAttrMultiProcessorCount, device);
  PMOM_CHECKED(cudaDeviceGetAttribute, &l2, cudaDevAttrL2CacheSize, device);
  result.l2_bytes = static_cast<std::size_t>(l2);
  cudaDeviceProp props{};
  PMOM_CHECKED(cudaGetDeviceProperties, &props, device);
  result.device_name = props.name;

  // As many blocks as can be resident at once: every SM streams, none waits for a second wave.
  int blocks_per_sm = 0;
  PMOM_CHECKED(cudaOccupancyMaxActiveBlocksPerMultiprocessor, &blocks_per_sm, read_stream,
               block_size, 0);
  const int grid = blocks_per_sm * result.sm_count;

  const gpu::DeviceArray<double2> source(count), target(count);
  const gpu::DeviceArray<double> sink(1);
  fill<<<grid, block_size>>>(source.get(), count);
  check_launch("fill");

  const double copy_s = median_seconds([&] {
    PMOM_CHECKED(cudaMemcpyAsync, target.get(), source.get(), bytes, cudaMemcpyDeviceToDevice);
  });
  const double read_s = median_seconds([&] {
    read_stream<<<grid, block_size>>>(source.get(), count, sink.get());
    check_launch("read_stream");
  });
  result.copy_gbs = 2.0 * static_cast<double>(bytes) / copy_s * 1e-9;
  result.read_gbs = static_cast<double>(bytes) / read_s * 1e-9;
  return result;
}

}  // namespace pmom::bench
