// SPDX-License-Identifier: BSD-3-Clause
// Physical gradients for ParaView, streamed: a field's gradient at the quadrature points of a Gmsh mesh
// written as VTK XML (feinterp::io's VtuWriter) chunk by chunk, so that memory holds one chunk of results
// whatever the mesh.
//
// Gmsh meshes the unit cube into second-order hexahedra; u = x^2 + y z at the nodes. Each chunk of 512
// elements gets its own plan (a BlockView of consecutive elements), its points' positions (the
// coordinates interpolated as a 3-component field) and grad u there, and goes to the writer. The writer
// makes field.vtu (the mesh as curved Lagrange cells, with u) and field_points.vtu (the points, with grad
// u and det J); open both in ParaView. The gradient is checked against (2x, z, y) at every point.
//
//   vtu_for_paraview [OUTPUT.vtu]     (default: field.vtu)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/io/vtu_output.hpp>
#include <feinterp/mesh/generate.hpp>

using namespace feinterp;

int main(int argc, char** argv) {
  try {
    const std::string path = argc > 1 ? argv[1] : "field.vtu";
    GenerateOptions options;
    options.type = {Shape::hexahedron, 2};
    options.target_elements = 4000;
    const Mesh mesh = generate_mesh(options);
    const ElementBlock& block = mesh.blocks.front();

    NodalField u{"u", 1, {}};
    for (offset_t n = 0; n < mesh.node_count(); ++n) {
      const double* x = &mesh.coordinates[std::size_t(n) * 3];
      u.values.push_back(x[0] * x[0] + x[1] * x[2]);
    }

    const PointSet rule = quadrature_rule(block.type.shape, 4);
    const std::size_t E = std::size_t(block.element_count()), Q = std::size_t(rule.size()), chunk = 512;
    io::PointLayout layout;
    layout.components = 1;
    layout.space_dimension = mesh.space_dimension;
    layout.physical_gradients = true;
    layout.blocks.push_back({0, E, int(Q), dimension(block.type.shape)});
    io::VtuWriter writer(path, mesh, u);  // zlib-compressed where feinterp has zlib
    writer.begin(layout);

    InterpolatorOptions cpu;
    cpu.executor = Executor::cpu();
    double worst = 0;
    std::vector<double> x, gradients, detj;
    for (std::size_t first = 0; first < E; first += chunk) {
      const std::size_t count = std::min(chunk, E - first);
      BlockView part = block.view();
      part.connectivity += first * std::size_t(nodes_per_element(block.type));
      part.element_count = offset_t(count);
      part.element_tags += first;
      const Interpolator<double> plan(part, mesh.node_count(), rule, mesh.coordinates.data(), cpu);
      x.resize(plan.output_size(Operation::values, 3));
      gradients.resize(plan.output_size(Operation::physical_gradients, 1));
      detj.resize(plan.detj_size());
      plan.apply(Operation::values, {mesh.coordinates.data(), mesh.coordinates.size(), 3}, {x.data(), x.size()});
      plan.apply(Operation::physical_gradients, {u.values.data(), u.values.size(), 1},
                 {gradients.data(), gradients.size()}, {detj.data(), detj.size()});
      for (std::size_t p = 0; p < count * Q; ++p) {
        const double* at = &x[p * 3];
        const double exact[3] = {2 * at[0], at[2], at[1]};
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(gradients[p * 3 + std::size_t(k)] - exact[k]));
      }
      io::PointChunk results;
      results.block = 0;
      results.first_element = first;
      results.elements = count;
      results.element_tags = part.element_tags;
      results.coordinates = x.data();
      results.physical_gradients = gradients.data();
      results.detj = detj.data();
      writer.write(results);
    }
    writer.finish();
    std::printf("%zu hexahedra p2, %zu points: %s and %s written; largest gradient error %.1e\n", E, E * Q,
                path.c_str(), io::vtu_points_path(path).c_str(), worst);
    if (!(worst < 1e-10)) {
      std::fprintf(stderr, "vtu_for_paraview: error: the gradient is off by %.3g\n", worst);
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vtu_for_paraview: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
