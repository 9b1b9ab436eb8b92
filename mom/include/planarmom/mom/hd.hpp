// PLANARMOM_HD marks the inline functions the host code and the CUDA fill share (callable from
// both sides when compiled by nvcc, plain inline functions otherwise).
#pragma once

#if defined(__CUDACC__)
#define PLANARMOM_HD __host__ __device__
#else
#define PLANARMOM_HD
#endif

// PLANARMOM_SIMD asks the host compiler to vectorise the loop after it (OpenMP's simd, where the
// unit is compiled with OpenMP); nothing on the device or without OpenMP.
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define PLANARMOM_SIMD _Pragma("omp simd")
#else
#define PLANARMOM_SIMD
#endif
