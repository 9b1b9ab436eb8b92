// cuSPARSE's CSR SpMV on the blocks of a project backend, the library side of the GPU
// benchmarks' SpMV comparisons (planarmom-kernel-bench, planarmom-bicgstab-bench).
#pragma once

#include <cusparse.h>

#include <memory>

#include "cuda_support.hpp"
#include "planarmom/gpusolver/backend.hpp"

namespace pmom::bench::gpu {

// y = Ax through cusparseSpMV (generic API, CUSPARSE_SPMV_ALG_DEFAULT) on a stream of its own.
// A's arrays are uploaded into backend blocks from the same host matrix the backend's operators
// are made from; x and y are the backend's own blocks (n x 1), so both SpMVs read and write the
// very same vectors. The workspace is allocated once.
template <class T> class CusparseSpmv {
 public:
  CusparseSpmv(Backend<T>& backend, const Csr<T>& a, const Block<T>& x, Block<T>& y)
      : row_ptr_(backend.template allocate<index_t>(a.rows + 1, 1)),
        col_(backend.template allocate<index_t>(a.nnz(), 1)),
        val_(backend.template allocate<T>(a.nnz(), 1)) {
    backend.template upload<index_t>(a.row_ptr, row_ptr_);
    backend.template upload<index_t>(a.col_idx, col_);
    backend.template upload<T>(a.values, val_);

    cudaStream_t stream = nullptr;
    PMOM_CHECKED(cudaStreamCreateWithFlags, &stream, cudaStreamNonBlocking);
    stream_.reset(stream);
    cusparseHandle_t handle = nullptr;
    PMOM_CHECKED(cusparseCreate, &handle);
    handle_.reset(handle);
    PMOM_CHECKED(cusparseSetStream, handle, stream);

    constexpr cudaDataType type = Lib<T>::data_type;
    cusparseConstSpMatDescr_t matrix = nullptr;
    PMOM_CHECKED(cusparseCreateConstCsr, &matrix, a.rows, a.cols, a.nnz(), row_ptr_.data(),
                 col_.data(), val_.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                 CUSPARSE_INDEX_BASE_ZERO, type);
    matrix_.reset(matrix);
    cusparseConstDnVecDescr_t xd = nullptr;
    PMOM_CHECKED(cusparseCreateConstDnVec, &xd, x.rows(), x.data(), type);
    x_.reset(xd);
    cusparseDnVecDescr_t yd = nullptr;
    PMOM_CHECKED(cusparseCreateDnVec, &yd, y.rows(), y.data(), type);
    y_.reset(yd);

    std::size_t bytes = 0;
    PMOM_CHECKED(cusparseSpMV_bufferSize, handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, matrix,
                 xd, &zero_, yd, type, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
    buffer_ = backend.allocate_bytes(bytes);
    backend.synchronize();  // the uploads and the zeroed workspace, queued on the backend's stream
  }

  void run() {
    PMOM_CHECKED(cusparseSpMV, handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one_,
                 matrix_.get(), x_.get(), &zero_, y_.get(), Lib<T>::data_type,
                 CUSPARSE_SPMV_ALG_DEFAULT, buffer_.get());
  }
  void synchronize() { PMOM_CHECKED(cudaStreamSynchronize, stream_.get()); }

 private:
  const lib_t<T> one_ = to_lib(T(1)), zero_ = to_lib(T(0));
  Block<index_t> row_ptr_, col_;
  Block<T> val_;
  std::shared_ptr<void> buffer_;
  // Released in reverse order: descriptors, then the handle, then its stream.
  Owned<cudaStream_t, cudaStreamDestroy> stream_;
  Owned<cusparseHandle_t, cusparseDestroy> handle_;
  Owned<cusparseConstSpMatDescr_t, cusparseDestroySpMat> matrix_;
  Owned<cusparseConstDnVecDescr_t, cusparseDestroyDnVec> x_;
  Owned<cusparseDnVecDescr_t, cusparseDestroyDnVec> y_;
};

}  // namespace pmom::bench::gpu
