// Stand-ins for the cuSPARSE/cuBLAS baseline and the bandwidth probe in a build without CUDA,
// so that callers link either way and learn at run time why there is nothing to measure.
#include <stdexcept>

#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/bench/baseline.hpp"

namespace pmom::bench {

namespace {

[[noreturn]] void no_baseline() {
  throw std::runtime_error("this build has no CUDA (PLANARMOM_WITH_CUDA=OFF): the "
                           "cuSPARSE/cuBLAS baseline is unavailable");
}

}  // namespace

template <class T>
BaselineResult baseline_bicg(const Csr<T>&, std::span<const T>, std::vector<T>&,
                             const SolverOptions&) {
  no_baseline();
}

template <class T>
BaselineResult baseline_bicgstab(const Csr<T>&, std::span<const T>, std::vector<T>&,
                                 const SolverOptions&) {
  no_baseline();
}

bool baseline_available() { return false; }

DeviceBandwidth measure_device_bandwidth(std::size_t) {
  throw std::runtime_error("this build has no CUDA (PLANARMOM_WITH_CUDA=OFF): the device "
                           "bandwidth cannot be measured");
}

PMOM_BASELINE_INSTANCES(template, double)
PMOM_BASELINE_INSTANCES(template, std::complex<double>)

}  // namespace pmom::bench
