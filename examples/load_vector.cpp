// SPDX-License-Identifier: BSD-3-Clause
// A load vector over a whole mesh: b_i = integral of f phi_i, from f evaluated at the quadrature points.
//
// Gmsh meshes the unit cube into second-order tetrahedra (feinterp::mesh's generate_mesh); a MeshOperator
// covers its volume blocks with one global nodal vector. point_coordinates says where the quadrature
// points are, f = 1 + x y is evaluated there, and integrate (the weighted transpose of values) sums
// w_q |det J| f phi_i into the nodes. The shape functions sum to one, so sum_i b_i is the integral of f
// itself, 1 + 1/4, exactly: the degree-4 rule integrates f phi_i (degree 4) exactly on affine tetrahedra.
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>
#include <feinterp/mesh/generate.hpp>

using namespace feinterp;

int main() {
  try {
    GenerateOptions options;
    options.type = {Shape::tetrahedron, 2};
    options.target_elements = 5000;
    const Mesh mesh = generate_mesh(options);

    std::vector<OperatorBlock> blocks;  // the volume: the blocks of the mesh's own dimension
    for (const ElementBlock& b : mesh.blocks)
      if (dimension(b.type.shape) == mesh.dimension) blocks.push_back({b.view(), quadrature_rule(b.type.shape, 4)});
    InterpolatorOptions cpu;
    cpu.executor = Executor::cpu();  // host arrays throughout; ExecutorArray puts them on a GPU instead
    const MeshOperator<double> op(blocks, mesh.node_count(), mesh.coordinates.data(), cpu);

    std::vector<double> x(op.output_size(Operation::values, 3));  // the points, x[p*3 + k]
    op.point_coordinates({x.data(), x.size()});
    std::vector<double> f(x.size() / 3);
    for (std::size_t p = 0; p < f.size(); ++p) f[p] = 1 + x[p * 3] * x[p * 3 + 1];

    std::vector<double> b(std::size_t(mesh.node_count()));
    TransposeOptions weighted;
    weighted.weighted = true;
    op.integrate(Operation::values, {f.data(), f.size(), 1}, {b.data(), b.size()}, weighted);

    const double sum = std::accumulate(b.begin(), b.end(), 0.0), exact = 1.25;
    std::printf("%lld tetrahedra p2, %zu points: sum of b = %.15f (exact %.2f)\n",
                static_cast<long long>(mesh.element_count()), f.size(), sum, exact);
    if (!(std::abs(sum - exact) < 1e-12)) {
      std::fprintf(stderr, "load_vector: error: the load vector integrates f to %.15g, not %.2f\n", sum, exact);
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "load_vector: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
