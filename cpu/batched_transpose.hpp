// SPDX-License-Identifier: BSD-3-Clause
// The CPU transposes, fused operators and operator diagonals vectorised across elements, one element per
// SIMD lane (lanes.hpp), as the forward kernels are (batched_kernels.hpp).
#pragma once

#include <feinterp/cpu/transpose_call.hpp>

namespace feinterp::backends::cpu {

/// The elements elements[i] for i in [begin, end) (elements null: the indices begin .. end - 1), lanes
/// at a time. Each element's N x C result is stored into its own element vector (out + element * N * C)
/// or, to_nodes, added into the nodal vector out[node * C + c]: then the elements must share no node
/// (one colour of fem/ordering/colouring.hpp), so that the lanes' additions never meet. Every lane runs
/// the same instructions on its own element, so an element's bits depend neither on its neighbours in
/// the batch nor on where a thread's range begins. An element whose det J
/// is degenerate or changes sign is kept in `errors` (with the smallest element's first) and its batch
/// contributes nothing.
template <class Real>
void run_batched_transpose(const TransposeCall<Real>& call, const offset_t* elements, offset_t begin, offset_t end,
                           bool to_nodes, Real* out, FirstError& errors);

/// A fused operator's precomputed geometry for elements [begin, end): per element and point, w_q |det J|
/// (mass) or the upper triangle of w_q |det J| K^T K row by row (diffusion, D(D+1)/2 entries), at
/// factors[(e * Q + q) * entries + j]. A degenerate or tangled element is kept in `errors`.
template <class Real>
void run_operator_factors(FusedOperator op, const BlockView& block, const Real* coordinates, const Tabulation& table,
                          const double* weights, offset_t begin, offset_t end, Real* factors, FirstError& errors);

}  // namespace feinterp::backends::cpu
