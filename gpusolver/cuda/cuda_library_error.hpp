// Checking of cuBLAS and cuSOLVER calls: a failing status becomes a std::runtime_error naming
// the call and the library's own description.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <stdexcept>
#include <string>

namespace pmom::cuda {

inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLAS error in ") + call + ": " +
                             cublasGetStatusString(status));
}

// cuSOLVER has no status strings: its enumerator's number, which its documentation lists.
inline void check_cusolver(cusolverStatus_t status, const char* call) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSOLVER error in ") + call + ": status " +
                             std::to_string(static_cast<int>(status)));
}

}  // namespace pmom::cuda
