// CUDA errors become exceptions that carry the CUDA error string and what was being done.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace feinterp::cuda {

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

/// After a launch: configuration errors are reported by cudaGetLastError.
inline void check_launch(const std::string& what) { check(cudaGetLastError(), "launching " + what); }

}  // namespace feinterp::cuda
