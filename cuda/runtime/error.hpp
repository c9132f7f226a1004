// SPDX-License-Identifier: BSD-3-Clause
// CUDA errors become exceptions that carry the CUDA error string and what was being done.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace feinterp::backends::cuda {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what)
      : std::runtime_error(what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

/// Throws CudaError if `code` is not cudaSuccess. `what` says what was being done.
inline void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw CudaError(code, what);
}
inline void check(cudaError_t code, const std::string& what) {
  if (code != cudaSuccess) throw CudaError(code, what);
}
/// The same, for classes whose own member is called check (Plan::check).
inline void check_cuda(cudaError_t code, const char* what) { check(code, what); }

/// After a launch: configuration errors are reported by cudaGetLastError (which does not wait). The
/// message is built only on an error: a launch allocates nothing.
inline void check_launch(const char* what) {
  const cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) throw CudaError(code, std::string("launching ") + what);
}
inline void check_launch(const std::string& what) { check_launch(what.c_str()); }

}  // namespace feinterp::backends::cuda
