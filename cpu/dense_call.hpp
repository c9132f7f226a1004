// SPDX-License-Identifier: BSD-3-Clause
// What one forward call of the dense CPU kernels needs, checked by the plan (kernels.cpp): shared by the
// element-batched kernels (batched_kernels.hpp) and the Eigen product (kernels.cpp).
#pragma once

#include <feinterp/fem/tabulation.hpp>
#include <feinterp/cpu/forward_call.hpp>
#include <feinterp/cpu/space_dimension.hpp>

namespace feinterp::backends::cpu {

template <class Real>
struct DenseCall : ForwardCall<Real> {
  const node_index* connectivity;
  int nodes, points, dimension;
  const Tabulation* table;
  const Real* table_matrix;  // the (Q*W x N) column-major table in Real: values or gradients
};

/// Calls f(std::integral_constant<int, S>) with the call's space dimension as a constant: only physical
/// gradients read it, the other operations always take the default, so that they are instantiated once.
template <int D, class Real, class F>
void with_space_dimension(const DenseCall<Real>& call, F&& f) {
  with_space_dimension<D>(call.op == Operation::physical_gradients ? call.space_dimension : (D == 3 ? 3 : 2), f);
}

}  // namespace feinterp::backends::cpu
