// Choosing a backend by name, with the fallback from CUDA to the CPU.
#include <boost/log/trivial.hpp>
#include <stdexcept>

#include "planarmom/gpusolver/backends.hpp"

namespace pmom {

template <class T> std::unique_ptr<Backend<T>> make_backend(const std::string& name) {
  if (name == "cpu") return make_cpu_backend<T>();
  if (name == "cuda") {
    const CudaDeviceStatus s = cuda_device_status();
    if (s.available) return make_cuda_backend<T>();
    BOOST_LOG_TRIVIAL(warning) << "CUDA backend asked for but unavailable (" << s.description
                               << "): solving on the CPU backend";
    return make_cpu_backend<T>();
  }
  throw std::invalid_argument("unknown backend '" + name + "' (choose cpu or cuda)");
}

#define PMOM_INSTANTIATE(T) template std::unique_ptr<Backend<T>> make_backend<T>(const std::string&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
