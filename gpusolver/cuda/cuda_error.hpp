// Checking of CUDA runtime calls: a failing call becomes a std::runtime_error naming the call,
// its source location and CUDA's own description.
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace pmom::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);

inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) throw_cuda_error(status, call, file, line);
}

// Checks the launch that preceded it (configuration errors surface here, not at the sync).
#define PMOM_CUDA(call) ::pmom::cuda::check((call), #call, __FILE__, __LINE__)
#define PMOM_CUDA_LAUNCHED(kernel) \
  ::pmom::cuda::check(cudaGetLastError(), "launch of " kernel, __FILE__, __LINE__)

}  // namespace pmom::cuda
