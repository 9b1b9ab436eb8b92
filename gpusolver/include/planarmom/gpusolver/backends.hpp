// Factories for the concrete backends, so callers never see their classes.
#pragma once

#include <memory>
#include <string>

#include "planarmom/gpusolver/backend.hpp"

namespace pmom {

// The reference backend: host memory, OpenMP threads. It is the test oracle of every other
// backend and a usable solver in its own right.
template <class T> std::unique_ptr<Backend<T>> make_cpu_backend();

// Whether the CUDA backend can run here: built with CUDA and a device visible. `description`
// names the device ("NVIDIA H100 80GB HBM3, 132 SMs, 79.1 GiB") or says why there is none.
struct CudaDeviceStatus {
  bool available = false;
  std::string description;
};
CudaDeviceStatus cuda_device_status();

// Makes device `local_rank` modulo the visible count current for this thread's later CUDA work
// (the MPI ranks of one host take one device each) and returns its ordinal; -1, changing
// nothing, where there is no device (or no CUDA in this build).
int select_cuda_device(int local_rank);

// The CUDA backend on the current device. Throws std::runtime_error saying why when the build
// has no CUDA or no device is visible.
template <class T> std::unique_ptr<Backend<T>> make_cuda_backend();

// A backend by name: "cpu", or "cuda", which falls back to the CPU backend with a logged
// warning saying why when no CUDA device can be used. Throws std::invalid_argument otherwise.
template <class T> std::unique_ptr<Backend<T>> make_backend(const std::string& name);

}  // namespace pmom
