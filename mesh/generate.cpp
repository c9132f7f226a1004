// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/generate.hpp>

#include <gmsh.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include <feinterp/mesh/detail/extract.hpp>
#include <feinterp/mesh/detail/refine.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/gmsh_session.hpp>

namespace feinterp {

namespace {

// Largest coarse mesh generated directly: ~1 s of 2D meshing, ~0.5 s of 3D.
constexpr double max_coarse_elements = 25000;

void set(const char* name, double value) { gmsh::option::setNumber(name, value); }

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::size_t count_elements(int dim) {
  std::vector<int> codes;
  gmsh::model::mesh::getElementTypes(codes, dim);
  std::size_t n = 0;
  for (int code : codes) {
    std::vector<std::size_t> tags, nodes;
    gmsh::model::mesh::getElementsByType(code, tags, nodes);
    n += tags.size();
  }
  return n;
}

void shuffle_nodes(Mesh& mesh, unsigned seed) {
  const std::size_t n = mesh.node_tags.size();
  std::vector<node_index> perm(n);  // perm[new] = old
  for (std::size_t i = 0; i < n; ++i) perm[i] = node_index(i);
  std::mt19937_64 rng(splitmix64(seed ^ 0x5eedull));
  for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);  // bias < 2^-40
  std::vector<node_index> inverse(n);
  std::vector<double> x(3 * n);
  std::vector<std::size_t> tags(n);
  for (std::size_t i = 0; i < n; ++i) {
    inverse[perm[i]] = node_index(i);
    tags[i] = mesh.node_tags[perm[i]];
    for (int k = 0; k < 3; ++k) x[3 * i + k] = mesh.coordinates[3 * std::size_t(perm[i]) + k];
  }
  mesh.node_tags.swap(tags);
  mesh.coordinates.swap(x);
  for (ElementBlock& b : mesh.blocks)
    for (node_index& v : b.connectivity) v = inverse[v];
}

// Physical groups "domain" (the top-dimensional entities) and "boundary" (those one dimension below:
// the surfaces of a volume, the curves of a surface), tags 1 and 2.
void add_boundary_groups(int dim) {
  for (int d : {dim, dim - 1}) {
    gmsh::vectorpair entities;
    gmsh::model::getEntities(entities, d);
    std::vector<int> tags;
    for (const auto& entity : entities) tags.push_back(entity.second);
    const int group = gmsh::model::addPhysicalGroup(d, tags, d == dim ? 1 : 2);
    gmsh::model::setPhysicalName(d, group, d == dim ? domain_group_name : boundary_group_name);
  }
}

// With the boundary kept, Gmsh also hands back the curves of a 3D model (the sphere's seam, the cube's
// edges): only the elements and their boundary are wanted.
void drop_blocks_below(Mesh& mesh, int dim) {
  auto below = [dim](const ElementBlock& b) { return dimension(b.type.shape) < dim; };
  mesh.blocks.erase(std::remove_if(mesh.blocks.begin(), mesh.blocks.end(), below), mesh.blocks.end());
  auto group_below = [dim](const PhysicalGroup& g) { return g.dimension < dim; };
  mesh.physical_groups.erase(std::remove_if(mesh.physical_groups.begin(), mesh.physical_groups.end(), group_below),
                             mesh.physical_groups.end());
}

// A refined mesh back into Gmsh, as one discrete entity per block (of the block's dimension) in the
// block's physical group, so that setOrder raises every block and shares the new nodes between them.
void add_discrete_model(const Mesh& mesh) {
  gmsh::model::add("feinterp-generate-order");
  bool nodes_added = false;
  for (const ElementBlock& b : mesh.blocks) {
    const int dim = dimension(b.type.shape);
    const int entity = gmsh::model::addDiscreteEntity(dim);
    if (!nodes_added) gmsh::model::mesh::addNodes(dim, entity, mesh.node_tags, mesh.coordinates);
    nodes_added = true;
    std::vector<std::size_t> nodes(b.connectivity.size());
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = mesh.node_tags[std::size_t(b.connectivity[k])];
    gmsh::model::mesh::addElementsByType(entity, gmsh_type_code(b.type), b.element_tags, nodes);
    const int physical = b.physical_tags.empty() ? 0 : b.physical_tags.front();
    for (const PhysicalGroup& g : mesh.physical_groups)
      if (physical != 0 && g.tag == physical && g.dimension == dim) {
        gmsh::model::addPhysicalGroup(dim, {entity}, g.tag);
        gmsh::model::setPhysicalName(dim, g.tag, g.name);
      }
  }
}

}  // namespace

