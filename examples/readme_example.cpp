// SPDX-License-Identifier: BSD-3-Clause
#include <cstdio>
#include <vector>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/interpolator/interpolator.hpp>
using namespace feinterp;

int main() {
  const StructuredBox box = structured_box({Shape::tetrahedron, 2}, 8);  // the unit cube in 3072 p2 tetrahedra
  std::vector<double> u;                                                 // u = x + 2y + 3z at its 4913 nodes
  for (std::size_t i = 0; i < box.coordinates.size(); i += 3)
    u.push_back(box.coordinates[i] + 2 * box.coordinates[i + 1] + 3 * box.coordinates[i + 2]);
  const Executor where = Executor::automatic();  // the GPU if one is usable, else the CPU (as for the plan below)
  const ExecutorArray<node_index> connectivity(where, box.connectivity);  // the mesh and field where it computes
  const ExecutorArray<double> coordinates(where, box.coordinates), field(where, u);
  BlockView block = box.view();
  block.connectivity = connectivity.data();
  const Interpolator<double> plan(block, box.node_count(), quadrature_rule(Shape::tetrahedron, 2), coordinates.data());
  ExecutorArray<double> grad(where, plan.output_size(Operation::physical_gradients, 1));
  plan.apply(Operation::physical_gradients, {field.data(), field.size(), 1}, {grad.data(), grad.size()});
  plan.check();                                    // on the GPU: waits, and reports a degenerate element
  const std::vector<double> g = grad.to_vector();  // g[((e*Q + q)*C + c)*3 + k], C = 1
  std::printf("%s: grad u = (%g, %g, %g), expected (1, 2, 3)\n", executor_name(plan.executor()), g[0], g[1], g[2]);
}
