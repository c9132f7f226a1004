// SPDX-License-Identifier: BSD-3-Clause
// The CPU's sum-factorised forward kernels (sum_factorised_kernels.hpp): per element, the gather through
// the node permutation into the P1^d lattice (the S coordinates as fields C .. C + S - 1 for physical
// gradients, so that the same stages contract J), the d stages of fem/sum_factorisation.hpp one after
// the other, and the last stage's store through the point permutation straight into the element's
// output rows [(q * C + c) * R + r]; physical gradients go through the lattice's reference gradients and
// tensor_physical_gradients (J, det J and K in double, as the dense kernels), point by point in the
// point set's order so that a degenerate element reports the same point as the dense kernels do.
//
// Every size is a compile-time constant per (d, P1, Q1): the stage buffers live on the stack and the
// stages' loops over the P1 inputs unroll. The table holds P1 = 2..4 (orders 1-3) and Q1 = P1 - 1 ..
// P1 + 1: degree-2p Gauss rules and the node lattice (Q1 = P1), the degree-2p + 2 rules of the fused
// operators (P1 + 1) and one point fewer; 18 entries of 3 (quadrilaterals 4, with S = 3) operations in
// each precision. Other Q1 take the dense product.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cpu/sum_factorised_kernels.hpp>

namespace feinterp::backends::cpu {

namespace {

// CC: the component count as a constant (1 or d, the common fields), or 0 for p.components. Flattened:
// the stages are shared by every C and were otherwise left out of line, their field loops run-time
// (hexahedra p2, all three operations, C = 1 and 3: the stages took 61% of the time as calls).
template <int D, int P1, int Q1, int CC, Operation Op, int S, class Real>
[[gnu::flatten]] void run_range(const SumFactorisedCall<Real>& p, offset_t begin, offset_t end) {
  constexpr bool gradients = Op != Operation::values;
  constexpr bool physical = Op == Operation::physical_gradients;
  constexpr int N = integer_power(P1, D);
  constexpr int Q = integer_power(Q1, D);
  constexpr int R = physical ? S : gradients ? D : 1;  // results per (point, component)
  constexpr int max_fields = max_components + (physical ? S : 0);
  const int C = CC ? CC : p.components;
  const int F = physical ? C + S : C;  // fields contracted
  const int CR = C * R;

  int node_lattice[N], point_of_lattice[Q], lattice_of_point[Q];
  for (int n = 0; n < N; ++n) node_lattice[n] = p.tensor->node_lattice[std::size_t(n)];
  for (int l = 0; l < Q; ++l) {
    point_of_lattice[l] = p.tensor->point_of_lattice[std::size_t(l)];
    lattice_of_point[l] = p.lattice_of_point[l];
  }
  Real B[Q1 * P1], G[Q1 * P1];
  for (int i = 0; i < Q1 * P1; ++i) {
    B[i] = p.B[i];
    G[i] = p.G[i];
  }
  Real lattice[max_fields * N];
  Real stage0[tensor_stage_size(D, P1, Q1, max_fields, gradients, 0)];
  Real stage1[D == 3 ? tensor_stage_size(D, P1, Q1, max_fields, gradients, 1) : 1];
  Real reference[physical ? max_fields * D * Q : 1];  // physical: every field's reference gradients, [(f * D + d) * Q + l]

  const node_index* connectivity = p.block->connectivity;
  for (offset_t e = begin; e < end; ++e) {
    const node_index* nodes = connectivity + e * N;
    for (int n = 0; n < N; ++n) {
      const int a = node_lattice[n];
      const Real* source = p.u + offset_t(nodes[n]) * C;
      for (int c = 0; c < C; ++c) lattice[c * N + a] = source[c];
      if constexpr (physical) {
        const Real* x = p.coordinates + offset_t(nodes[n]) * 3;
        for (int k = 0; k < S; ++k) lattice[(C + k) * N + a] = x[k];
      }
    }
    // The last stage writes the element's output rows (out_stride 1, CR reals per point, through the point
    // permutation), or for physical gradients the lattice's reference gradients.
    Real* const last_out = physical ? reference : p.out + offset_t(e) * Q * CR;
    const int last_stride = physical ? Q : 1;
    const int* const last_map = physical ? nullptr : point_of_lattice;
    const int last_point_stride = physical ? 1 : CR;
    tensor_contract<D, P1, Q1, gradients, 0>(F, 0, 1, lattice, stage0, B, G);
    if constexpr (D == 2) {
      tensor_contract<D, P1, Q1, gradients, 1>(F, 0, 1, stage0, last_out, B, G, last_stride, last_map, last_point_stride);
    } else {
      tensor_contract<D, P1, Q1, gradients, 1>(F, 0, 1, stage0, stage1, B, G);
      tensor_contract<D, P1, Q1, gradients, 2>(F, 0, 1, stage1, last_out, B, G, last_stride, last_map, last_point_stride);
    }
    if constexpr (physical) {
      Real* const out = p.out + offset_t(e) * Q * CR;
      OrientationRecord record;
      for (int q = 0; q < Q; ++q) {
        unsigned bit = 0u;
        const double det = tensor_physical_gradients<D, S>(C, reference, Q, lattice_of_point[q], out + q * CR, 1, 0, bit);
        record.add(q, det, bit);
        if (p.detj) p.detj[ValuesLayout{p.elements, Q, 1}(e, q, 0)] = Real(det);
      }
      check_orientation(*p.block, e, record, D < S);
    }
  }
}

template <class Real>
using RangeKernel = void (*)(const SumFactorisedCall<Real>&, offset_t, offset_t);

// One entry of the table: the kernels of (d, P1, Q1), each for C = 1, C = d (the common fields, whose
// stage loops the compiler can unroll whole) and any C; physical_in_2 is null for hexahedra.
template <class Real>
struct Kernels {
  RangeKernel<Real> values[3], reference_gradients[3], physical_in_2[3], physical_in_3[3];
};

// Entry i of the table: d = 2 + i / 9, P1 = 2 + (i / 3) % 3, Q1 = P1 - 1 + i % 3.
constexpr int table_entries = 18;
constexpr int entry_dimension(int i) { return 2 + i / 9; }
constexpr int entry_nodes(int i) { return 2 + i / 3 % 3; }
constexpr int entry_points(int i) { return entry_nodes(i) - 1 + i % 3; }

template <int I, class Real>
constexpr Kernels<Real> entry() {
  constexpr int D = entry_dimension(I), P1 = entry_nodes(I), Q1 = entry_points(I);
  Kernels<Real> k{{&run_range<D, P1, Q1, 1, Operation::values, D, Real>, &run_range<D, P1, Q1, D, Operation::values, D, Real>,
                   &run_range<D, P1, Q1, 0, Operation::values, D, Real>},
                  {&run_range<D, P1, Q1, 1, Operation::reference_gradients, D, Real>,
                   &run_range<D, P1, Q1, D, Operation::reference_gradients, D, Real>,
                   &run_range<D, P1, Q1, 0, Operation::reference_gradients, D, Real>},
                  {nullptr, nullptr, nullptr},
                  {&run_range<D, P1, Q1, 1, Operation::physical_gradients, 3, Real>,
                   &run_range<D, P1, Q1, D, Operation::physical_gradients, 3, Real>,
                   &run_range<D, P1, Q1, 0, Operation::physical_gradients, 3, Real>}};
  if constexpr (D == 2) {
    k.physical_in_2[0] = &run_range<D, P1, Q1, 1, Operation::physical_gradients, 2, Real>;
    k.physical_in_2[1] = &run_range<D, P1, Q1, D, Operation::physical_gradients, 2, Real>;
    k.physical_in_2[2] = &run_range<D, P1, Q1, 0, Operation::physical_gradients, 2, Real>;
  }
  return k;
}

template <class Real, int... I>
constexpr auto make_table(std::integer_sequence<int, I...>) {
  struct Table {
    Kernels<Real> entries[table_entries];
  };
  return Table{{entry<I, Real>()...}};
}

int entry_index(int dimension, int nodes_per_direction, int points_per_direction) {
  if (dimension < 2 || dimension > 3 || nodes_per_direction < 2 || nodes_per_direction > 4) return -1;
  const int offset = points_per_direction - (nodes_per_direction - 1);
  if (offset < 0 || offset > 2) return -1;
  return (dimension - 2) * 9 + (nodes_per_direction - 2) * 3 + offset;
}

}  // namespace

bool sum_factorised_compiled(int dimension, int nodes_per_direction, int points_per_direction) {
  return entry_index(dimension, nodes_per_direction, points_per_direction) >= 0;
}

template <class Real>
void run_sum_factorised(const SumFactorisedCall<Real>& call, offset_t begin, offset_t end) {
  static constexpr auto table = make_table<Real>(std::make_integer_sequence<int, table_entries>{});
  const TensorStructure& t = *call.tensor;
  const int i = entry_index(t.dimension, t.nodes_per_direction, t.points_per_direction);
  if (i < 0)
    throw std::invalid_argument("no sum-factorised CPU kernel for " + to_string(t.type) + " at " +
                                std::to_string(t.points_per_direction) + " points per direction");
  const Kernels<Real>& k = table.entries[i];
  const int c = call.components == 1 ? 0 : call.components == t.dimension ? 1 : 2;
  RangeKernel<Real> kernel = call.op == Operation::values                ? k.values[c]
                             : call.op == Operation::reference_gradients ? k.reference_gradients[c]
                             : call.space_dimension == 2                 ? k.physical_in_2[c]
                                                                         : k.physical_in_3[c];
  if (!kernel || is_transpose(call.op))
    throw std::invalid_argument(std::string("no sum-factorised CPU kernel for ") + operation_name(call.op) + " of " +
                                to_string(t.type) + " in a space of dimension " + std::to_string(call.space_dimension));
  kernel(call, begin, end);
}

template void run_sum_factorised<double>(const SumFactorisedCall<double>&, offset_t, offset_t);
template void run_sum_factorised<float>(const SumFactorisedCall<float>&, offset_t, offset_t);

}  // namespace feinterp::backends::cpu
