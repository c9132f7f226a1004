// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's element-batched transposes (cpu/batched_transpose.hpp), entry by entry:
//   * every entry of a transpose is the adjoint of the forward operation, (T f)_j = <F e_j, W f> for each
//     nodal unit vector e_j (W: w_q |det J| when weighted, else 1), on a curved random block of unshared
//     nodes in every space dimension (its last batch short) and on a structured box whose nodes are
//     shared by up to 24 elements (several colours), C = 1 (a compile-time C) and 2 (a run-time one);
//   * an element's bits do not depend on its batch: the element vectors of a block equal, bitwise, those
//     of the same elements listed in reverse order, for the transposes, the fused operators and their
//     diagonals;
//   * of several degenerate elements in different batches and threads, the smallest is named, and a
//     fused operator whose geometry is precomputed names it again at its next call;
//   * the fused operators with their geometry precomputed (PlanOptions::operator_geometry) equal them
//     computed on the fly, for every type and space dimension, no coefficient or a scalar one; a second
//     call the first bitwise; a symmetric-tensor kappa, which always runs on the fly, bitwise the same.
// Every output is poisoned with NaN first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <feinterp/cpu/plan.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>

#include <feinterp/tests/support/random_block.hpp>

namespace feinterp::backends::cpu {
namespace {

// 11 elements: a full batch of 8 and a short one of 3 on AVX-512, uneven ends on narrower registers.
constexpr offset_t uneven_elements = 11;

// The box of 2 cells per side as a test block: its nodes are shared between elements.
test::RandomBlock box_block(ElementType type) {
  const StructuredBox box = structured_box(type, 2);
  test::RandomBlock block;
  block.type = type;
  block.space_dimension = box.view().space_dimension;
  block.coordinates = box.coordinates;
  block.connectivity = box.connectivity;
  block.elements = box.element_count;
  return block;
}

std::vector<double> poisoned(std::size_t size) { return std::vector<double>(size, std::nan("")); }

// Entries of `op`'s point data (its forward output) on the plan's block.
std::size_t point_data_size(const Plan<double>& plan, Operation op, int C) {
  const int D = dimension(plan.block().type.shape);
  const int R = op == Operation::values ? 1 : op == Operation::reference_gradients ? D : plan.space_dimension();
  return std::size_t(plan.block().element_count) * std::size_t(plan.points()) * std::size_t(C * R);
}

// (T f)_j against <F e_j, W f> for every nodal unit vector e_j, relative to the largest |(T f)_j|.
void expect_adjoint_entries(const test::RandomBlock& block, std::mt19937_64& rng, const std::string& what) {
  const PointSet points = quadrature_rule(block.type.shape, 2 * block.type.order);
  const Plan<double> plan(block.view(), block.node_count(), points, block.coordinates.data());
  const int Q = points.size();
  const std::size_t EQ = std::size_t(block.elements) * std::size_t(Q);
  std::vector<double> detj(EQ);
  {
    std::vector<double> out(point_data_size(plan, Operation::physical_gradients, 1));
    const std::vector<double> u(std::size_t(block.node_count()), 0.0);
    plan.apply(Operation::physical_gradients, {u.data(), u.size(), 1}, {out.data(), out.size()}, {detj.data(), detj.size()});
  }
  for (int C : {1, 2})
    for (Operation op : forward_operations)
      for (bool weighted : {false, true}) {
        SCOPED_TRACE(what + ", " + operation_name(transpose_of(op)) + ", C = " + std::to_string(C) +
                     (weighted ? ", weighted" : ""));
        const std::size_t entries = point_data_size(plan, op, C);
        const std::vector<double> f = test::random_field(offset_t(entries), 1, rng);
        std::vector<double> transposed = poisoned(std::size_t(block.node_count()) * C);
        plan.apply_transpose(transpose_of(op), {f.data(), f.size(), C}, {transposed.data(), transposed.size()},
                             {TransposeTarget::nodes, weighted});
        // W f: each point's entries times w_q |det J|.
        std::vector<double> wf = f;
        const std::size_t per_point = entries / EQ;
        if (weighted)
          for (std::size_t eq = 0; eq < EQ; ++eq)
            for (std::size_t i = 0; i < per_point; ++i)
              wf[eq * per_point + i] *= points.weights[eq % std::size_t(Q)] * std::fabs(detj[eq]);
        std::vector<double> expected(transposed.size());
        std::vector<double> unit(transposed.size(), 0.0), forward(entries);
        for (std::size_t j = 0; j < unit.size(); ++j) {
          unit[j] = 1.0;
          plan.apply(op, {unit.data(), unit.size(), C}, {forward.data(), forward.size()});
          unit[j] = 0.0;
          double sum = 0.0;
          for (std::size_t i = 0; i < entries; ++i) sum += forward[i] * wf[i];
          expected[j] = sum;
        }
        EXPECT_LE(test::relative_error(transposed, expected), 1e-12);
      }
}

TEST(CpuBatchedTranspose, EveryEntryIsTheAdjointOfTheForwardOperation) {
  for (ElementType type : all_element_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const std::string seeded = " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")";
    const int D = dimension(type.shape);
    for (int S = D == 3 ? 3 : default_space_dimension(type); S <= 3; ++S)
      expect_adjoint_entries(test::random_block(type, uneven_elements, rng, 0.01, S), rng,
                             to_string(type) + " in " + std::to_string(S) + "D, unshared nodes" + seeded);
    expect_adjoint_entries(box_block(type), rng, to_string(type) + ", structured box" + seeded);
  }
}

// The same elements listed in reverse order: each element meets other neighbours in its batch and other lanes.
test::RandomBlock reversed(const test::RandomBlock& block) {
  test::RandomBlock r = block;
  const std::size_t N = std::size_t(nodes_per_element(block.type));
  for (offset_t e = 0; e < block.elements; ++e)
    std::copy_n(block.connectivity.begin() + std::ptrdiff_t(std::size_t(e) * N), N,
                r.connectivity.begin() + std::ptrdiff_t(std::size_t(block.elements - 1 - e) * N));
  return r;
}

TEST(CpuBatchedTranspose, AnElementsBitsDoNotDependOnItsBatch) {
  const TransposeOptions element_vectors{TransposeTarget::element_vectors, true};
  for (ElementType type : {ElementType{Shape::line, 2}, ElementType{Shape::triangle, 3}, ElementType{Shape::quadrilateral, 1},
                           ElementType{Shape::tetrahedron, 2}, ElementType{Shape::hexahedron, 2}}) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const test::RandomBlock block = test::random_block(type, 21, rng, 0.01, 3);
    const test::RandomBlock backwards = reversed(block);
    const PointSet points = quadrature_rule(type.shape, 2 * type.order);
    const Plan<double> forward_plan(block.view(), block.node_count(), points, block.coordinates.data());
    const Plan<double> backward_plan(backwards.view(), backwards.node_count(), points, backwards.coordinates.data());
    const std::size_t N = std::size_t(nodes_per_element(type));
    for (int C : {1, 3}) {
      const std::string what = to_string(type) + ", C = " + std::to_string(C) + " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")";
      const std::size_t size = std::size_t(block.elements) * N * std::size_t(C);
      // Element e of the block is element E - 1 - e of the reversed one.
      auto expect_same_elements = [&](const std::vector<double>& a, const std::vector<double>& b, const std::string& name) {
        for (offset_t e = 0; e < block.elements; ++e) {
          const auto first = a.begin() + std::ptrdiff_t(std::size_t(e) * N * C);
          const auto second = b.begin() + std::ptrdiff_t(std::size_t(block.elements - 1 - e) * N * C);
          EXPECT_TRUE(std::equal(first, first + std::ptrdiff_t(N * C), second)) << name << ", " << what << ", element " << e;
        }
      };
      for (Operation op : forward_operations) {
        const std::vector<double> f_forward = test::random_field(offset_t(point_data_size(forward_plan, op, C)), 1, rng);
        // The reversed block's point data: element e's rows at E - 1 - e.
        std::vector<double> f_backward(f_forward.size());
        const std::size_t rows = f_forward.size() / std::size_t(block.elements);
        for (offset_t e = 0; e < block.elements; ++e)
          std::copy_n(f_forward.begin() + std::ptrdiff_t(std::size_t(e) * rows), rows,
                      f_backward.begin() + std::ptrdiff_t(std::size_t(block.elements - 1 - e) * rows));
        std::vector<double> a = poisoned(size), b = poisoned(size);
        forward_plan.apply_transpose(transpose_of(op), {f_forward.data(), f_forward.size(), C}, {a.data(), a.size()}, element_vectors);
        backward_plan.apply_transpose(transpose_of(op), {f_backward.data(), f_backward.size(), C}, {b.data(), b.size()}, element_vectors);
        expect_same_elements(a, b, operation_name(transpose_of(op)));
      }
      const std::vector<double> u = test::random_field(block.node_count(), C, rng);
      for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion}) {
        std::vector<double> a = poisoned(size), b = poisoned(size);
        forward_plan.apply_operator(op, {u.data(), u.size(), C}, {a.data(), a.size()}, {}, element_vectors);
        backward_plan.apply_operator(op, {u.data(), u.size(), C}, {b.data(), b.size()}, {}, element_vectors);
        expect_same_elements(a, b, fused_operator_name(op));
        a = poisoned(size);
        b = poisoned(size);
        forward_plan.operator_diagonal(op, C, {a.data(), a.size()}, {}, element_vectors);
        backward_plan.operator_diagonal(op, C, {b.data(), b.size()}, {}, element_vectors);
        expect_same_elements(a, b, std::string(fused_operator_name(op)) + " diagonal");
      }
    }
  }
}

