// SPDX-License-Identifier: BSD-3-Clause
// What one transpose, fused operator or operator diagonal of the CPU backend needs, set up and checked by
// the plan (transpose.cpp) and run by the element-batched kernels (batched_transpose.hpp).
#pragma once

#include <exception>
#include <mutex>

#include <feinterp/core/operation.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/tabulation.hpp>

namespace feinterp::backends::cpu {

template <class Real>
struct TransposeCall {
  Operation forward;  // the forward operation whose transpose this is
  const BlockView* block;
  offset_t elements;
  int points, components;
  bool geometric, weighted;
  const Real* f;  // point data, GradientsLayout{elements, points, components, directions}
  const Real* coordinates;
  const Tabulation* table;
  const double* weights;
  const Real* u = nullptr;            // a fused operator's nodal field (then f is unused)
  const Real* coefficient = nullptr;  // a fused operator's, [(e*Q + q)*T + t]
  int coefficient_entries = 0;        // T; 0: none
  bool diagonal = false;              // the fused operator's diagonal (f and u unused)
  const Real* factors = nullptr;      // a fused operator's precomputed geometry (run_operator_factors)
};

/// Keeps the DegenerateElementError of the smallest element across threads, batches and colours.
class FirstError {
 public:
  void keep(offset_t element, std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_ || element < element_) {
      element_ = element;
      error_ = std::move(error);
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  offset_t element_ = 0;
  std::exception_ptr error_;
};

}  // namespace feinterp::backends::cpu
