// The CUDA entry points of a build without CUDA (PLANARMOM_WITH_CUDA=OFF): they say so.
#include <stdexcept>

#include "planarmom/gpusolver/backends.hpp"

namespace pmom {

CudaDeviceStatus cuda_device_status() {
  return {false, "this build has no CUDA backend (configured with PLANARMOM_WITH_CUDA=OFF)"};
}

int select_cuda_device(int /*local_rank*/) { return -1; }

template <class T> std::unique_ptr<Backend<T>> make_cuda_backend() {
  throw std::runtime_error("CUDA backend unavailable: " + cuda_device_status().description);
}

#define PMOM_INSTANTIATE(T) template std::unique_ptr<Backend<T>> make_cuda_backend<T>();
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