TEST(CpuBatchedTranspose, TheSmallestOfSeveralDegenerateElementsIsNamed) {
  const unsigned seed = test::test_seed();
  std::mt19937_64 rng(seed);
  const ElementType type{Shape::tetrahedron, 2};
  test::RandomBlock block = test::random_block(type, 37, rng);
  const int N = nodes_per_element(type);
  for (offset_t bad : {offset_t(29), offset_t(13), offset_t(30)})  // collapsed onto their first node
    for (int n = 1; n < N; ++n) {
      const node_index node = block.connectivity[std::size_t(bad * N + n)], first = block.connectivity[std::size_t(bad * N)];
      for (int k = 0; k < 3; ++k) block.coordinates[std::size_t(node) * 3 + k] = block.coordinates[std::size_t(first) * 3 + k];
    }
  const PointSet points = quadrature_rule(type.shape, 4);
  for (int threads : {1, 2, 3})
    for (TransposeTarget target : {TransposeTarget::nodes, TransposeTarget::element_vectors}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, " +
                   (target == TransposeTarget::nodes ? "nodes" : "element vectors") +
                   " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")");
      PlanOptions options;
      options.threads = threads;
      const Plan<double> plan(block.view(), block.node_count(), points, block.coordinates.data(), options);
      const std::vector<double> f(point_data_size(plan, Operation::values, 1), 1.0);
      std::vector<double> out = poisoned(std::size_t(block.elements) * std::size_t(N));
      try {
        plan.apply_transpose(Operation::values_transpose, {f.data(), f.size(), 1}, {out.data(), out.size()}, {target, true});
        ADD_FAILURE() << "no DegenerateElementError";
      } catch (const DegenerateElementError& e) {
        EXPECT_EQ(e.element(), 13) << e.what();
      }
      const std::vector<double> u(std::size_t(block.node_count()), 1.0);
      for (int call = 0; call < 2; ++call) try {
          plan.apply_operator(FusedOperator::diffusion, {u.data(), u.size(), 1}, {out.data(), out.size()}, {}, {target});
          ADD_FAILURE() << "no DegenerateElementError at call " << call;
        } catch (const DegenerateElementError& e) {
          EXPECT_EQ(e.element(), 13) << e.what();
        }
    }
}

