#include "interpolate.hpp"

#include "arguments.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <exception>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../elements/visit.hpp"
#include "geometry.hpp"
#include "layout.hpp"

// Two implementations of the per-element work, both with the node count and dimension as
// compile-time constants (dispatched with visit):
//
//   loops: per element, gather the C x N nodal values into registers/L1 and run unrolled loops over
//          points, nodes, components and directions (components also compile-time for C <= 3);
//   gemm:  per chunk of elements, gather U (N x C*chunk) and do one Eigen product with the
//          (Q*D x N) table, then scatter to the layout (for C = 1 the product's column-major result
//          *is* the layout and goes straight to the output).
//
// FEINTERP_CPU_KERNEL selects at compile time: 0 loops everywhere, 1 gemm everywhere, 2 (default)
// the faster of the two per operation, as measured with feinterp-cpu-bench (numbers at use_gemm).
#ifndef FEINTERP_CPU_KERNEL
#define FEINTERP_CPU_KERNEL 2
#endif

namespace feinterp {

namespace {

// Everything one interpolation needs, validated.
struct Problem {
  Operation op;
  const BlockView* block;  // for messages (tags)
  const node_index* connectivity;
  offset_t elements;
  int nodes, points, dimension, space_dimension, components;
  const double* u;
  const double* coordinates;  // physical gradients only
  double* out;
  double* detj;  // may be null
  const Tabulation* table;
};

std::string describe(const char* function, const BlockView& block) {
  return std::string(function) + " on a block of " + std::to_string(block.element_count) + " " +
         to_string(block.type) + " elements";
}

Problem validate(const char* function, Operation op, const BlockView& block, const Tabulation& table,
                 const double* coordinates, offset_t node_count, FieldView u, OutputView out, OutputView detj) {
  const std::string where = describe(function, block);
  auto fail = [&](const std::string& what) { throw std::invalid_argument(where + ": " + what); };
  check_order(block.type);
  if (table.type != block.type)
    fail("the tabulation is for " + to_string(table.type) + ", expected one for " + to_string(block.type));
  const int N = nodes_per_element(block.type);
  const int D = dimension(block.type.shape);
  if (table.nodes != N || table.dimension != D || table.points < 0 ||
      table.values.size() != std::size_t(table.points) * N ||
      table.gradients.size() != std::size_t(table.points) * N * D)
    fail("the tabulation is inconsistent: " + std::to_string(table.points) + " points, " +
         std::to_string(table.nodes) + " nodes, dimension " + std::to_string(table.dimension) + ", " +
         std::to_string(table.values.size()) + " values and " + std::to_string(table.gradients.size()) +
         " gradients; expected " + std::to_string(N) + " nodes, dimension " + std::to_string(D) +
         ", points * nodes values and points * nodes * dimension gradients (use tabulate)");
  validate_connectivity(block, node_count);  // also checks the space dimension
  const int S = space_dimension(block);
  check_interpolation_arguments(where, {op, block.type, block.element_count, S, table.type, table.points, node_count,
                                        u, out, detj, coordinates});
  return {op,     &block,      block.connectivity, block.element_count, N,         table.points, D, S, u.components,
          u.data, coordinates, out.data,           detj.data,           &table};
}

// ---- loops ----------------------------------------------------------------------------------------

// Gathers element e's node coordinates, S per node, into xe[n * S + k]; with S = 2 the nodes must lie
// in the plane z = 0 (orientation.hpp).
template <int S, int N>
void gather_coordinates(const Problem& p, offset_t e, const node_index* nodes, double* xe) {
  for (int n = 0; n < N; ++n) {
    const double* x = p.coordinates + offset_t(nodes[n]) * 3;
    for (int k = 0; k < S; ++k) xe[n * S + k] = x[k];
    if (S == 2 && x[2] != 0.0) throw_off_plane(*p.block, e, n, nodes[n], x[2]);
  }
}

// The physical gradients of one point from its reference gradients `reference` (C rows of D) and the
// Jacobian J (S x D): out (C rows of S), det J into p.detj, and the point's orientation recorded.
template <int S, int D>
void physical_point(const Problem& p, offset_t e, int q, const double (&J)[S][D], const double* reference,
                    double* out, OrientationRecord& record) {
  const double det = jacobian_determinant(J);
  record.add(q, det, orientation_of(det, shape_quality(J, det)));
  if (p.detj) p.detj[ValuesLayout{p.elements, p.points, 1}(e, q, 0)] = det;
  double K[S][D];
  inverse_transpose(J, det, K);  // meaningless where det is 0; the element is then refused below
  for (int c = 0; c < p.components; ++c) physical_gradient<S, D>(K, reference + c * D, out + c * S);
}

// CC: the number of components as a compile-time constant, or 0 for a run-time p.components. S: the
// space dimension (used by physical gradients only).
template <class Element, int CC, int S>
void run_loops(const Problem& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int CMAX = CC ? CC : max_components;
  const int C = CC ? CC : p.components;
  const int Q = p.points;
  const double* values = p.table->values.data();
  const double* gradients = p.table->gradients.data();
  const bool physical = p.op == Operation::physical_gradients;
  double ue[N * CMAX];
  double xe[N * S];
  const ValuesLayout values_layout{p.elements, Q, C};
  const GradientsLayout gradients_layout{p.elements, Q, C, physical ? S : D};
  for (offset_t e = begin; e < end; ++e) {
    const node_index* nodes = p.connectivity + e * N;
    for (int n = 0; n < N; ++n) {
      const double* src = p.u + offset_t(nodes[n]) * C;
      for (int c = 0; c < C; ++c) ue[n * C + c] = src[c];
    }
    if (p.op == Operation::values) {
      double* o = p.out + values_layout(e, 0, 0);
      for (int q = 0; q < Q; ++q) {
        const double* t = values + q * N;
        double acc[CMAX] = {};
        for (int n = 0; n < N; ++n)
          for (int c = 0; c < C; ++c) acc[c] += t[n] * ue[n * C + c];
        for (int c = 0; c < C; ++c) o[values_layout(0, q, c)] = acc[c];
      }
      continue;
    }
    if (physical) gather_coordinates<S, N>(p, e, nodes, xe);
    OrientationRecord record;
    double* o = p.out + gradients_layout(e, 0, 0, 0);
    for (int q = 0; q < Q; ++q) {
      const double* g = gradients + q * N * D;
      double acc[CMAX][D] = {};
      for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) acc[c][d] += ue[n * C + c] * g[n * D + d];
      double* oq = o + gradients_layout(0, q, 0, 0);
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

// ---- gemm -----------------------------------------------------------------------------------------

// Elements per product: the result block (Q*D rows, C*chunk columns) is kept near 8K doubles
// (64 KiB, inside L2) so that the scatter reads it from cache. A multiple of 8 that depends only on
// the sizes, never on the thread count, so every element sits at the same place in the same product
// whatever the number of threads and the results are bitwise identical.
offset_t gemm_chunk(const Problem& p) {
  const int columns = p.components + (p.op == Operation::physical_gradients ? p.space_dimension : 0);
  const int rows = p.points * (p.op == Operation::values ? 1 : p.dimension) * columns;
  const offset_t chunk = std::max<offset_t>(8, 8192 / std::max(rows, 1));
  return (chunk + 7) / 8 * 8;
}

template <class Element, int S>
void run_gemm(const Problem& p, offset_t begin, offset_t end) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  using Table = Eigen::Matrix<double, Eigen::Dynamic, N>;
  const bool physical = p.op == Operation::physical_gradients;
  const int C = p.components;
  // Columns per element: the C field components, and for physical gradients the S coordinates too,
  // so that the same product yields the Jacobian J[k][d] = sum_n x_k(n) dN_n/dxi_d (the formula of
  // geometry.hpp's jacobian()). Computing J per point with jacobian() instead cost 2.0x the time of
  // the whole call on hex p2 (27 nodes * 9 multiply-adds per point, not vectorised).
  const int K = C + (physical ? S : 0);
  const int Q = p.points;
  const int R = p.op == Operation::values ? 1 : D;  // table rows per point
  const ValuesLayout values_layout{p.elements, Q, C};
  const GradientsLayout reference_layout{p.elements, Q, C, D};
  const GradientsLayout physical_layout{p.elements, Q, C, S};
  // The table as a (Q*R x N) column-major matrix: row q*R + r, column n.
  Table T(Q * R, N);
  for (int q = 0; q < Q; ++q)
    for (int n = 0; n < N; ++n)
      for (int r = 0; r < R; ++r)
        T(q * R + r, n) = R == 1 ? p.table->values[q * N + n] : p.table->gradients[(q * N + n) * D + r];
  const offset_t chunk = gemm_chunk(p);
  Eigen::Matrix<double, N, Eigen::Dynamic> U(N, K * chunk);
  Eigen::MatrixXd result(Q * R, K * chunk);
  for (offset_t first = begin; first < end; first += chunk) {
    const offset_t m = std::min(chunk, end - first);
    const Eigen::Index columns = Eigen::Index(m * K);
    // Gather: column e*K + c holds component c at the N nodes of element first + e, column
    // e*K + C + k coordinate k.
    double* Ud = U.data();
    for (offset_t e = 0; e < m; ++e) {
      const node_index* nodes = p.connectivity + (first + e) * N;
      for (int n = 0; n < N; ++n) {
        const double* src = p.u + offset_t(nodes[n]) * C;
        for (int c = 0; c < C; ++c) Ud[(e * K + c) * N + n] = src[c];
        if (physical) {
          const double* x = p.coordinates + offset_t(nodes[n]) * 3;
          for (int k = 0; k < S; ++k) Ud[(e * K + C + k) * N + n] = x[k];
          if (S == 2 && x[2] != 0.0) throw_off_plane(*p.block, first + e, n, nodes[n], x[2]);
        }
      }
    }
    // Values and reference gradients: the layout with R directions (R = 1: the values layout).
    double* out = p.out + GradientsLayout{p.elements, Q, C, R}(first, 0, 0, 0);
    // Column e*K + c of the result, row q*R + r, is the result at (element first + e, point q,
    // component c, direction r).
    if (C == 1 && !physical) {
      // Column-major (Q*R x m) is exactly the layout: no scatter.
      Eigen::Map<Eigen::MatrixXd>(out, Q * R, columns).noalias() = T * U.leftCols(columns);
      continue;
    }
    result.leftCols(columns).noalias() = T * U.leftCols(columns);
    const double* rd = result.data();
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
    double reference[max_components * D];
    for (offset_t e = 0; e < m; ++e) {
      const offset_t element = first + e;
      OrientationRecord record;
      for (int q = 0; q < Q; ++q) {
        double J[S][D];
        for (int k = 0; k < S; ++k)
          for (int d = 0; d < D; ++d) J[k][d] = rd[((e * K + C + k) * Q + q) * D + d];
        for (int c = 0; c < C; ++c)
          for (int d = 0; d < D; ++d) reference[c * D + d] = rd[((e * K + c) * Q + q) * D + d];
        physical_point<S, D>(p, element, q, J, reference, p.out + physical_layout(element, q, 0, 0), record);
      }
      check_orientation(*p.block, element, record, D < S);
    }
  }
}

// ---- threads --------------------------------------------------------------------------------------

// Below this many elements per thread, starting a thread (~20 us) costs more than it saves.
constexpr offset_t min_elements_per_thread = 1024;

int thread_count(const CpuOptions& options, offset_t elements) {
  if (options.threads < 0)
    throw std::invalid_argument("CpuOptions::threads is " + std::to_string(options.threads) +
                                ", expected 0 (all hardware threads) or a positive count");
  offset_t threads = options.threads;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<offset_t>(1, elements / min_elements_per_thread));
  return int(threads);
}

// Runs body(begin, end) over [0, elements) in `threads` contiguous ranges whose bounds are multiples of
// `align`. Each range is processed in increasing element order and stops at its first exception, so
// the smallest inverted element of a range is the one reported; across ranges the smallest wins.
template <class Body>
void parallel_for(offset_t elements, int threads, offset_t align, const Body& body) {
  if (threads <= 1) {
    body(offset_t(0), elements);
    return;
  }
  const offset_t blocks = (elements + align - 1) / align;
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::thread> workers;
  workers.reserve(threads);
  auto bound = [&](int t) { return std::min(elements, blocks * t / threads * align); };
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      try {
        body(bound(t), bound(t + 1));
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (auto& worker : workers) worker.join();
  // Ranges are in increasing element order: the first error found is in the smallest range.
  for (auto& error : errors)
    if (error) std::rethrow_exception(error);
}

// Which is faster depends on the work per element, N * Q. Medians of 5 runs, 2 threads, structured
// blocks of feinterp-cpu-bench, degree-2p quadrature, 16-core Xeon (SSE2 build; the 2-core
// development VM was too loaded to time reliably), ms, loops / gemm:
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
bool use_gemm(const Problem& p) {
  if (FEINTERP_CPU_KERNEL != 2) return FEINTERP_CPU_KERNEL == 1;
  const int work = p.nodes * p.points;
  return p.op == Operation::values ? work >= 2000 : work >= 64;
}

// Calls f(std::integral_constant<int, S>) with the problem's space dimension as a constant: only
// physical gradients read it, the other operations always take the default, so that they are
// instantiated once.
template <int D, class F>
void with_space_dimension(const Problem& p, F&& f) {
  const int S = p.op == Operation::physical_gradients ? p.space_dimension : (D == 3 ? 3 : 2);
  if constexpr (D <= 2)
    if (S == 2) return f(std::integral_constant<int, 2>{});
  f(std::integral_constant<int, 3>{});
}

void run(const Problem& p, const CpuOptions& options) {
  if (p.elements == 0 || p.points == 0) return;
  const int threads = thread_count(options, p.elements);
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

}  // namespace

void interpolate_values(const BlockView& block, const Tabulation& table, offset_t node_count, FieldView u,
                        OutputView out, const CpuOptions& options) {
  run(validate("interpolate_values", Operation::values, block, table, nullptr, node_count, u, out, {}), options);
}

void interpolate_reference_gradients(const BlockView& block, const Tabulation& table, offset_t node_count,
                                     FieldView u, OutputView out, const CpuOptions& options) {
  run(validate("interpolate_reference_gradients", Operation::reference_gradients, block, table, nullptr, node_count,
               u, out, {}),
      options);
}

void interpolate_physical_gradients(const BlockView& block, const Tabulation& table, const double* coordinates,
                                    offset_t node_count, FieldView u, OutputView gradients, OutputView detj,
                                    const CpuOptions& options) {
  run(validate("interpolate_physical_gradients", Operation::physical_gradients, block, table, coordinates,
               node_count, u, gradients, detj),
      options);
}

}  // namespace feinterp
