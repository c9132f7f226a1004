// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's computation: Plan<Real> (plan.hpp) built once, apply(op, ...) with one switch.
//
// Two implementations of the per-element work, both with the node count and dimension as compile-time
// constants (dispatched with visit):
//
//   loops: per element, gather the C x N nodal values into registers/L1 and run unrolled loops over
//          points, nodes, components and directions (components also compile-time for C <= 3);
//   gemm:  per chunk of elements, gather U (N x C*chunk) and do one Eigen product with the
//          (Q*W x N) table, then scatter to the layout (for C = 1 the product's column-major result
//          *is* the layout and goes straight to the output).
//
// Field values are combined in the plan's precision Real; the geometry (J, det J, its inverse) in double.
//
// FEINTERP_CPU_KERNEL selects at compile time: 0 loops everywhere, 1 gemm everywhere, 2 (default)
// the faster of the two per operation, as measured with feinterp-cpu-bench (numbers at use_gemm).
//
// Quadrilaterals and hexahedra at a tensor-product point set may run sum factorisation instead
// (sum_factorised_kernels.hpp), as kernel_variant.hpp decides per operation and C.
#include <Eigen/Core>
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/arguments.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cpu/plan.hpp>
#include <feinterp/cpu/sum_factorised_kernels.hpp>
#include <feinterp/cpu/threads.hpp>

#ifndef FEINTERP_CPU_KERNEL
#define FEINTERP_CPU_KERNEL 2
#endif

namespace feinterp::backends::cpu {

namespace {

// Everything one call needs, checked.
template <class Real>
struct Problem {
  Operation op;
  const BlockView* block;  // for messages (tags)
  const node_index* connectivity;
  offset_t elements;
  int nodes, points, dimension, space_dimension, components;
  const Real* u;
  const Real* coordinates;  // physical gradients only
  Real* out;
  Real* detj;  // may be null
  const Tabulation* table;
  const Real* table_matrix;  // the (Q*W x N) column-major table in Real: values or gradients
};

// The physical gradients of one point from its reference gradients `reference` (C rows of D) and the
// Jacobian J (S x D): out (C rows of S), det J into p.detj, and the point's orientation recorded.
template <int S, int D, class Real>
void physical_point(const Problem<Real>& p, offset_t e, int q, const double (&J)[S][D], const Real* reference, Real* out,
                    OrientationRecord& record) {
  const double det = jacobian_determinant(J);
  record.add(q, det, orientation_of(det, shape_quality(J, det)));
  if (p.detj) p.detj[ValuesLayout{p.elements, p.points, 1}(e, q, 0)] = Real(det);
  double K[S][D];
  inverse_transpose(J, det, K);  // meaningless where det is 0; the element is then refused below
  for (int c = 0; c < p.components; ++c) {
    double g[D], physical[S];
    for (int d = 0; d < D; ++d) g[d] = double(reference[c * D + d]);
    physical_gradient<S, D>(K, g, physical);
    for (int k = 0; k < S; ++k) out[c * S + k] = Real(physical[k]);
  }
}

// CC: the number of components as a compile-time constant, or 0 for a run-time p.components. S: the
// space dimension (used by physical gradients only).
template <class Element, int CC, int S, class Real>
void run_loops(const Problem<Real>& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int CMAX = CC ? CC : max_components;
  const int C = CC ? CC : p.components;
  const int Q = p.points;
  const double* values = p.table->values.data();
  const double* gradients = p.table->gradients.data();
  const bool physical = p.op == Operation::physical_gradients;
  Real ue[N * CMAX];
  double xe[N * S];
  const ValuesLayout values_layout{p.elements, Q, C};
  const GradientsLayout gradients_layout{p.elements, Q, C, physical ? S : D};
  for (offset_t e = begin; e < end; ++e) {
    const node_index* nodes = p.connectivity + e * N;
    for (int n = 0; n < N; ++n) {
      const Real* src = p.u + offset_t(nodes[n]) * C;
      for (int c = 0; c < C; ++c) ue[n * C + c] = src[c];
    }
    if (p.op == Operation::values) {
      Real* o = p.out + values_layout(e, 0, 0);
      for (int q = 0; q < Q; ++q) {
        const double* t = values + q * N;
        Real acc[CMAX] = {};
        for (int n = 0; n < N; ++n)
          for (int c = 0; c < C; ++c) acc[c] += Real(t[n]) * ue[n * C + c];
        for (int c = 0; c < C; ++c) o[values_layout(0, q, c)] = acc[c];
      }
      continue;
    }
    if (physical)
      for (int n = 0; n < N; ++n)
        for (int k = 0; k < S; ++k) xe[n * S + k] = double(p.coordinates[offset_t(nodes[n]) * 3 + k]);
    OrientationRecord record;
    Real* o = p.out + gradients_layout(e, 0, 0, 0);
    for (int q = 0; q < Q; ++q) {
      const double* g = gradients + q * N * D;
      Real acc[CMAX][D] = {};
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) acc[c][d] += ue[n * C + c] * Real(g[n * D + d]);
      Real* oq = o + gradients_layout(0, q, 0, 0);
      if (!physical) {
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) oq[c * D + d] = acc[c][d];
        continue;
      }
      double J[S][D];
      jacobian<S, D, N>(xe, S, g, J);
      physical_point<S, D>(p, e, q, J, &acc[0][0], oq, record);
    }
    if (physical) check_orientation(*p.block, e, record, D < S);
  }
}

