// SPDX-License-Identifier: BSD-3-Clause
// What an interpolation computes, and the views through which fields go in and results come out.
// The operation list is defined here once: a new operation is one value here and one case in each
// backend.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <feinterp/core/config.hpp>

namespace feinterp {

enum class Operation {
  values,               ///< u_c(xi_q)                        out[(e*Q + q)*C + c]
  reference_gradients,  ///< du_c/dxi_d(xi_q), d < D          out[((e*Q + q)*C + c)*D + d]
  physical_gradients,   ///< du_c/dx_k(x(xi_q)), k < S, and det J (or the measure): out[((e*Q + q)*C + c)*S + k],
                        ///< detj[e*Q + q]; the tangential gradient when S > D (fem/geometry.hpp)
  // The transposes (integration): point data in the layout of the forward operation's output, back to
  // the nodes, r_n,c = sum_q phi_n(xi_q) f_q,c (values), sum_q,d dphi_n/dxi_d g_q,c,d (reference
  // gradients), sum_q,k (K dphi_n/dxi)_k g_q,c,k (physical gradients, K = J^-T or the pseudo-inverse
  // for S > D). TransposeOptions says where the result goes and whether w_q |det J| is folded in.
  values_transpose,
  reference_gradients_transpose,
  physical_gradients_transpose,
};

/// The forward operations, in the enum's order.
inline constexpr Operation forward_operations[] = {Operation::values, Operation::reference_gradients,
                                                   Operation::physical_gradients};
/// The transposes, in the order of their forward operations.
inline constexpr Operation transpose_operations[] = {
    Operation::values_transpose, Operation::reference_gradients_transpose, Operation::physical_gradients_transpose};
/// Every operation, in the enum's order.
inline constexpr Operation all_operations[] = {Operation::values,
                                               Operation::reference_gradients,
                                               Operation::physical_gradients,
                                               Operation::values_transpose,
                                               Operation::reference_gradients_transpose,
                                               Operation::physical_gradients_transpose};
inline constexpr int operation_count = 6;

FEINTERP_HD bool is_transpose(Operation op) { return int(op) >= 3; }

/// The forward operation of a transpose (a forward operation itself otherwise).
FEINTERP_HD Operation forward_of(Operation op) { return is_transpose(op) ? Operation(int(op) - 3) : op; }

/// The transpose of a forward operation (a transpose itself otherwise).
FEINTERP_HD Operation transpose_of(Operation op) { return is_transpose(op) ? op : Operation(int(op) + 3); }

inline const char* operation_name(Operation op) {
  switch (op) {
    case Operation::values: return "values";
    case Operation::reference_gradients: return "reference_gradients";
    case Operation::physical_gradients: return "physical_gradients";
    case Operation::values_transpose: return "values_transpose";
    case Operation::reference_gradients_transpose: return "reference_gradients_transpose";
    case Operation::physical_gradients_transpose: return "physical_gradients_transpose";
  }
  return "unknown";
}

/// The operation named `name` (operation_name's spelling). Throws std::invalid_argument listing the names.
inline Operation parse_operation(const std::string& name) {
  for (Operation op : all_operations)
    if (name == operation_name(op)) return op;
  throw std::invalid_argument("unknown operation '" + name +
                              "': expected values, reference_gradients, physical_gradients or one of them "
                              "followed by _transpose");
}

/// Numbers per (point, component) in the point data of `op`: the result of a forward operation, the
/// input of a transpose. 1 for values, the reference dimension d for reference gradients, the space
/// dimension s for physical gradients.
FEINTERP_HD int result_directions(Operation op, int reference_dimension, int space_dimension) {
  switch (forward_of(op)) {
    case Operation::values: return 1;
    case Operation::reference_gradients: return reference_dimension;
    default: return space_dimension;
  }
}

/// Number of values in the point data of `op` (not counting det J): the output of a forward operation,
/// the input of a transpose, for elements of reference dimension d in a space of dimension s.
inline std::size_t point_data_size(Operation op, offset_t elements, int points, int components, int reference_dimension,
                                   int space_dimension) {
  return std::size_t(elements * points * components *
                     result_directions(op, reference_dimension, space_dimension));
}

/// Number of values in the result of a forward operation `op` (not counting det J).
inline std::size_t output_size(Operation op, offset_t elements, int points, int components, int reference_dimension,
                               int space_dimension) {
  return point_data_size(op, elements, points, components, reference_dimension, space_dimension);
}

/// Where a transpose puts its result.
enum class TransposeTarget {
  nodes,            ///< the assembled nodal vector r[node * C + c]: the sum over the elements sharing a node
  element_vectors,  ///< each element's own vector, y[(e * N + n) * C + c] (an E-vector: no two elements
                    ///< write the same value)
};

/// How a transpose is applied.
struct TransposeOptions {
  TransposeTarget target = TransposeTarget::nodes;
  /// Multiply the point data by w_q |det J| (the measure for S > D) at each point first: the usual
  /// integrand, so that r_n = integral of phi_n f (values) or grad phi_n . g (physical gradients). Needs a
  /// point set with weights (a quadrature rule) and the plan's coordinates.
  bool weighted = false;
  /// nodes: add to r (several blocks into one vector); otherwise r is overwritten. Element vectors are
  /// always overwritten.
  bool accumulate = false;
};

/// The fused operators (Interpolator::apply_operator): the weighted transpose of a forward operation of the
/// field itself, with a coefficient at the points, in one pass that keeps no point data in memory. Per
/// component c of u (block-diagonal in the components):
enum class FusedOperator {
  mass,       ///< r_i,c = sum_e sum_q w_q |det J| rho_q phi_i u_c                  (values, then their transpose)
  diffusion,  ///< r_i,c = sum_e sum_q w_q |det J| grad phi_i . kappa_q grad u_c    (physical gradients, then
              ///< their transpose; the tangential gradients for d < s)
};

/// Where a GPU plan's fused operators take the geometry from, where it has the kernel for both
/// (quadrilaterals and hexahedra at tensor-product point sets; elsewhere J is always computed on the fly).
enum class OperatorGeometry {
  precomputed,  ///< w_q |det J| (mass) or w_q |det J| K^T K (diffusion) per point, computed from the
                ///< coordinates once, at the plan's first apply_operator of that operator, and kept: Q or
                ///< Q d(d+1)/2 reals per element. The coordinates must not change afterwards. A symmetric-
                ///< tensor kappa still runs on the fly (K^T kappa K needs K).
  on_the_fly,   ///< J from the coordinates at every call: no memory kept; coordinates may move between calls
};

inline const char* fused_operator_name(FusedOperator op) {
  return op == FusedOperator::mass ? "mass" : "diffusion";
}

/// The forward operation a fused operator applies to the field (and then transposes).
FEINTERP_HD Operation forward_of(FusedOperator op) {
  return op == FusedOperator::mass ? Operation::values : Operation::physical_gradients;
}

/// How a fused operator's coefficient (rho, kappa) is given at the points.
enum class CoefficientShape {
  none,              ///< 1 everywhere
  scalar,            ///< one value per point
  symmetric_tensor,  ///< diffusion only: a symmetric s x s tensor per point, its s(s+1)/2 upper entries row by
                     ///< row (xx xy yy for s = 2; xx xy xz yy yz zz for s = 3)
};

/// Values per point of a coefficient of shape `shape` in a space of dimension s.
FEINTERP_HD int coefficient_entries(CoefficientShape shape, int space_dimension) {
  return shape == CoefficientShape::none ? 0
         : shape == CoefficientShape::scalar ? 1
                                             : space_dimension * (space_dimension + 1) / 2;
}

/// A coefficient at a plan's points, in the layout of det J: c[(e*Q + q)*T + t], T = coefficient_entries.
/// `size` is the number of values, checked against the block.
template <class T>
struct BasicCoefficientView {
  const T* data = nullptr;
  std::size_t size = 0;
  CoefficientShape shape = CoefficientShape::none;
};

/// How a GPU plan sums element contributions into shared nodes (the CPU always sums deterministically:
/// by colour, bitwise the same for any thread count).
enum class Summation {
  atomic,         ///< atomicAdd: the fastest; the order of the additions, and so the last bits, vary
  deterministic,  ///< elements coloured (no two of a colour share a node), one launch per colour: bitwise
                  ///< reproducible; the colouring is built when the plan is
};

/// A nodal field, u[node * components + c], of T = double or float; `size` is the number of values,
/// checked against the mesh.
template <class T>
struct BasicFieldView {
  const T* data = nullptr;
  std::size_t size = 0;
  int components = 1;
};

/// Where results go; `size` is the number of values available, checked against what is written.
template <class T>
struct BasicOutputView {
  T* data = nullptr;
  std::size_t size = 0;
};

using FieldView = BasicFieldView<double>;
using OutputView = BasicOutputView<double>;

}  // namespace feinterp