TEST(CpuBatchedTranspose, PrecomputedGeometryEqualsTheGeometryOnTheFly) {
  for (ElementType type : all_element_types) {
    const unsigned seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const int D = dimension(type.shape);
    for (int S = D == 3 ? 3 : default_space_dimension(type); S <= 3; ++S) {
      const test::RandomBlock block = test::random_block(type, uneven_elements, rng, 0.01, S);
      const PointSet points = quadrature_rule(type.shape, 2 * type.order);
      PlanOptions precomputed, on_the_fly;
      precomputed.operator_geometry = OperatorGeometry::precomputed;
      on_the_fly.operator_geometry = OperatorGeometry::on_the_fly;
      const Plan<double> kept(block.view(), block.node_count(), points, block.coordinates.data(), precomputed);
      const Plan<double> computed(block.view(), block.node_count(), points, block.coordinates.data(), on_the_fly);
      const std::size_t EQ = std::size_t(block.elements) * std::size_t(points.size());
      std::vector<double> scalar(EQ), tensor(EQ * std::size_t(S * (S + 1) / 2));
      std::uniform_real_distribution<double> positive(0.5, 2.0);
      for (double& k : scalar) k = positive(rng);
      for (std::size_t i = 0; i < EQ; ++i)  // kappa = diag(positive) + 0.1 off the diagonal: positive definite
        for (int a = 0; a < S; ++a)
          for (int b = a; b < S; ++b) tensor[i * std::size_t(S * (S + 1) / 2) + std::size_t(symmetric_entry(S, a, b))] = a == b ? positive(rng) : 0.1;
      for (int C : {1, 2}) {
        const std::vector<double> u = test::random_field(block.node_count(), C, rng);
        for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
          for (CoefficientShape shape : {CoefficientShape::none, CoefficientShape::scalar, CoefficientShape::symmetric_tensor}) {
            if (shape == CoefficientShape::symmetric_tensor && op == FusedOperator::mass) continue;  // diffusion only
            SCOPED_TRACE(to_string(type) + " in " + std::to_string(S) + "D, " + fused_operator_name(op) + ", C = " +
                         std::to_string(C) + ", coefficient " + std::to_string(int(shape)) +
                         " (FEINTERP_TEST_SEED=" + std::to_string(seed) + ")");
            const std::vector<double>& k = shape == CoefficientShape::symmetric_tensor ? tensor : scalar;
            const BasicCoefficientView<double> coefficient{shape == CoefficientShape::none ? nullptr : k.data(),
                                                           shape == CoefficientShape::none ? 0 : k.size(), shape};
            std::vector<double> a = poisoned(u.size()), b = poisoned(u.size()), again = poisoned(u.size());
            kept.apply_operator(op, {u.data(), u.size(), C}, {a.data(), a.size()}, coefficient);
            computed.apply_operator(op, {u.data(), u.size(), C}, {b.data(), b.size()}, coefficient);
            kept.apply_operator(op, {u.data(), u.size(), C}, {again.data(), again.size()}, coefficient);
            if (shape == CoefficientShape::symmetric_tensor)
              EXPECT_EQ(a, b) << "a tensor kappa runs on the fly";
            else
              EXPECT_LE(test::relative_error(a, b), 1e-12);
            EXPECT_EQ(again, a) << "the second call";
          }
      }
    }
  }
}

}  // namespace
}  // namespace feinterp::backends::cpu
