#include "write.hpp"

#include <gmsh.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../elements/visit.hpp"
#include "error.hpp"
#include "gmsh_session.hpp"

namespace feinterp {

namespace {

int padded_components(int per_point) {
  if (per_point == 1) return 1;
  if (per_point <= 3) return 3;
  if (per_point <= 9) return 9;
  return -1;
}

bool points_are_element_nodes(ElementType type, const PointSet& points) {
  return visit(type, [&](auto element) {
    using E = decltype(element);
    if (points.shape != E::shape || points.size() != E::nodes_per_element) return false;
    for (int n = 0; n < E::nodes_per_element; ++n) {
      double xi[3];
      E::reference_node(n, xi);
      for (int d = 0; d < E::dimension; ++d)
        if (std::abs(points.point(n)[d] - xi[d]) > 1e-12) return false;
    }
    return true;
  });
}

// One point's C*max(D,1) numbers into `padded` slots, rows of D padded to 3 for gradients.
void pad(const double* in, int components, int dimension, int padded, double* out) {
  for (int i = 0; i < padded; ++i) out[i] = 0.0;
  if (dimension == 0) {
    for (int c = 0; c < components; ++c) out[c] = in[c];
  } else {
    for (int c = 0; c < components; ++c)
      for (int d = 0; d < dimension; ++d) out[c * 3 + d] = in[c * dimension + d];
  }
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void write_msh(const std::string& path, const Mesh& mesh, const std::vector<NodalField>& nodal_fields,
               const std::vector<PointData>& point_data, const WriteOptions& options) {
  const std::string context = "cannot write mesh '" + path + "'";
  auto fail = [&](const std::string& problem) { throw MeshError(context + ": " + problem); };

  // ---- everything is checked before anything is written ----------------------------------------------
  if (options.version != 4.1 && options.version != 2.2)
    fail("MSH version " + std::to_string(options.version) + " (expected 4.1 or 2.2)");
  const std::size_t n = mesh.node_tags.size();
  if (n == 0 || mesh.coordinates.size() != 3 * n)
    fail(std::to_string(mesh.coordinates.size()) + " coordinates for " + std::to_string(n) +
         " node tags (expected 3 per node, at least one node)");
  if (mesh.blocks.empty()) fail("the mesh has no element blocks (expected at least one)");
  for (const ElementBlock& b : mesh.blocks) {
    const std::size_t per = std::size_t(nodes_per_element(b.type));
    if (b.connectivity.size() != b.element_tags.size() * per)
      fail("block " + to_string(b.type) + " has " + std::to_string(b.connectivity.size()) + " connectivity entries for " +
           std::to_string(b.element_tags.size()) + " element tags (expected " + std::to_string(per) + " per element)");
    try {
      validate_connectivity(b.view(), offset_t(n));
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  for (const NodalField& f : nodal_fields)
    if (f.components < 1 || padded_components(f.components) < 0 || f.values.size() != n * std::size_t(f.components))
      fail("nodal field '" + f.name + "' has " + std::to_string(f.values.size()) + " values, " +
           std::to_string(f.components) + " components (expected 1 to 9 components at each of " + std::to_string(n) +
           " nodes)");
  for (const PointData& p : point_data) {
    if (p.block >= mesh.blocks.size())
      fail("point data '" + p.name + "' refers to block " + std::to_string(p.block) + " of " +
           std::to_string(mesh.blocks.size()));
    const ElementBlock& b = mesh.blocks[p.block];
    const int per_point = p.dimension == 0 ? p.components : p.components * 3;
    if (p.components < 1 || p.dimension < 0 || p.dimension > 3 || padded_components(per_point) < 0)
      fail("point data '" + p.name + "' has " + std::to_string(p.components) + " components of dimension " +
           std::to_string(p.dimension) + " (expected at most 9 values per point once gradient rows are padded to 3)");
    if (p.points.shape != b.type.shape || p.points.size() < 1)
      fail("point data '" + p.name + "' has points on a " + shape_name(p.points.shape) + " for a block of " +
           to_string(b.type));
    const std::size_t expected = std::size_t(b.element_count()) * std::size_t(p.points.size()) *
                                 std::size_t(p.components) * std::size_t(std::max(p.dimension, 1));
    if (!p.data || p.size != expected)
      fail("point data '" + p.name + "' has " + std::to_string(p.size) + " values (expected " +
           std::to_string(expected) + " = elements x points x components" + (p.dimension ? " x dimension)" : ")"));
  }

  const std::string dir = directory_of(path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    fail("the directory '" + dir + "' does not exist (expected an existing directory)");
  static std::atomic<unsigned> counter{0};
  const std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::string temporary = dir + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
                                std::to_string(counter++) + ".msh";  // .msh: Gmsh picks the format by extension

  // Element tags: the mesh's own when every block has them and the format is 4.1. Gmsh's MSH 2.2 writer
  // renumbers elements 1..N in its own write order (lower dimensions first, then triangles before
  // quadrangles, tetrahedra before hexahedra) while its view writer keeps the original tags (measured:
  // ElementData tags that matched no element), so for 2.2 the tags are made 1..N in that order first.
  bool have_element_tags = options.version > 4;
  for (const ElementBlock& b : mesh.blocks) have_element_tags &= !b.element_tags.empty();
  std::vector<std::vector<std::size_t>> element_tags(mesh.blocks.size());
  std::vector<std::size_t> order(mesh.blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const ElementType ta = mesh.blocks[a].type, tb = mesh.blocks[b].type;
    return std::make_pair(dimension(ta.shape), int(ta.shape)) < std::make_pair(dimension(tb.shape), int(tb.shape));
  });
  std::size_t next = 1;
  for (std::size_t i : order) {
    element_tags[i] = mesh.blocks[i].element_tags;
    if (!have_element_tags)
      for (std::size_t& t : element_tags[i]) t = next++;
  }

  try {
    GmshSession session;
    gmsh_call(context, [&] {
      const std::string model = "feinterp-write";
      gmsh::model::add(model);
      int entities[4] = {0, 0, 0, 0};
      auto entity = [&](int dim) {
        if (!entities[dim]) entities[dim] = gmsh::model::addDiscreteEntity(dim);
        return entities[dim];
      };
      const int top = std::max(2, mesh.dimension);
      gmsh::model::mesh::addNodes(top, entity(top), mesh.node_tags, mesh.coordinates);
      for (std::size_t i = 0; i < mesh.blocks.size(); ++i) {
        const ElementBlock& b = mesh.blocks[i];
        std::vector<std::size_t> nodes(b.connectivity.size());
        for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = mesh.node_tags[std::size_t(b.connectivity[k])];
        gmsh::model::mesh::addElementsByType(entity(dimension(b.type.shape)), gmsh_type_code(b.type), element_tags[i],
                                             nodes);
      }

      std::vector<int> views;
      for (const NodalField& f : nodal_fields) {
        const int padded = padded_components(f.components);
        std::vector<double> data(n * std::size_t(padded), 0.0);
        for (std::size_t i = 0; i < n; ++i)
          pad(&f.values[i * std::size_t(f.components)], f.components, 0, padded, &data[i * std::size_t(padded)]);
        const int view = gmsh::view::add(f.name);
        gmsh::view::addHomogeneousModelData(view, 0, model, "NodeData", mesh.node_tags, data, 0.0, padded);
        views.push_back(view);
      }
      for (const PointData& p : point_data) {
        const ElementBlock& b = mesh.blocks[p.block];
        const std::size_t E = std::size_t(b.element_count()), Q = std::size_t(p.points.size());
        const int per_point_in = p.components * std::max(p.dimension, 1);
        const int padded = padded_components(p.dimension == 0 ? p.components : p.components * 3);
        const bool at_nodes = points_are_element_nodes(b.type, p.points);
        std::vector<double> data(E * (at_nodes ? Q : 1) * std::size_t(padded), 0.0);
        std::vector<double> one(static_cast<std::size_t>(padded));
        double total_weight = 0;
        for (std::size_t q = 0; q < Q; ++q) total_weight += p.points.weights.size() == Q ? p.points.weights[q] : 1.0;
        for (std::size_t e = 0; e < E; ++e)
          for (std::size_t q = 0; q < Q; ++q) {
            pad(p.data + (e * Q + q) * std::size_t(per_point_in), p.components, p.dimension, padded, one.data());
            if (at_nodes) {
              std::copy(one.begin(), one.end(), data.begin() + std::ptrdiff_t((e * Q + q) * std::size_t(padded)));
            } else {
              const double w = (p.points.weights.size() == Q ? p.points.weights[q] : 1.0) / total_weight;
              for (int c = 0; c < padded; ++c) data[e * std::size_t(padded) + std::size_t(c)] += w * one[std::size_t(c)];
            }
          }
        const int view = gmsh::view::add(p.name);
        gmsh::view::addHomogeneousModelData(view, 0, model, at_nodes ? "ElementNodeData" : "ElementData",
                                            element_tags[p.block], data, 0.0, padded);
        views.push_back(view);
      }

      gmsh::option::setNumber("Mesh.MshFileVersion", options.version);
      gmsh::option::setNumber("Mesh.Binary", options.binary ? 1 : 0);
      gmsh::option::setNumber("Mesh.SaveAll", 1);  // no physical groups: without this nothing is saved
      gmsh::option::setNumber("Mesh.SaveParametric", 0);
      gmsh::option::setNumber("PostProcessing.SaveMesh", 0);  // the mesh is written once, below
      gmsh::write(temporary);
      for (int view : views) gmsh::view::write(view, temporary, true);
      const std::vector<std::string> errors = session.errors();
      if (!errors.empty()) fail("Gmsh: " + errors.front());
    });
    struct stat written {};
    if (::stat(temporary.c_str(), &written) != 0 || written.st_size == 0)
      fail("Gmsh wrote nothing to the temporary file '" + temporary + "'");
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
      fail("cannot rename '" + temporary + "' to it: " + std::strerror(errno));
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
}

}  // namespace feinterp
