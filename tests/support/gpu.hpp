// GPU tests skip, saying why, where no CUDA device is visible (a build without CUDA, no driver,
// a driver mismatch). PLANARMOM_REQUIRE_GPU=1 (tools/gpu-check.sh sets it) makes that a failure,
// so that on the GPU machine a test cannot pass by not running.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

#include "planarmom/gpusolver/backends.hpp"

namespace pmom::test {

inline bool gpu_required() {
  const char* v = std::getenv("PLANARMOM_REQUIRE_GPU");
  return v != nullptr && std::string_view(v) != "" && std::string_view(v) != "0";
}

}  // namespace pmom::test

// Skips (or, with PLANARMOM_REQUIRE_GPU=1, fails) the current test when `available` is false.
#define PMOM_GPU_OR_SKIP(available, why)                                                 \
  do {                                                                                   \
    if (!(available)) {                                                                  \
      if (::pmom::test::gpu_required())                                                  \
        FAIL() << "PLANARMOM_REQUIRE_GPU is set, but the GPU test cannot run: " << (why); \
      GTEST_SKIP() << "no CUDA device, GPU test skipped: " << (why);                     \
    }                                                                                    \
  } while (0)

// The common case: a CUDA device must be visible.
#define PMOM_REQUIRE_GPU()                                               \
  do {                                                                   \
    const ::pmom::CudaDeviceStatus pmom_gpu_status = ::pmom::cuda_device_status(); \
    PMOM_GPU_OR_SKIP(pmom_gpu_status.available, pmom_gpu_status.description);      \
  } while (0)
