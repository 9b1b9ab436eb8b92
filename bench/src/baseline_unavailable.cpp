// Stand-ins for the cuSPARSE/cuBLAS baseline and the bandwidth probe in a build without CUDA,
// so that callers link either way and learn at run time why there is nothing to measure.
#include <stdexcept>

#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/bench/baseline.hpp"

namespace pmom::bench {

template <class T>
BaselineResult baseline_bicg(const Csr<T>&, std::span<const T>, std::vector<T>&,
                             const SolverOptions&) {
  throw std::runtime_error("this build has no CUDA (PLANARMOM_WITH_CUDA=OFF): the "
                           "cuSPARSE/cuBLAS baseline is unavailable");
}

bool baseline_available() { return false; }

DeviceBandwidth measure_device_bandwidth(std::size_t) {
  throw std::runtime_error("this build has no CUDA (PLANARMOM_WITH_CUDA=OFF): the device "
                           "bandwidth cannot be measured");
}

template BaselineResult baseline_bicg<double>(const Csr<double>&, std::span<const double>,
                                              std::vector<double>&, const SolverOptions&);
template BaselineResult baseline_bicg<std::complex<double>>(
    const Csr<std::complex<double>>&, std::span<const std::complex<double>>,
    std::vector<std::complex<double>>&, const SolverOptions&);

}  // namespace pmom::bench
