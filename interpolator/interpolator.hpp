// SPDX-License-Identifier: BSD-3-Clause
// The front door: one plan per (block, points, executor, precision), in the spirit of MFEM's
// QuadratureInterpolator and libCEED's CeedBasis.
//
//   const Interpolator<double> plan(block, node_count, quadrature_rule(block.type.shape, 4), coordinates);
//   plan.apply(Operation::physical_gradients, {u, n * C, C}, {out, out_size}, {detj, detj_size});
//   plan.check();   // GPU: waits, and reports a degenerate element met since the last check
//   plan.apply_transpose(Operation::physical_gradients, {g, g_size, C}, {r, n * C}, {.weighted = true});
//
// apply_transpose is the adjoint of apply (integration, libCEED's CEED_TRANSPOSE, deal.II's
// integrate): point data in the layout of the forward operation's output, summed into the nodes, or
// into element vectors; with `weighted`, multiplied by w_q |det J| first (TransposeOptions, core/operation.hpp).
// The CPU sums deterministically (by element colour); a GPU plan sums with atomics unless it was built
// with Summation::deterministic.
//
// The plan checks everything once, at construction: the block (connectivity in range, space dimension,
// z = 0 for a planar block), the points, the executor. A call checks only the sizes of its arrays and
// runs the one operation: one switch inside each backend (cpu, cuda).
//
// Executors and memory. `cpu`: host arrays, each call synchronous, a degenerate or tangled element
// (fem/orientation.hpp) throws DegenerateElementError from apply itself. `cuda`: device arrays (the
// connectivity, the coordinates, the fields and outputs of every call); a call is a kernel launch on the
// plan's stream and nothing else (no allocation, no synchronisation); a degenerate element is recorded
// on the device and reported by check(), which waits for the stream. `automatic` picks cuda when a GPU
// is usable, else cpu; executor() says which, and ExecutorArray puts data where it computes.
//
// Precision: Real is double or float. The field, coordinates and outputs share it; shape functions and
// geometry are computed in double and stored (or combined) in Real.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/point_set.hpp>

namespace feinterp {

enum class Executor { cpu, cuda, automatic };

const char* executor_name(Executor executor);

/// "cpu", "cuda", "auto" or "automatic"; throws std::invalid_argument naming them.
Executor parse_executor(const std::string& name);

/// True when this feinterp was built with CUDA and a GPU is usable. Never throws.
bool cuda_usable();

/// Why cuda_usable() is false, in one line ("" when it is true).
std::string cuda_unusable_reason();

/// cpu or cuda: `automatic` resolved. Throws std::runtime_error for `cuda` when it is not usable.
Executor resolve_executor(Executor requested);

/// "NVIDIA H100 80GB HBM3 (compute capability 9.0)" or "CPU, 16 threads", for a resolved executor. For
/// the CPU, the count a plan with InterpolatorOptions::threads = `threads` uses on a large block:
/// `threads`, or for 0 FEINTERP_NUM_THREADS, OMP_NUM_THREADS, else the CPUs this process may use
/// (affinity and cgroup quota). Throws std::invalid_argument for a bad count or environment value.
std::string describe_executor(Executor executor, int threads = 0);

/// The threads a CPU plan with InterpolatorOptions::threads = `threads` uses on a large block (as above).
int cpu_thread_count(int threads = 0);

struct InterpolatorOptions {
  Executor executor = Executor::automatic;
  /// cpu: threads per call; 0 for the default: FEINTERP_NUM_THREADS, else OMP_NUM_THREADS (its first
  /// entry), else the CPUs this process may use (affinity, cgroup v2 quota). A bad variable throws
  /// std::invalid_argument when the plan is built. Blocks under 1024 elements per thread use fewer.
  int threads = 0;
  void* cuda_stream = nullptr;    ///< cuda: the cudaStream_t of the plan's launches (null: the default stream)
  int elements_per_block = 0;     ///< cuda: 0 for the tuned choice (cuda/launch)
  bool baseline_kernel = false;   ///< cuda: one element per block (the naive baseline, for benchmarks)
  /// cuda: how nodal transposes sum shared nodes; deterministic colours the elements when the plan is built
  /// (the block's connectivity is copied to the host once for that).
  Summation summation = Summation::atomic;
};

template <class Real>
class Interpolator {
 public:
  /// `block.connectivity` and `coordinates` (x[node*3 + k], needed for physical gradients, may be null)
  /// live where the executor computes. Throws std::invalid_argument naming what is wrong.
  Interpolator(const BlockView& block, offset_t node_count, const PointSet& points, const Real* coordinates = nullptr,
               const InterpolatorOptions& options = {});

  /// cpu or cuda.
  Executor executor() const;
  const BlockView& block() const;
  offset_t node_count() const;
  int points() const;
  int space_dimension() const;
  /// Values in the input of `op` for a field of `components` components: node_count * C for a forward
  /// operation, the point data for a transpose (core/layout.hpp).
  std::size_t input_size(Operation op, int components) const;
  /// Values in the output of `op` for a field of `components` components (core/layout.hpp); for a
  /// transpose, into `target`.
  std::size_t output_size(Operation op, int components, TransposeTarget target = TransposeTarget::nodes) const;
  /// Values in a det J output: elements * points.
  std::size_t detj_size() const;

  /// Computes `op` (core/layout.hpp's layouts). `detj`: physical gradients only; may be empty.
  void apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj = {}) const;

  /// The transpose of `op` (a forward operation or its transpose): `f` holds point data in the layout of
  /// the forward operation's output, with f.components = C; `out` the nodal vector (node_count * C) or
  /// the element vectors (elements * nodes_per_element * C). cpu: a degenerate element, met when the
  /// geometry is used (physical gradients, weighted), throws DegenerateElementError; cuda: check() reports it.
  void apply_transpose(Operation op, BasicFieldView<Real> f, BasicOutputView<Real> out,
                       const TransposeOptions& options = {}) const;

  /// The Laplacian (stiffness) operator, fused: r = A u with A_ij = sum_e sum_q w_q |det J| grad(phi_i) .
  /// grad(phi_j), per component (C components of u, the tangential gradients for d < s). Equal to
  /// apply(physical_gradients) followed by apply_transpose(physical_gradients, weighted) but in one pass,
  /// with no point data in memory (on the GPU one kernel). `u` the nodal field (node_count * C values);
  /// options.target and options.accumulate as for a transpose (weighted is implied: the point set must
  /// be a quadrature rule, and the plan needs coordinates).
  void apply_laplacian(BasicFieldView<Real> u, BasicOutputView<Real> r, const TransposeOptions& options = {}) const;

  /// cuda: waits for the plan's stream, then throws DegenerateElementError if a physical-gradient call
  /// met a degenerate or tangled element since the last check (and forgets it). cpu: nothing to do.
  void check() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

/// An array where an executor computes: host memory for cpu, device memory for cuda. For tools and
/// tests that move data to and from a plan; copies are synchronous on the default stream (a plan on
/// another stream: check() it first).
template <class T>
class ExecutorArray {
 public:
  ExecutorArray(Executor executor, std::size_t size);
  ExecutorArray(Executor executor, const std::vector<T>& host);
  ExecutorArray(ExecutorArray&&) noexcept;
  ExecutorArray& operator=(ExecutorArray&&) noexcept;
  ~ExecutorArray();

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  void copy_from(const T* host, std::size_t count);
  void copy_to(T* host, std::size_t count) const;
  std::vector<T> to_vector() const;

 private:
  void release() noexcept;
  Executor executor_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace feinterp
