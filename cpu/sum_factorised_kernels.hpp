// SPDX-License-Identifier: BSD-3-Clause
// The CPU's sum-factorised forward kernels: values, reference gradients and physical gradients (with
// det J) of quadrilaterals and hexahedra at a tensor-product point set (fem/tensor_structure.hpp), one
// element at a time through the shared stages of fem/sum_factorisation.hpp, each stage run by one worker
// (what the GPU's line threads share is here a plain loop). Compiled for each (dimension, P1, Q1) of a
// small table, so that the stage buffers and loop bounds are constants; sum_factorised_compiled says
// which.
#pragma once

#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/cpu/forward_call.hpp>

namespace feinterp::backends::cpu {

/// What a sum-factorised call reads besides the forward call's arrays.
template <class Real>
struct SumFactorisedCall : ForwardCall<Real> {
  const TensorStructure* tensor;
  const Real* B;                  // Q1 x P1, the structure's values_1d in Real
  const Real* G;                  // Q1 x P1, its derivatives_1d
  const int* lattice_of_point;    // [q] -> l, the inverse of tensor->point_of_lattice
};

/// Whether a kernel is compiled for a d-dimensional element of P1 nodes and Q1 points per direction.
bool sum_factorised_compiled(int dimension, int nodes_per_direction, int points_per_direction);

/// Elements [begin, end) of the call, in increasing order; each element's results depend on its own data
/// only, so any split over threads gives the same bits. A degenerate or tangled element throws
/// DegenerateElementError (fem/orientation.hpp) as the dense kernels do. Throws std::invalid_argument
/// where no kernel is compiled for the configuration.
template <class Real>
void run_sum_factorised(const SumFactorisedCall<Real>& call, offset_t begin, offset_t end);

}  // namespace feinterp::backends::cpu
