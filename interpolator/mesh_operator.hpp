// SPDX-License-Identifier: BSD-3-Clause
// Every block of a mesh over one global nodal vector: the loop over blocks that each caller of
// Interpolator wrote (as MFEM's element restrictions over a finite-element space, libCEED's composite
// operators, deal.II's MatrixFree over all cells).
//
//   std::vector<OperatorBlock> blocks;
//   for (const ElementBlock& b : mesh.blocks)
//     if (dimension(b.type.shape) == mesh.dimension)
//       blocks.push_back({b.view(), quadrature_rule(b.type.shape, 2 * b.type.order)});
//   const MeshOperator<double> op(blocks, mesh.node_count(), mesh.coordinates.data());
//   op.interpolate(Operation::values, {u, n * C, C}, {q, op.output_size(Operation::values, C)});
//   op.integrate(Operation::values, {q, q_size, C}, {r, n * C}, {.weighted = true});   // r = M u
//   op.apply_operator(FusedOperator::diffusion, {u, n * C, C}, {r, n * C});              // r = A u
//
// Each block has its own plan (Interpolator<Real>: one element type and order, its own points), all on
// one executor; a block's plan is plan(b). Point data of every block lie in one array, block after block,
// each in its plan's layout (core/layout.hpp): block b's start in it is output_offset(b, op, C), and its
// det J values start at detj_offset(b).
//
// Blocks next to each other with the same element type, space dimension and points (a volume split into
// physical groups) compute as one: the operator keeps one copy of their connectivity, end to end, and
// one plan over it, so that 50 such blocks cost one launch, not 50 (docs/performance/nvidia-h200/
// mesh-operator.md). Their point data lie where the blocks' would: nothing a caller sees changes but the
// order of the sums. Sums run in that order: run after run (a run being such a set of blocks, or one block),
// each run's transpose added to the runs' before it. On the CPU that is bitwise the same for any thread
// count; on a GPU too when the executor's plans are built with Summation::deterministic (the runs one
// after the other on the executor's stream, each by colour).
//
// A plan's std::invalid_argument (an array too small, a rule without weights) names its block:
// "MeshOperator::integrate: block 1 (triangle p2): ...".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/interpolator/executor_array.hpp>
#include <feinterp/interpolator/interpolator.hpp>

namespace feinterp {

/// One block of a MeshOperator: its elements and the points its plan computes at (a quadrature rule for
/// weighted integration and the fused operators).
struct OperatorBlock {
  BlockView block;
  PointSet points;
};

template <class Real>
class MeshOperator {
 public:
  /// Builds one plan per block, with `options` (the executor is resolved once, so every plan computes on
  /// the same device and stream), and one per run of two or more blocks that compute as one. The blocks' connectivities index one node numbering of node_count nodes
  /// whose coordinates (x[node*3 + k], may be null where no operation needs them) all plans share. The
  /// views and arrays must outlive the operator. Throws std::invalid_argument for no blocks, or naming the
  /// block (its index and element type) whose plan refused it.
  MeshOperator(const std::vector<OperatorBlock>& blocks, offset_t node_count, const Real* coordinates = nullptr,
               const InterpolatorOptions& options = {});

  std::size_t block_count() const { return plans_.size(); }
  /// The runs the calls go through: blocks next to each other that compute as one (1 <= runs <= blocks).
  std::size_t run_count() const { return runs_.size(); }
  const Interpolator<Real>& plan(std::size_t b) const { return plans_.at(b); }
  const Executor& executor() const { return plans_.front().executor(); }
  offset_t node_count() const { return plans_.front().node_count(); }

  /// Values of every block's output of forward operation `op` for C = `components`, and block b's first one.
  std::size_t output_size(Operation op, int components) const;
  std::size_t output_offset(std::size_t b, Operation op, int components) const;
  /// Values of every block's det J (elements * points per block), and block b's first one.
  std::size_t detj_size() const;
  std::size_t detj_offset(std::size_t b) const;

  /// Every block's forward operation `op` of the nodal field u (node_count * C values) into `out`, block b at
  /// output_offset(b, op, C); det J likewise into `detj` (physical gradients only; may be empty).
  void interpolate(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out,
                   BasicOutputView<Real> detj = {}) const;

  /// The sum over blocks of the transpose of `op`: `f` holds every block's point data as interpolate writes
  /// them, `r` the nodal vector (node_count * C). options.weighted as for a plan; options.accumulate adds
  /// to r instead of overwriting it. Element vectors are a block's own: ask plan(b) for them.
  void integrate(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> r, const TransposeOptions& options = {}) const;

  /// Values of a coefficient of `shape` at every block's points (det J's layout times its entries per
  /// point, core/operation.hpp), and block b's first one.
  std::size_t coefficient_size(CoefficientShape shape) const;
  std::size_t coefficient_offset(std::size_t b, CoefficientShape shape) const;

  /// The physical coordinates of every block's points, x[(point)*3 + k] block after block as interpolate
  /// writes a 3-component field's values (output_size(Operation::values, 3) values): where to evaluate a
  /// coefficient or a source. Needs the coordinates.
  void point_coordinates(BasicOutputView<Real> x) const;

  /// A fused operator over every block, r = A u (Interpolator::apply_operator per block, summed in block
  /// order): mass or diffusion, `coefficient` at every block's points (coefficient_offset), none for 1;
  /// `accumulate` adds to r.
  void apply_operator(FusedOperator op, BasicFieldView<Real> u, BasicOutputView<Real> r,
                      BasicCoefficientView<Real> coefficient = {}, bool accumulate = false) const;

  /// Its diagonal for a field of `components` components (Interpolator::operator_diagonal, summed).
  void operator_diagonal(FusedOperator op, int components, BasicOutputView<Real> d,
                         BasicCoefficientView<Real> coefficient = {}) const;

  /// Every plan's check(): GPU plans report a degenerate element met since the last check.
  void check() const;

 private:
  // Blocks first .. first + count - 1, computed by plans_[first] (one block) or merged_[merged].
  struct Run {
    std::size_t first = 0, count = 1;
    std::ptrdiff_t merged = -1;
  };
  const Interpolator<Real>& run_plan(const Run& run) const {
    return run.merged < 0 ? plans_[run.first] : merged_[std::size_t(run.merged)];
  }
  // "block 3 (tetrahedron p2)", or "blocks 3 to 9 (tetrahedron p2)" for a run.
  std::string run_name(const Run& run) const;
  // Calls per_run(run's plan, its part of `coefficient`, options) for each run in order, accumulating after
  // the first; a plan's std::invalid_argument names its blocks.
  template <class Call>
  void for_each_run(const char* call, BasicCoefficientView<Real> coefficient, bool accumulate, Call&& per_run) const;

  std::vector<Interpolator<Real>> plans_;
  std::vector<Run> runs_;
  std::vector<ExecutorArray<node_index>> merged_connectivity_;  // a merged run's blocks, end to end
  std::vector<std::vector<std::size_t>> merged_tags_;           // and their element tags (empty: none)
  std::vector<Interpolator<Real>> merged_;
  const Real* coordinates_;
};

}  // namespace feinterp