// Elements per product: the result block (Q*W rows, K*chunk columns) is kept near 8K values (64 KiB in
// double, inside L2) so that the scatter reads it from cache. A multiple of 8 that depends only on the
// sizes, never on the thread count, so every element sits at the same place in the same product
// whatever the number of threads and the results are bitwise identical.
template <class Real>
offset_t gemm_chunk(const Problem<Real>& p) {
  const int columns = p.components + (p.op == Operation::physical_gradients ? p.space_dimension : 0);
  const int rows = p.points * (p.op == Operation::values ? 1 : p.dimension) * columns;
  const offset_t chunk = std::max<offset_t>(8, 8192 / std::max(rows, 1));
  return (chunk + 7) / 8 * 8;
}

template <class Element, int S, class Real>
void run_gemm(const Problem<Real>& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  const bool physical = p.op == Operation::physical_gradients;
  const int C = p.components;
  // Columns per element: the C field components, and for physical gradients the S coordinates too,
  // so that the same product yields the Jacobian J[k][d] = sum_n x_k(n) dN_n/dxi_d (the formula of
  // geometry.hpp's jacobian()). Computing J per point with jacobian() instead cost 2.0x the time of
  // the whole call on hex p2 (27 nodes * 9 multiply-adds per point, not vectorised). (Float plans take
  // the loops for physical gradients, whose geometry is in double: use_gemm.)
  const int K = C + (physical ? S : 0);
  const int Q = p.points;
  const int W = p.op == Operation::values ? 1 : D;  // table rows per point
  const ValuesLayout values_layout{p.elements, Q, C};
  const GradientsLayout reference_layout{p.elements, Q, C, D};
  const GradientsLayout physical_layout{p.elements, Q, C, S};
  const Eigen::Map<const Matrix> T(p.table_matrix, Q * W, N);
  const offset_t chunk = gemm_chunk(p);
  Matrix U(N, K * chunk);
  Matrix result(Q * W, K * chunk);
  for (offset_t first = begin; first < end; first += chunk) {
    const offset_t m = std::min(chunk, end - first);
    const Eigen::Index columns = Eigen::Index(m * K);
    // Gather: column e*K + c holds component c at the N nodes of element first + e, column
    // e*K + C + k coordinate k.
    Real* Ud = U.data();
    for (offset_t e = 0; e < m; ++e) {
      const node_index* nodes = p.connectivity + (first + e) * N;
      for (int n = 0; n < N; ++n) {
        const Real* src = p.u + offset_t(nodes[n]) * C;
        for (int c = 0; c < C; ++c) Ud[(e * K + c) * N + n] = src[c];
        if (physical) {
          const Real* x = p.coordinates + offset_t(nodes[n]) * 3;
          for (int k = 0; k < S; ++k) Ud[(e * K + C + k) * N + n] = x[k];
        }
      }
    }
    // Values and reference gradients: the layout with W directions (W = 1: the values layout).
    Real* out = p.out + GradientsLayout{p.elements, Q, C, W}(first, 0, 0, 0);
    // Column e*K + c of the result, row q*W + w, is the result at (element first + e, point q,
    // component c, direction w).
    if (C == 1 && !physical) {
      // Column-major (Q*W x m) is exactly the layout: no scatter.
      Eigen::Map<Matrix>(out, Q * W, columns).noalias() = T * U.leftCols(columns);
      continue;
    }
    result.leftCols(columns).noalias() = T * U.leftCols(columns);
    const Real* rd = result.data();
    if (p.op == Operation::values) {
      for (offset_t e = 0; e < m; ++e)
        for (int q = 0; q < Q; ++q)
          for (int c = 0; c < C; ++c) out[values_layout(e, q, c)] = rd[(e * K + c) * Q + q];
      continue;
    }
    if (p.op == Operation::reference_gradients) {
      for (offset_t e = 0; e < m; ++e)
        for (int q = 0; q < Q; ++q)
          for (int c = 0; c < C; ++c)
            for (int d = 0; d < D; ++d) out[reference_layout(e, q, c, d)] = rd[((e * K + c) * Q + q) * D + d];
      continue;
    }
    Real reference[max_components * D];
    for (offset_t e = 0; e < m; ++e) {
      const offset_t element = first + e;
      OrientationRecord record;
      for (int q = 0; q < Q; ++q) {
        double J[S][D];
        for (int k = 0; k < S; ++k)
          for (int d = 0; d < D; ++d) J[k][d] = double(rd[((e * K + C + k) * Q + q) * D + d]);
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) reference[c * D + d] = rd[((e * K + c) * Q + q) * D + d];
        physical_point<S, D>(p, element, q, J, reference, p.out + physical_layout(element, q, 0, 0), record);
      }
      check_orientation(*p.block, element, record, D < S);
    }
  }
}

