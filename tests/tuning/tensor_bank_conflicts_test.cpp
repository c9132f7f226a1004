// SPDX-License-Identifier: BSD-3-Clause
// The sum-factorised forward kernel's per-element buffer strides (cuda/launch/
// tensor_launch_shape.hpp, tensor_bank_conflicts.hpp): a residue gives the stride it asks for and the
// layout keeps its buffers apart; the count of wavefronts agrees with the independent count reported in
// docs/performance/nvidia-h100-80gb-hbm3/element-stride.md; the choice is never worse than the odd
// strides, over every shape the kernel is compiled for. Host code: no GPU needed (the GPU tests run the
// kernel at both strides: tests/cuda/tensor_gpu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <feinterp/cuda/launch/tensor_bank_conflicts.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/tensor_structure.hpp>

namespace feinterp {
namespace {

namespace cuda = backends::cuda;

struct Case {
  cuda::LaunchShape shape;
  TensorStructure maps;
};

/// The sum-factorised launch of `type` at `points` (a tensor-product set), with its Gmsh maps.
Case tensor_case(ElementType type, const PointSet& points, Operation op, int C, Precision precision) {
  const int D = dimension(type.shape);
  const std::optional<TensorStructure> t = tensor_structure(type, points);
  if (!t) throw std::logic_error("not a tensor-product set: " + points.name);
  cuda::LaunchShape shape{type, op, points.size(), C, D, precision};
  shape.variant = cuda::KernelVariant::sum_factorised;
  shape.points_per_direction = t->points_per_direction;
  return {shape, *t};
}

cuda::TensorBufferWavefronts count(const Case& c, cuda::TensorBufferResidues residues) {
  return cuda::count_tensor_wavefronts(c.shape, c.maps.node_lattice, c.maps.point_of_lattice, residues);
}

TEST(TensorBufferStride, IsTheSmallestStrideOfTheResidue) {
  for (int banks : {16, 32})
    for (int needed = 1; needed <= 300; ++needed) {
      EXPECT_EQ(cuda::tensor_buffer_stride(needed, -1, banks), needed | 1);
      for (int residue = 0; residue < banks; ++residue) {
        const int stride = cuda::tensor_buffer_stride(needed, residue, banks);
        ASSERT_GE(stride, needed);
        ASSERT_LT(stride, needed + banks) << needed << " reals, residue " << residue;
        ASSERT_EQ(stride % banks, residue) << needed << " reals";
      }
    }
  EXPECT_EQ(cuda::shared_bank_words(8), 16);
  EXPECT_EQ(cuda::shared_bank_words(4), 32);
}

TEST(TensorSharedLayout, ResiduesMoveTheStridesAndKeepTheBuffersApart) {
  for (std::size_t real_bytes : {std::size_t(8), std::size_t(4)}) {
    const int banks = cuda::shared_bank_words(real_bytes);
    for (Operation op : forward_operations) {
      const auto odd = cuda::tensor_shared_layout(3, 3, 3, 3, op, 1, 32, real_bytes);
      for (int r0 : {0, 5, banks - 1})
        for (int r1 : {1, 11}) {
          const auto layout = cuda::tensor_shared_layout(3, 3, 3, 3, op, 1, 32, real_bytes, {{r0, r1}});
          const int residue[2] = {r0, r1};
          for (int b = 0; b < 2; ++b) {
            EXPECT_EQ(layout.needed[b], odd.needed[b]);
            EXPECT_EQ(layout.stride[b] % banks, residue[b]);
            EXPECT_GE(layout.stride[b], layout.needed[b]);
            EXPECT_EQ(layout.buffer[b] % 16, 0u);
          }
          EXPECT_EQ(layout.buffer[0], odd.buffer[0]);
          EXPECT_GE(layout.buffer[1], layout.buffer[0] + 32 * std::size_t(layout.stride[0]) * real_bytes);
          EXPECT_GE(layout.bytes, layout.buffer[1] + 32 * std::size_t(layout.stride[1]) * real_bytes);
          // At most banks - 1 reals of padding per element and buffer beyond the needed, plus alignment.
          EXPECT_LE(layout.bytes, odd.bytes + 2 * 32 * std::size_t(banks - 1) * real_bytes + 32);
        }
    }
  }
}

// Where two stages end in the gathered buffer (quadrilaterals' values and reference gradients), the kernel
// gathers the next group into the other buffer and the two swap roles: each must then hold every item.
TEST(TensorSharedLayout, BuffersThatSwapRolesHoldEveryItem) {
  for (Operation op : forward_operations)
    for (int C : {1, 2, 9}) {
      const auto quad = cuda::tensor_shared_layout(2, 4, 4, 2, op, C, 8, 8);
      const auto hex = cuda::tensor_shared_layout(3, 4, 4, 3, op, C, 8, 8);
      EXPECT_FALSE(hex.alternating);
      EXPECT_EQ(quad.alternating, op != Operation::physical_gradients) << operation_name(op);
      if (!quad.alternating) continue;
      EXPECT_EQ(quad.output_buffer, 0);
      EXPECT_EQ(quad.needed[0], quad.needed[1]);
      EXPECT_EQ(quad.stride[0], quad.stride[1]);
      // The gathered lattice (4 rows of 5 reals per field), stage 0's rows and the output rows.
      const int R = op == Operation::values ? 1 : 2;
      EXPECT_GE(quad.needed[0], std::max({C * 20, C * 4 * 4 * R, 16 * C * R}));
    }
}

// The figures of element-stride.md, made by an independent program with the same Gmsh maps: its
// totals include the maps' and connectivity's 4-byte reads, which no stride changes
// (hex p2: 2.53125 wavefronts per element, hex p1: 0.75), and this count leaves them out.
TEST(TensorBankConflicts, AgreesWithTheIndependentCount) {
  const ElementType hex2{Shape::hexahedron, 2}, hex1{Shape::hexahedron, 1};
  const Case p2 = tensor_case(hex2, element_nodes(hex2), Operation::reference_gradients, 1, Precision::fp64);
  EXPECT_DOUBLE_EQ(count(p2, {}).total(), 71.28125 - 2.53125);
  EXPECT_DOUBLE_EQ(count(p2, {{11, 11}}).total(), 57.21875 - 2.53125);
  const Case p1 = tensor_case(hex1, element_nodes(hex1), Operation::reference_gradients, 1, Precision::fp64);
  EXPECT_DOUBLE_EQ(count(p1, {}).total(), 19.25 - 0.75);
  EXPECT_DOUBLE_EQ(count(p1, {{4, 4}}).total(), 10.75 - 0.75);
  EXPECT_DOUBLE_EQ(count(p1, {{12, 12}}).total(), 10.75 - 0.75);
}

// Each buffer's count depends on its own stride only (every access touches one buffer): what lets the
// choice take the two residues apart.
TEST(TensorBankConflicts, EachBufferDependsOnItsOwnStrideOnly) {
  const ElementType type{Shape::hexahedron, 2};
  for (Operation op : forward_operations) {
    const Case c = tensor_case(type, element_nodes(type), op, 2, Precision::fp64);
    for (int r = 0; r < 16; r += 3) {
      const cuda::TensorBufferWavefronts first = count(c, {{r, -1}}), second = count(c, {{-1, r}});
      const cuda::TensorBufferWavefronts both = count(c, {{r, r}}), odd = count(c, {});
      EXPECT_EQ(first.buffer[1], odd.buffer[1]);
      EXPECT_EQ(second.buffer[0], odd.buffer[0]);
      EXPECT_EQ(both.buffer[0], first.buffer[0]);
      EXPECT_EQ(both.buffer[1], second.buffer[1]);
    }
  }
}

TEST(TensorBankConflicts, TheDocumentedChoices) {
  const ElementType hex2{Shape::hexahedron, 2}, hex3{Shape::hexahedron, 3}, quad2{Shape::quadrilateral, 2};
  auto chosen = [](ElementType type, int C) {
    const Case c = tensor_case(type, element_nodes(type), Operation::reference_gradients, C, Precision::fp64);
    return cuda::choose_tensor_buffer_residues(c.shape, c.maps.node_lattice, c.maps.point_of_lattice);
  };
  EXPECT_EQ(chosen(hex2, 1), (cuda::TensorBufferResidues{{11, 11}}));  // 9 threads: -20%
  EXPECT_EQ(chosen(quad2, 1), (cuda::TensorBufferResidues{{9, 9}}));   // 3 threads: -20%
  // 16 threads per element fill a half warp: no stride changes the pattern, the odd ones stay.
  EXPECT_EQ(chosen(hex3, 1), cuda::TensorBufferResidues{});
}

// Over every shape the forward kernel is compiled for (Q1 = 1 .. p + 3, three component counts, every
// operation, both precisions): the choice is never worse than the odd strides, a buffer leaves them only
// for strictly fewer wavefronts (buffers that swap roles: one residue for both, for strictly fewer in
// total), and its residues are in range.
TEST(TensorBankConflicts, TheChoiceIsNeverWorseThanTheOddStrides) {
  int changed = 0, shapes = 0, alternating_shapes = 0;
  for (Shape shape : {Shape::quadrilateral, Shape::hexahedron})
    for (int order = 1; order <= 3; ++order) {
      const ElementType type{shape, order};
      const int D = dimension(shape);
      for (int Q1 = 1; Q1 <= cuda::max_tensor_points_per_direction(order); ++Q1) {
        const PointSet points = Q1 == order + 1 ? element_nodes(type) : quadrature_rule(shape, 2 * Q1 - 1);
        for (int C : {1, D, max_components})
          for (Operation op : forward_operations)
            for (Precision precision : {Precision::fp64, Precision::fp32}) {
              const Case c = tensor_case(type, points, op, C, precision);
              ASSERT_EQ(c.shape.points_per_direction, Q1) << points.name;
              const std::string what = to_string(type) + ", " + points.name + ", " + operation_name(op) +
                                       ", C = " + std::to_string(C) + ", " + precision_name(precision);
              const cuda::TensorBufferResidues r =
                  cuda::choose_tensor_buffer_residues(c.shape, c.maps.node_lattice, c.maps.point_of_lattice);
              const cuda::TensorBufferWavefronts odd = count(c, {}), got = count(c, r);
              const int banks = precision == Precision::fp64 ? 16 : 32;
              const bool alternating = cuda::tensor_shared_layout(D, order + 1, Q1, D, op, C, 1, 8).alternating;
              for (int b = 0; b < 2; ++b) {
                ASSERT_GE(r.buffer[b], -1) << what;
                ASSERT_LT(r.buffer[b], banks) << what;
                if (alternating) continue;
                if (r.buffer[b] >= 0) EXPECT_LT(got.buffer[b], odd.buffer[b]) << what << ", buffer " << b;
                else EXPECT_EQ(got.buffer[b], odd.buffer[b]) << what;
              }
              // Buffers that swap roles every group take one residue, chosen for the two together.
              if (alternating) {
                EXPECT_EQ(r.buffer[0], r.buffer[1]) << what;
                if (r.buffer[0] >= 0) EXPECT_LT(got.total(), odd.total()) << what;
                else EXPECT_EQ(got.total(), odd.total()) << what;
                ++alternating_shapes;
              }
              changed += !(r == cuda::TensorBufferResidues{});
              ++shapes;
            }
      }
    }
  EXPECT_GT(changed, 0) << "of " << shapes;
  // Quadrilaterals' values and reference gradients (two stages end in the gathered buffer), in both
  // precisions, at every Q1 and C.
  int expected_alternating = 0;
  for (int order = 1; order <= 3; ++order) expected_alternating += cuda::max_tensor_points_per_direction(order) * 3 * 2 * 2;
  EXPECT_EQ(alternating_shapes, expected_alternating);
}

TEST(TensorBankConflicts, RefusesWhatTheKernelDoesNotRun) {
  const ElementType hex2{Shape::hexahedron, 2}, tet2{Shape::tetrahedron, 2};
  Case c = tensor_case(hex2, element_nodes(hex2), Operation::reference_gradients, 1, Precision::fp64);
  Case transpose = c;
  transpose.shape.op = Operation::reference_gradients_transpose;
  EXPECT_THROW(count(transpose, {}), std::invalid_argument);
  Case too_many = c;
  too_many.shape.points_per_direction = cuda::max_tensor_points_per_direction(2) + 1;
  too_many.shape.points = integer_power(too_many.shape.points_per_direction, 3);
  EXPECT_THROW(count(too_many, {}), std::invalid_argument);
  Case short_maps = c;
  short_maps.maps.point_of_lattice.pop_back();
  EXPECT_THROW(count(short_maps, {}), std::invalid_argument);
  Case simplex = c;
  simplex.shape.type = tet2;
  EXPECT_THROW(count(simplex, {}), std::invalid_argument);
}

}  // namespace
}  // namespace feinterp
