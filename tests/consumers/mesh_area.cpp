// SPDX-License-Identifier: BSD-3-Clause
// A consumer of feinterp::mesh: a generated unit square of second-order triangles, its area as the sum of
// w_q det J over the quadrature points (1 up to round-off). Exits 1 with the area otherwise.
#include <cmath>
#include <cstdio>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/mesh/generate.hpp>

int main() {
  using namespace feinterp;
  GenerateOptions options;
  options.type = {Shape::triangle, 2};
  options.target_elements = 200;
  const Mesh mesh = generate_mesh(options);
  const ElementBlock& block = mesh.blocks.at(0);
  const PointSet rule = quadrature_rule(Shape::triangle, 4);
  const Interpolator<double> plan(block.view(), mesh.node_count(), rule, mesh.coordinates.data(), {Executor::cpu()});
  std::vector<double> x(mesh.coordinates), gradients(plan.output_size(Operation::physical_gradients, 3)),
      detj(plan.detj_size());
  plan.apply(Operation::physical_gradients, {x.data(), x.size(), 3}, {gradients.data(), gradients.size()},
             {detj.data(), detj.size()});
  double area = 0;
  for (std::size_t k = 0; k < detj.size(); ++k) area += rule.weights[k % rule.weights.size()] * std::abs(detj[k]);
  std::printf("mesh_area: %lld triangles, area %.17g\n", (long long)block.element_count(), area);
  return std::abs(area - 1.0) < 1e-12 ? 0 : 1;
}
