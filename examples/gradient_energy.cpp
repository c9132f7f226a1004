// SPDX-License-Identifier: BSD-3-Clause
// What a FEM code does with feinterp: its own mesh and nodal field in its own arrays, gradients at
// quadrature points from feinterp, and an integral assembled from them.
//
// Mesh: the box [0, 2] x [0, 1] x [0, 1] cut into n^3 second-order hexahedra (27 nodes each),
// numbered on the (2n + 1)^3 grid of nodes. Field: u = x^2 + x y + y z, in Q2, so interpolation is
// exact. Result: the energy integral of |grad u|^2 over the box (exact value 64/3, derived term by
// term in main), assembled with the quadrature weights times the det J that physical_gradients returns. The degree-4 Gauss rule
// integrates the degree-2 integrand exactly on these affine hexahedra, so the only error is round-off.
//
// One code path for both executors: the plan picks the GPU when feinterp was built with CUDA and a
// device is present (else the CPU threads), and the connectivity, coordinates and field go once to
// where it computes (ExecutorArray: device memory for the GPU), as a GPU FEM code would keep them.
#include <cmath>
#include <cstdio>
#include <vector>

#include <feinterp/elements/element_type.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>

using namespace feinterp;

namespace {

struct BoxMesh {
  std::vector<double> coordinates;        // x[node*3 + k]
  std::vector<node_index> connectivity;   // element e, local node n at [e*27 + n], Gmsh order
  offset_t elements = 0, nodes = 0;
};

// The local node n of a Q2 hexahedron sits at reference point xi in {-1, 0, 1}^3 (element_nodes
// gives Gmsh's order), i.e. at grid offset (xi + 1) along each axis from the element's corner.
BoxMesh box_mesh(int n, const double (&length)[3]) {
  const ElementType type{Shape::hexahedron, 2};
  const PointSet local = element_nodes(type);
  const int m = 2 * n + 1;
  BoxMesh mesh;
  mesh.nodes = offset_t(m) * m * m;
  mesh.elements = offset_t(n) * n * n;
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) {
        const int index[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) mesh.coordinates.push_back(length[a] * index[a] / (m - 1));
      }
  for (int ek = 0; ek < n; ++ek)
    for (int ej = 0; ej < n; ++ej)
      for (int ei = 0; ei < n; ++ei)
        for (int l = 0; l < local.size(); ++l) {
          const double* xi = local.point(l);
          const int i = 2 * ei + int(std::lround(xi[0] + 1)), j = 2 * ej + int(std::lround(xi[1] + 1)),
                    k = 2 * ek + int(std::lround(xi[2] + 1));
          mesh.connectivity.push_back(node_index((k * m + j) * m + i));
        }
  return mesh;
}

}  // namespace

int main() {
  try {
    const double length[3] = {2, 1, 1};
    const BoxMesh mesh = box_mesh(12, length);
    std::vector<double> u(std::size_t(mesh.nodes));
    for (offset_t node = 0; node < mesh.nodes; ++node) {
      const double* x = &mesh.coordinates[std::size_t(node * 3)];
      u[std::size_t(node)] = x[0] * x[0] + x[0] * x[1] + x[1] * x[2];
    }

    const ElementType type{Shape::hexahedron, 2};
    const PointSet rule = quadrature_rule(type.shape, 4);
    const std::size_t Q = std::size_t(rule.size()), E = std::size_t(mesh.elements);
    // Where the plan computes (automatic: the GPU if there is one), and the arrays there.
    const Executor executor = resolve_executor(Executor::automatic());
    const ExecutorArray<node_index> connectivity(executor, mesh.connectivity);
    const ExecutorArray<double> coordinates(executor, mesh.coordinates), field(executor, u);
    ExecutorArray<double> gradients_there(executor, E * Q * 3), detj_there(executor, E * Q);

    const BlockView block{type, connectivity.data(), mesh.elements};  // checked once, by the plan
    InterpolatorOptions options;
    options.executor = executor;
    const Interpolator<double> plan(block, mesh.nodes, rule, coordinates.data(), options);
    plan.apply(Operation::physical_gradients, {field.data(), field.size(), 1},
               {gradients_there.data(), gradients_there.size()}, {detj_there.data(), detj_there.size()});
    plan.check();  // on the GPU: waits, and reports a degenerate element if one was met
    const std::vector<double> gradients = gradients_there.to_vector(), detj = detj_there.to_vector();
    const char* where = executor.kind() == ExecutorKind::cuda ? "GPU" : "CPU";

    double energy = 0;
    for (std::size_t e = 0; e < E; ++e)
      for (std::size_t q = 0; q < Q; ++q) {
        const double* g = &gradients[(e * Q + q) * 3];
        energy += rule.weights[q] * detj[e * Q + q] * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
      }
    // int over [0,2]x[0,1]x[0,1] of (2x + y)^2 + (x + z)^2 + y^2, term by term:
    //   4x^2: 32/3   4xy: 4   y^2: 2/3   x^2: 8/3   2xz: 2   z^2: 2/3   y^2: 2/3
    const double exact = 32.0 / 3 + 4 + 2.0 / 3 + 8.0 / 3 + 2 + 2.0 / 3 + 2.0 / 3;
    const double error = std::abs(energy - exact) / exact;
    std::printf("%s: %zu hexahedra p2, %zu points each: int |grad u|^2 = %.15f, exact %.15f, relative error %.1e\n",
                where, E, Q, energy, exact, error);
    if (!(error < 1e-12)) {
      std::fprintf(stderr, "gradient_energy: error: the integral is off by %.3g (relative)\n", error);
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gradient_energy: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
