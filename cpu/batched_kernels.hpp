// SPDX-License-Identifier: BSD-3-Clause
// The dense CPU kernels vectorised across elements: a batch of elements is gathered into
// structure-of-arrays form (node, component, lane) and every product with the tabulation runs on all
// lanes at once, one element per lane, as deal.II's VectorizedArray does. The node count, dimension and,
// for C <= 3, the component count are compile-time constants, so the loops unroll and the accumulators
// stay in registers.
#pragma once

#include <feinterp/cpu/dense_call.hpp>

namespace feinterp::backends::cpu {

/// Elements a thread's range is made of (a multiple of the lanes of any x86 target: 8 doubles fill an
/// AVX-512 register, 4 an AVX2 one, 2 an SSE2 one), so that only the block's last batch runs short.
inline constexpr int batch_lanes = 8;

/// Values, reference gradients or physical gradients (with det J) of elements [begin, end). Every lane
/// runs the same instructions on its own element (a short last batch repeats its last element in the
/// spare lanes), so an element's bits depend neither on its neighbours in the batch nor on where a
/// thread's range begins: any split over threads gives the same results. A degenerate or tangled element
/// throws DegenerateElementError (fem/orientation.hpp), the smallest of its batch first.
template <class Real>
void run_batched(const DenseCall<Real>& call, offset_t begin, offset_t end);

}  // namespace feinterp::backends::cpu