// Which is faster depends on the work per element, N * Q. Medians of 5 runs, 2 threads, structured
// blocks of feinterp-cpu-bench, degree-2p quadrature, 16-core Xeon (SSE2 build; the 2-core
// development VM was too loaded to time reliably), ms, loops / gemm, in double:
//
//                          N*Q   values C=1   C=3       ref. grad C=1  C=3        phys. grad C=1  C=3
//   tet p1 (1M, Q = 4)      16    9.7 / 23.8   20 / 39    24 / 27       44 / 73      80 / 124    121 / 164
//   hex p1 (300k, Q = 8)    64     10 / 10     14 / 27    25 / 27       60 / 54      76 / 69     139 / 103
//   tet p2 (300k, Q = 14)  140     13 / 20     30 / 37    38 / 34      121 / 112    155 / 94     264 / 215
//   tet p3 (300k, Q = 24)  480     38 / 39    108 / 109  141 / 97      383 / 252    574 / 376    865 / 623
//   hex p2 (1M, Q = 27)    729    216 / 198   446 / 459  606 / 419    1812 / 1213  2346 / 1290  3998 / 2369
//   hex p3 (300k, Q = 64) 4096    363 / 185  1244 / 558 1165 / 505    4075 / 1364  4736 / 1732  7264 / 3736
//
// Loops win on small elements, where a product of 4 x 4 blocks costs more in Eigen's packing than it
// computes; the product wins on gradients from N*Q = 64 (it also yields J for physical gradients) and
// on values only at N*Q = 4096 (on values, loops need C*Q*N and the product the same flops plus a
// scatter).
// Float physical gradients always take the loops: their Jacobian is accumulated in double there, as on
// the GPU, while the product would form it in float.
template <class Real>
bool use_gemm(const Problem<Real>& p) {
  if (std::is_same_v<Real, float> && p.op == Operation::physical_gradients) return false;
  if (FEINTERP_CPU_KERNEL != 2) return FEINTERP_CPU_KERNEL == 1;
  const int work = p.nodes * p.points;
  return p.op == Operation::values ? work >= 2000 : work >= 64;
}

