// Factories for the concrete backends, so callers never see their classes.
#pragma once

#include <memory>

#include "planarmom/gpusolver/backend.hpp"

namespace pmom {

// The reference backend: host memory, OpenMP threads. It is the test oracle of every other
// backend and a usable solver in its own right.
template <class T> std::unique_ptr<Backend<T>> make_cpu_backend();

}  // namespace pmom