Mesh generate_mesh(const GenerateOptions& options) {
  const ElementType type = options.type;
  const std::string context = "cannot generate a " + std::string(shape_name(type.shape)) + " mesh";
  if (type.order < min_order || type.order > max_order)
    throw MeshError(context + ": order " + std::to_string(type.order) + " (expected 1, 2 or 3)");
  if (options.target_elements < 1)
    throw MeshError(context + ": target of " + std::to_string(options.target_elements) +
                    " elements (expected at least 1)");
  const int dim = dimension(type.shape);
  if (options.domain == Domain::sphere && dim == 3)
    throw MeshError(context + ": Domain::sphere is a surface (expected a line, triangle or quadrilateral)");
  if (options.boundary && (dim == 1 || options.domain == Domain::sphere))
    throw MeshError(context + ": a boundary was asked of a " + (dim == 1 ? "line mesh" : "closed surface") +
                    ", which has none to mesh (expected triangles, quadrilaterals, tetrahedra or hexahedra on the "
                    "box or ball)");
  // Quadrilaterals and hexahedra are made by splitting triangles (into 3) and tetrahedra (into 4).
  const bool split = type.shape == Shape::quadrilateral || type.shape == Shape::hexahedron;
  const double refine_factor = double(1 << dim);  // children per element in a uniform refinement
  const double split_factor = !split ? 1.0 : dim == 2 ? 3.0 : 4.0;

  // Coarse simplex count, and how many uniform refinements bring it to the target.
  double coarse = double(options.target_elements) / split_factor;
  int refinements = 0;
  while (coarse > max_coarse_elements) {
    coarse /= refine_factor;
    ++refinements;
  }
  coarse = std::max(coarse, 1.0);

  // Mesh size for `coarse` simplices: a segment of length h; triangle area sqrt(3)/4 h^2; Gmsh's
  // tetrahedra average about h^3 / 8.5 (measured on the unit cube). The calibration below corrects what
  // these miss.
  double measure = 1.0;
  switch (options.domain) {
    case Domain::box: measure = 1.0; break;
    case Domain::ball: measure = dim == 1 ? 2.0 : dim == 2 ? M_PI : 4.0 * M_PI / 3.0; break;
    case Domain::sphere: measure = dim == 1 ? 2.0 * M_PI : 4.0 * M_PI; break;
  }
  const double per_element = dim == 1 ? 1.0 : dim == 2 ? std::sqrt(3.0) / 4.0 : 1.0 / 8.5;
  double h = std::pow(measure / (coarse * per_element), 1.0 / dim);
  const double jitter = double(splitmix64(options.seed) >> 11) / double(1ull << 53);  // [0, 1)
  h *= 0.95 + 0.1 * jitter;
  const double max_h = options.domain == Domain::box ? 1.0 : 2.0;

  GmshSession session;
  Mesh mesh;
  gmsh_call(context, [&] {
    gmsh::model::add("feinterp-generate");
    using namespace gmsh::model;
    switch (options.domain) {
      case Domain::box:
        if (dim == 1) occ::addLine(occ::addPoint(0, 0, 0), occ::addPoint(1, 0, 0));
        if (dim == 2) occ::addRectangle(0, 0, 0, 1, 1);
        if (dim == 3) occ::addBox(0, 0, 0, 1, 1, 1);
        break;
      case Domain::ball:
        if (dim == 1) occ::addLine(occ::addPoint(-1, 0, 0), occ::addPoint(1, 0, 0));
        if (dim == 2) occ::addDisk(0, 0, 0, 1, 1);
        if (dim == 3) occ::addSphere(0, 0, 0, 1);
        break;
      case Domain::sphere:
        if (dim == 1) occ::addCircle(0, 0, 0, 1);
        if (dim == 2) occ::addSphere(0, 0, 0, 1);  // meshed up to dimension 2: its surface only
        break;
    }
    occ::synchronize();
    if (options.boundary) add_boundary_groups(dim);

    // Every option the result depends on is set here (options persist in Gmsh's globals).
    set("General.NumThreads", 1);            // deterministic meshing...
    // ...with a fixed random seed: Gmsh's meshers draw random numbers from a generator that lives on
    // between calls (measured: two identical calls gave 551 and 547 nodes without this).
    set("Mesh.RandomSeed", double(splitmix64(options.seed) % 1000000 + 1));
    set("Mesh.Algorithm", 6);                // Frontal-Delaunay 2D
    // Delaunay 3D: HXT (10) is faster but, measured, not reproducible between two identical calls
    // even with one thread; the coarse mesh has at most 25k tetrahedra, ~0.3 s with Delaunay.
    set("Mesh.Algorithm3D", 1);
    set("Mesh.RecombineAll", 0);
    set("Mesh.RecombinationAlgorithm", 1);
    set("Mesh.SubdivisionAlgorithm", 0);     // coarse simplices first; set below before splitting
    set("Mesh.ElementOrder", 1);
    set("Mesh.SecondOrderLinear", 0);        // high-order nodes on the geometry (curved on the ball)
    set("Mesh.SecondOrderIncomplete", 0);    // complete elements: 9-node quads, 27-node hexes
    set("Mesh.HighOrderOptimize", 0);
    set("Mesh.MeshSizeFromPoints", 0);
    set("Mesh.MeshSizeFromCurvature", 0);
    set("Mesh.MeshSizeExtendFromBoundary", 1);
    set("Mesh.Optimize", 1);
    set("Mesh.OptimizeNetgen", 0);
    set("Mesh.Smoothing", 1);

    auto mesh_coarse = [&](double size) {
      gmsh::model::mesh::clear();
      size = std::min(size, max_h);
      set("Mesh.MeshSizeMin", size);
      set("Mesh.MeshSizeMax", size);
      set("Mesh.SubdivisionAlgorithm", 0);
      gmsh::model::mesh::generate(dim);
      return double(count_elements(dim));
    };
    // Calibration: the element count scales as h^-dim, but only roughly for small meshes (a few
    // hundred elements are dominated by the boundary), so up to 4 corrections, keeping the best size.
    double best_h = h, best_error = 1e300;
    for (int step = 0; step < 5; ++step) {
      const double got = mesh_coarse(h);
      const double error = std::abs(got / coarse - 1.0);
      if (error < best_error) best_error = error, best_h = h;
      if (got <= 0 || error < 0.04 || h >= max_h) break;
      h *= std::pow(got / coarse, 1.0 / dim);
    }
    if (h != best_h) mesh_coarse(best_h);
    if (split) {
      // Split every simplex into quads/hexes. refine() honours Mesh.SubdivisionAlgorithm: with 1 it
      // splits each triangle into 3 quads, with 2 each tetrahedron into 4 hexes; the later refine()
      // calls split quads/hexes into 4/8 (measured: 26 triangles -> 78 quads, 24 tets -> 96 hexes).
      set("Mesh.SubdivisionAlgorithm", dim == 2 ? 1 : 2);
      gmsh::model::mesh::refine();
    }
    LoadOptions load;
    load.keep_lower_dimensional = options.boundary;
    if (refinements == 0) {
      if (type.order > 1) gmsh::model::mesh::setOrder(type.order);  // high-order nodes on the geometry
      mesh = detail::extract_current_model(load, context);
      return;
    }
    // Refinement in feinterp's arrays (detail/refine.hpp: Gmsh's own refine is ~10x too slow), then,
    // for p > 1, back into a discrete Gmsh model for setOrder: high-order nodes on straight edges.
    mesh = detail::extract_current_model(load, context);
    if (options.boundary) drop_blocks_below(mesh, dim - 1);
    for (int i = 0; i < refinements; ++i) detail::refine_uniformly(mesh);
    if (type.order > 1) {
      add_discrete_model(mesh);
      mesh = Mesh();
      gmsh::model::mesh::setOrder(type.order);
      mesh = detail::extract_current_model(load, context);
    }
  });
  if (options.boundary) drop_blocks_below(mesh, dim - 1);
  if (options.shuffle_nodes) shuffle_nodes(mesh, options.seed);
  return mesh;
}

}  // namespace feinterp
