// SPDX-License-Identifier: BSD-3-Clause
// What every forward call of the CPU kernels needs, checked by the plan (kernels.cpp): the dense
// kernels' DenseCall (dense_call.hpp) and the sum-factorised SumFactorisedCall (sum_factorised_kernels.hpp)
// add what their algorithm reads.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/block.hpp>

namespace feinterp::backends::cpu {

template <class Real>
struct ForwardCall {
  Operation op;
  const BlockView* block;  // for messages (tags) and the connectivity
  offset_t elements;
  int space_dimension, components;
  const Real* u;
  const Real* coordinates;  // physical gradients only
  Real* out;
  Real* detj;  // may be null
};

}  // namespace feinterp::backends::cpu