// Calls f(std::integral_constant<int, S>) with the problem's space dimension as a constant: only
// physical gradients read it, the other operations always take the default, so that they are
// instantiated once.
template <int D, class Real, class F>
void with_space_dimension(const Problem<Real>& p, F&& f) {
  const int S = p.op == Operation::physical_gradients ? p.space_dimension : (D == 3 ? 3 : 2);
  if constexpr (D <= 2)
    if (S == 2) return f(std::integral_constant<int, 2>{});
  f(std::integral_constant<int, 3>{});
}

template <class Real>
void run(const Problem<Real>& p, int requested_threads) {
  if (p.elements == 0 || p.points == 0) return;
  const int threads = thread_count(requested_threads, p.elements);
  visit(p.table->type, [&](auto element) {
    using Element = decltype(element);
    with_space_dimension<Element::dimension>(p, [&](auto s) {
      constexpr int S = decltype(s)::value;
      if (use_gemm(p)) {
        parallel_for(p.elements, threads, gemm_chunk(p),
                     [&](offset_t begin, offset_t end) { run_gemm<Element, S>(p, begin, end); });
      } else {
        auto loops = [&](auto cc) {
          parallel_for(p.elements, threads, 1, [&](offset_t begin, offset_t end) {
            run_loops<Element, decltype(cc)::value, S>(p, begin, end);
          });
        };
        switch (p.components) {
          case 1: return loops(std::integral_constant<int, 1>{});
          case 2: return loops(std::integral_constant<int, 2>{});
          case 3: return loops(std::integral_constant<int, 3>{});
          default: return loops(std::integral_constant<int, 0>{});
        }
      }
    });
  });
}

// The table as a (Q*W x N) column-major matrix in Real: row q*W + w, column n.
template <class Real>
std::vector<Real> table_matrix(const Tabulation& t, int W) {
  const int Q = t.points, N = t.nodes, D = t.dimension;
  std::vector<Real> m(std::size_t(Q) * W * N);
  for (int q = 0; q < Q; ++q)
    for (int n = 0; n < N; ++n)
      for (int w = 0; w < W; ++w)
        m[std::size_t(n) * Q * W + std::size_t(q) * W + w] =
            Real(W == 1 ? t.values[std::size_t(q) * N + n] : t.gradients[(std::size_t(q) * N + n) * D + w]);
  return m;
}

// The first node of the block with z != 0, for a block of space dimension 2: refused (fem/orientation.hpp).
template <class Real>
void check_planar(const BlockView& block, const Real* coordinates) {
  if (space_dimension(block) != 2 || !coordinates) return;
  const int N = nodes_per_element(block.type);
  for (offset_t e = 0; e < block.element_count; ++e)
    for (int n = 0; n < N; ++n) {
      const node_index node = block.connectivity[e * N + n];
      const Real z = coordinates[offset_t(node) * 3 + 2];
      if (z != Real(0)) throw_off_plane(block, e, n, node, double(z));
    }
}

