// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's computation: Plan<Real> (plan.hpp) built once, apply(op, ...) with one switch.
//
// Two implementations of the dense per-element work, both with the node count and dimension as
// compile-time constants (dispatched with visit):
//
//   batched: batch_lanes elements side by side, one per SIMD lane (batched_kernels.hpp);
//   product: per chunk of elements, gather U (N x C*chunk) and do one Eigen product with the
//            (Q*W x N) table, then scatter to the layout (for C = 1 the product's column-major result
//            *is* the layout and goes straight to the output).
//
// Field values are combined in the plan's precision Real; the geometry (J, det J, its inverse) in double.
// The variant dense takes the faster of the two for the call's sizes (dense_product_faster);
// dense_batched and dense_product name one (kernel_variant.hpp).
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
#include <feinterp/cpu/batched_kernels.hpp>
#include <feinterp/cpu/dense_call.hpp>
#include <feinterp/cpu/plan.hpp>
#include <feinterp/cpu/sum_factorised_kernels.hpp>
#include <feinterp/cpu/threads.hpp>

namespace feinterp::backends::cpu {

namespace {

// The physical gradients of one point from its reference gradients `reference` (C rows of D) and the
// Jacobian J (S x D): out (C rows of S), det J into p.detj, and the point's orientation recorded.
template <int S, int D, class Real>
void physical_point(const DenseCall<Real>& p, offset_t e, int q, const double (&J)[S][D], const Real* reference, Real* out,
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

// Elements per product: the result block (Q*W rows, K*chunk columns) is kept near 8K values (64 KiB in
// double, inside L2) so that the scatter reads it from cache. A multiple of 8 that depends only on the
// sizes, never on the thread count, so every element sits at the same place in the same product
// whatever the number of threads and the results are bitwise identical.
template <class Real>
offset_t gemm_chunk(const DenseCall<Real>& p) {
  const int columns = p.components + (p.op == Operation::physical_gradients ? p.space_dimension : 0);
  const int rows = p.points * (p.op == Operation::values ? 1 : p.dimension) * columns;
  const offset_t chunk = std::max<offset_t>(8, 8192 / std::max(rows, 1));
  return (chunk + 7) / 8 * 8;
}

template <class Element, int S, class Real>
void run_gemm(const DenseCall<Real>& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  const bool physical = p.op == Operation::physical_gradients;
  const int C = p.components;
  // Columns per element: the C field components, and for physical gradients the S coordinates too,
  // so that the same product yields the Jacobian J[k][d] = sum_n x_k(n) dN_n/dxi_d (the formula of
  // geometry.hpp's jacobian()). Computing J per point with jacobian() instead cost 2.0x the time of
  // the whole call on hex p2 (27 nodes * 9 multiply-adds per point, not vectorised). (Float plans take
  // the batched loops for physical gradients, whose geometry is in double: kernel_variant.cpp.)
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

// Which is faster depends on the work per element, N * Q, and on C. feinterp-cpu-bench, 300k elements,
// degree-2p Gauss rules, FP64, 2 threads, -march=native on the 2-core development VM (an AVX-512 EPYC,
// shared: runs wander by up to 1.2x), each variant forced with FEINTERP_CPU_KERNEL_VARIANT, ms batched /
// product (docs/performance/cpu/simd-across-elements.md):
//
//                          N*Q   values C=1    C=d          ref. grad C=1  C=d          phys. grad C=1  C=d
//   tet p1 (Q = 4)          16   0.71 / 2.29   1.59 / 5.58  1.29 / 2.90    6.23 / 7.00  4.46 / 16.8     11.0 / 31.0
//   tri p2 (Q = 6)          36   1.04 / 3.82   1.85 / 5.09  1.41 / 3.00    3.19 / 8.15  4.12 / 22.8     6.35 / 23.3
//   hex p1 (Q = 8)          64   1.53 / 2.66   4.02 / 6.32  3.34 / 4.35    15.7 / 13.2  10.6 / 30.7     26.8 / 39.8
//   quad p2 (Q = 9)         81   1.77 / 3.34   2.98 / 6.76  2.86 / 4.69    4.67 / 9.80  7.25 / 23.9     9.36 / 27.0
//   tet p2 (Q = 14)        140   3.83 / 4.52   14.8 / 12.8  7.81 / 7.86    30.6 / 27.8  33.8 / 58.5     51.1 / 78.6
//   tet p3 (Q = 24)        480   7.47 / 10.2   20.5 / 25.7  16.1 / 19.2    51.8 / 52.3  52.5 / 109      95.9 / 153
//   hex p2 (Q = 27)        729   10.9 / 12.8   26.1 / 31.0  21.9 / 20.9    82.0 / 67.6  72.2 / 136      146 / 190
//   hex p3 (Q = 64)       4096   77.5 / 39.4   128 / 109    119 / 83.4     257 / 263    386 / 445       509 / 639
//
// The batched loops win nearly everywhere: a product of small blocks costs more in Eigen's packing than
// it computes, and physical gradients run their geometry on whole registers. The product wins where its
// blocks are large: values and reference gradients from N*Q = 2000, and reference gradients of C >= 3
// fields from N*Q = 64, where its C columns share each table row.
//
// Built without AVX (FEINTERP_CPU_ARCH=portable: two lanes of SSE2), 1M elements, ms before (the
// per-element loops and the product) / batched: tet p2 reference gradients 40 / 33, physical 245 / 211,
// but hex p2 152 / 247 and 785 / 956, where the product took them: it does from N*Q = 400 there.
template <class Real>
bool dense_product_faster(const DenseCall<Real>& p) {
  const int work = p.nodes * p.points;
#if !defined(__AVX2__)
  if (work >= 400 && !(std::is_same_v<Real, float> && p.op == Operation::physical_gradients)) return true;
#endif
  switch (p.op) {
    case Operation::values: return work >= 2000;
    case Operation::reference_gradients: return work >= 2000 || (p.components >= 3 && work >= 64);
    default: return false;
  }
}

// `variant`: dense (the rule above), dense_batched or dense_product.
template <class Real>
void run(const DenseCall<Real>& p, KernelVariant variant, int requested_threads) {
  if (p.elements == 0 || p.points == 0) return;
  const int threads = thread_count(requested_threads, p.elements);
  const bool product = variant == KernelVariant::dense_product || (variant == KernelVariant::dense && dense_product_faster(p));
  if (!product) {
    // Each element's results depend on its own data only: any split gives the same bits.
    parallel_for(p.elements, threads, batch_lanes, [&](offset_t begin, offset_t end) { run_batched(p, begin, end); });
    return;
  }
  visit(p.table->type, [&](auto element) {
    using Element = decltype(element);
    with_space_dimension<Element::dimension>(p, [&](auto s) {
      constexpr int S = decltype(s)::value;
      parallel_for(p.elements, threads, gemm_chunk(p),
                   [&](offset_t begin, offset_t end) { run_gemm<Element, S>(p, begin, end); });
    });
  });
}

// The values (W = 1) or the gradients (W = D: a line's gradients have one row per point too) as a
// (Q*W x N) column-major matrix in Real: row q*W + w, column n.
template <class Real>
std::vector<Real> table_matrix(const Tabulation& t, bool gradients) {
  const int Q = t.points, N = t.nodes, D = t.dimension, W = gradients ? D : 1;
  std::vector<Real> m(std::size_t(Q) * W * N);
  for (int q = 0; q < Q; ++q)
    for (int n = 0; n < N; ++n)
      for (int w = 0; w < W; ++w)
        m[std::size_t(n) * Q * W + std::size_t(q) * W + w] =
            Real(gradients ? t.gradients[(std::size_t(q) * N + n) * D + w] : t.values[std::size_t(q) * N + n]);
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
      values_(table_matrix<Real>(table_, false)),
      gradients_(table_matrix<Real>(table_, true)),
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
  configuration.single_precision = std::is_same_v<Real, float>;
  return choose_cpu_kernel_variant(configuration, options_.variant);
}

template <class Real>
void Plan<Real>::apply(Operation op, BasicFieldView<Real> u, BasicOutputView<Real> out, BasicOutputView<Real> detj) const {
  check_interpolation_arguments(
      "apply", interpolation_arguments(op, block_.type, block_.element_count, space_dimension_, table_.type,
                                       table_.points, node_count_, u, out, detj, coordinates_));
  const ForwardCall<Real> forward{op,     &block_,      block_.element_count, space_dimension_, u.components,
                                  u.data, coordinates_, out.data,
                                  op == Operation::physical_gradients ? detj.data : nullptr};
  const DenseCall<Real> p{forward, block_.connectivity, table_.nodes, table_.points, table_.dimension, &table_,
                          op == Operation::values ? values_.data() : gradients_.data()};
  const KernelVariant kernel = variant(op, u.components);
  if (kernel == KernelVariant::sum_factorised) {
    const SumFactorisedCall<Real> call{forward, &*tensor_, tensor_B_.data(), tensor_G_.data(), lattice_of_point_.data()};
    if (p.elements == 0 || p.points == 0) return;
    // Each element's results depend on its own data only: any split gives the same bits.
    parallel_for(p.elements, thread_count(options_.threads, p.elements), 1,
                 [&](offset_t begin, offset_t end) { run_sum_factorised(call, begin, end); });
    return;
  }
  run(p, kernel, options_.threads);
}

template class Plan<double>;
template class Plan<float>;

}  // namespace feinterp::backends::cpu
