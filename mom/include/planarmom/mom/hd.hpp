// PLANARMOM_HD marks the inline functions the host code and the CUDA fill share (callable from
// both sides when compiled by nvcc, plain inline functions otherwise).
#pragma once

#if defined(__CUDACC__)
#define PLANARMOM_HD __host__ __device__
#else
#define PLANARMOM_HD
#endif