// The tensor structure of the plan's points when the element is a quadrilateral or hexahedron and they
// form a tensor product, else nothing.
std::optional<TensorStructure> tensor_structure_of(ElementType type, const PointSet& points) {
  if (type.shape != Shape::quadrilateral && type.shape != Shape::hexahedron) return std::nullopt;
  return tensor_structure(type, points);
}

template <class Real>
std::vector<Real> in_precision(const std::vector<double>& x) {
  return std::vector<Real>(x.begin(), x.end());
}

std::vector<int> inverse_permutation(const std::vector<int>& p) {
  std::vector<int> inverse(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) inverse[std::size_t(p[i])] = int(i);
  return inverse;
}

}  // namespace

template <class Real>
Plan<Real>::Plan(const BlockView& block, offset_t node_count, const PointSet& points, const Real* coordinates,
                 const PlanOptions& options)
    : block_(block),
      node_count_(node_count),
      table_(tabulate(block.type, points)),
      values_(table_matrix<Real>(table_, 1)),
      gradients_(table_matrix<Real>(table_, dimension(block.type.shape))),
      weights_(points.weights),
      coordinates_(coordinates),
      space_dimension_(feinterp::space_dimension(block)),
      tensor_(tensor_structure_of(block.type, points)),
      tensor_B_(tensor_ ? in_precision<Real>(tensor_->values_1d) : std::vector<Real>{}),
      tensor_G_(tensor_ ? in_precision<Real>(tensor_->derivatives_1d) : std::vector<Real>{}),
      lattice_of_point_(tensor_ ? inverse_permutation(tensor_->point_of_lattice) : std::vector<int>{}),
      options_(options) {
  validate_connectivity(block, node_count);
  thread_count(options.threads, 1);  // throws for a bad count, or a bad FEINTERP_NUM_THREADS / OMP_NUM_THREADS
  check_planar(block, coordinates);
}

template <class Real>
KernelVariant Plan<Real>::variant(Operation op, int components) const {
  CpuKernelConfiguration configuration;
  configuration.type = block_.type;
  configuration.points_per_direction = tensor_ ? tensor_->points_per_direction : 0;
  configuration.sum_factorised_compiled =
      tensor_ && sum_factorised_compiled(tensor_->dimension, tensor_->nodes_per_direction, tensor_->points_per_direction);
  configuration.op = op;
  configuration.components = components;
  return choose_cpu_kernel_variant(configuration, options_.variant);
}

template <class Real>
void Plan<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj) const {
  check_interpolation_arguments(
      "apply", interpolation_arguments(op, block_.type, block_.element_count, space_dimension_, table_.type,
                                       table_.points, node_count_, u, out, detj, coordinates_));
  const Problem<Real> p{op,
                        &block_,
                        block_.connectivity,
                        block_.element_count,
                        table_.nodes,
                        table_.points,
                        table_.dimension,
                        space_dimension_,
                        u.components,
                        u.data,
                        coordinates_,
                        out.data,
                        op == Operation::physical_gradients ? detj.data : nullptr,
                        &table_,
                        op == Operation::values ? values_.data() : gradients_.data()};
  if (variant(op, u.components) == KernelVariant::sum_factorised) {
    const SumFactorisedCall<Real> call{op,
                                       &block_,
                                       block_.element_count,
                                       space_dimension_,
                                       u.components,
                                       u.data,
                                       coordinates_,
                                       out.data,
                                       p.detj,
                                       &*tensor_,
                                       tensor_B_.data(),
                                       tensor_G_.data(),
                                       lattice_of_point_.data()};
    if (p.elements == 0 || p.points == 0) return;
    // Each element's results depend on its own data only: any split gives the same bits.
    parallel_for(p.elements, thread_count(options_.threads, p.elements), 1,
                 [&](offset_t begin, offset_t end) { run_sum_factorised(call, begin, end); });
    return;
  }
  run(p, options_.threads);
}

template class Plan<double>;
template class Plan<float>;

}  // namespace feinterp::backends::cpu
