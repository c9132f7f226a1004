// SPDX-License-Identifier: BSD-3-Clause
// Plan<Real>: the CPU backend's work for one block and one point set, in one precision, built once:
// the block checked (connectivity in range, z = 0 for a planar block), the shape functions tabulated
// (in double, by the element's own code) and kept in Real for the products. A call (apply) checks
// sizes and computes, split over threads (threads.hpp); it is synchronous, and a degenerate or tangled
// element throws DegenerateElementError at once (fem/orientation.hpp), the smallest element index
// whatever the thread count.
//
// Transposes (apply_transpose, transpose.cpp) sum into the nodes colour by colour (fem/ordering/colouring.hpp),
// the colouring built at the first nodal transpose and kept: bitwise the same for any thread count.
//
// A forward call runs the dense product or, for quadrilaterals and hexahedra at a tensor-product point
// set, sum factorisation (sum_factorised_kernels.hpp), as kernel_variant.hpp decides per operation and C.
#pragma once

#include <mutex>
#include <optional>
#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/ordering/colouring.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/tabulation.hpp>
#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/cpu/kernel_variant.hpp>

namespace feinterp::backends::cpu {

struct PlanOptions {
  int threads = 0;  ///< 0: the default (threads.hpp: FEINTERP_NUM_THREADS, OMP_NUM_THREADS, CPUs available); small blocks use fewer
  /// The forward kernel: automatic (kernel_variant.hpp's rule), or forced (std::invalid_argument at the
  /// call where sum_factorised does not apply).
  KernelVariant variant = KernelVariant::automatic;
  /// The fused operators' geometry (core/operation.hpp): precomputed, w_q |det J| (mass) or w_q |det J|
  /// K^T K (diffusion, D(D+1)/2 reals) per element and point, computed at the first apply_operator of
  /// that operator and kept (the coordinates must not change afterwards; a symmetric-tensor coefficient
  /// and P1 simplices, whose constant J is cheaper to compute than to read, still run on the fly); or
  /// on_the_fly, J from the coordinates at every call.
  OperatorGeometry operator_geometry = OperatorGeometry::precomputed;
};

template <class Real>
class Plan {
 public:
  /// `coordinates`: x[node*3 + k] of node_count nodes, needed for physical gradients (null: the plan
  /// refuses them). Host arrays all. Throws std::invalid_argument for an inconsistent block, points of
  /// another shape, or a node off the plane z = 0 in a block of space dimension 2 (naming it).
  Plan(const BlockView& block, offset_t node_count, const PointSet& points, const Real* coordinates,
       const PlanOptions& options = {});

  const BlockView& block() const { return block_; }
  offset_t node_count() const { return node_count_; }
  int points() const { return table_.points; }
  int space_dimension() const { return space_dimension_; }
  const Tabulation& table() const { return table_; }
  /// The forward kernel a call of `op` with `components` components runs: dense or sum_factorised. Throws
  /// std::invalid_argument as apply does for a requested variant that does not apply.
  KernelVariant variant(Operation op, int components) const;

  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj = {}) const;

  /// A transpose (core/operation.hpp): point data f in the layout of forward_of(op)'s output, into the
  /// nodes or the element vectors. Synchronous; a degenerate element met by a transpose that needs the
  /// geometry throws DegenerateElementError (the smallest such element), leaving `out` unspecified.
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                       const TransposeOptions& options = {}) const;

  /// A fused operator r = A u (interpolator.hpp's apply_operator): target and accumulate from `options`,
  /// weighted implied.
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;
  /// Its diagonal, for a field of `components` components (each component's the same).
  void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                         BasicCoefficientView<Real> coefficient = {}, const TransposeOptions& options = {}) const;

  /// The colouring of the block's elements (built at the first call).
  const ElementColouring& colouring() const;

 private:
  // A fused operator's precomputed geometry (PlanOptions::operator_geometry), computed at its first use;
  // a degenerate element throws there, and again at the next call, which computes it anew.
  const std::vector<Real>& operator_factors(FusedOperator op) const;
  // A fused call's arrays for fem/arguments.hpp's checks: u (or none, for a diagonal) and r.
  TransposeArguments fused_arguments(BasicFieldView<Real> u, BasicOutputView<Real> r, const TransposeOptions& options) const;

  BlockView block_;
  offset_t node_count_;
  Tabulation table_;
  std::vector<Real> values_, gradients_;  // the table in Real, as (Q*W x N) column-major matrices
  std::vector<double> weights_;  // the point set's, empty when it has none
  const Real* coordinates_;
  int space_dimension_;
  std::optional<TensorStructure> tensor_;  // quadrilaterals and hexahedra at a tensor-product point set
  std::vector<Real> tensor_B_, tensor_G_;  // its 1D tables in Real
  std::vector<int> lattice_of_point_;      // [q] -> l, the inverse of tensor_->point_of_lattice
  PlanOptions options_;
  mutable std::once_flag colouring_once_;
  mutable ElementColouring colouring_;
  mutable std::once_flag factors_once_[2];  // [FusedOperator]
  mutable std::vector<Real> factors_[2];
};

}  // namespace feinterp::backends::cpu
