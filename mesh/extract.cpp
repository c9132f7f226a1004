// SPDX-License-Identifier: BSD-3-Clause
#include <gmsh.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/detail/extract.hpp>
#include <feinterp/mesh/error.hpp>

namespace feinterp::detail {

NodeTagMap::NodeTagMap(const std::vector<std::size_t>& tags) {
  std::size_t max_tag = 0;
  for (std::size_t t : tags) max_tag = std::max(max_tag, t);
  if (max_tag <= 2 * tags.size() + 1024) {
    dense_.assign(max_tag + 1, -1);
    for (std::size_t i = 0; i < tags.size(); ++i) {
      if (dense_[tags[i]] >= 0 && !duplicate_) duplicate_ = tags[i];
      dense_[tags[i]] = node_index(i);
    }
  } else {  // sparse tags (e.g. a sub-mesh cut out of a larger one): binary search, 16 B per node
    sorted_.reserve(tags.size());
    for (std::size_t i = 0; i < tags.size(); ++i) sorted_.emplace_back(tags[i], node_index(i));
    std::sort(sorted_.begin(), sorted_.end());
    for (std::size_t i = 1; i < sorted_.size(); ++i)
      if (sorted_[i].first == sorted_[i - 1].first && !duplicate_) duplicate_ = sorted_[i].first;
  }
}

node_index NodeTagMap::find(std::size_t tag) const {
  if (!dense_.empty() || sorted_.empty()) return tag < dense_.size() ? dense_[tag] : -1;
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(tag, node_index(-1)));
  return it != sorted_.end() && it->first == tag ? it->second : -1;
}

namespace {

struct TypeInfo {
  int code = 0;
  std::string name;
  int dim = 0;
  std::size_t count = 0;
};

std::string type_name(int code) {
  std::string name;
  int dim = 0, order = 0, nodes = 0, primary = 0;
  std::vector<double> local;
  gmsh::model::mesh::getElementProperties(code, name, dim, order, nodes, local, primary);
  return name;
}

std::string describe(const TypeInfo& t) {
  return "'" + t.name + "' (Gmsh type " + std::to_string(t.code) + "): " + std::to_string(t.count) + " elements";
}

// The elements of one Gmsh type, gathered over entities.
struct Bucket {
  int dim = 0;
  std::vector<std::size_t> element_tags, node_tags;
  std::vector<int> physical_tags;
};

// Gmsh 4.8.4 keeps an entity's elements in one list per family (triangles, quadrangles, ...) and
// assumes all of a list have the type of its first element: getElementTypes reports only that type,
// and getElementsByType sizes its output for it and then writes each element's real node count,
// overflowing the heap when a 6-node triangle follows a 3-node one in the same entity (measured:
// "corrupted double-linked list"). So the element tags of each family are fetched without their nodes
// (the preallocated, multi-task form of getElementsByType never writes nodes when given none), and
// each element's real type and nodes come from getElement: ~170 ns per element, 0.17 s per million.
void collect_entity(int dim, int entity, std::map<int, Bucket>& buckets) {
  std::vector<int> codes;
  gmsh::model::mesh::getElementTypes(codes, dim, entity);
  std::vector<int> groups;
  gmsh::model::getPhysicalGroupsForEntity(dim, entity, groups);
  const int physical = groups.empty() ? 0 : groups.front();
  for (int code : codes) {
    std::vector<std::size_t> element_tags, no_nodes;
    gmsh::model::mesh::preallocateElementsByType(code, true, false, element_tags, no_nodes, entity);
    for (std::size_t task = 0; task < 2; ++task)
      gmsh::model::mesh::getElementsByType(code, element_tags, no_nodes, entity, task, 2);
    int real = 0;
    std::vector<std::size_t> nodes;
    for (std::size_t tag : element_tags) {
      gmsh::model::mesh::getElement(tag, real, nodes);
      Bucket& b = buckets[real];
      b.dim = dim;
      b.element_tags.push_back(tag);
      b.node_tags.insert(b.node_tags.end(), nodes.begin(), nodes.end());
      b.physical_tags.push_back(physical);
    }
  }
}

}  // namespace

Mesh extract_current_model(const LoadOptions& options, const std::string& context) {
  Mesh mesh;

  // ---- elements, by their real type -------------------------------------------------------------------
  gmsh::vectorpair entities;
  gmsh::model::getEntities(entities);
  int top = 0;
  for (const auto& [dim, entity] : entities) {
    std::vector<int> codes;
    gmsh::model::mesh::getElementTypes(codes, dim, entity);
    if (!codes.empty()) top = std::max(top, dim);
  }
  bool any = false;
  for (const auto& [dim, entity] : entities) {
    std::vector<int> codes;
    gmsh::model::mesh::getElementTypes(codes, dim, entity);
    any |= !codes.empty();
  }
  if (!any) throw MeshError(context + ": the file has no elements (expected 1D, 2D or 3D elements)");
  if (top < 1)
    throw MeshError(context + ": the file has only points (expected lines, triangles, quadrilaterals, tetrahedra or "
                              "hexahedra)");
  mesh.dimension = top;
  // Points (dimension 0) never become blocks: they have no interior to interpolate in.
  const int lowest_kept = options.keep_lower_dimensional ? 1 : top;
  std::map<int, Bucket> buckets;
  for (const auto& [dim, entity] : entities)
    if (dim >= lowest_kept) collect_entity(dim, entity, buckets);

  std::vector<std::pair<int, ElementType>> kept;
  std::vector<TypeInfo> unsupported;
  for (const auto& [code, bucket] : buckets) {
    ElementType type{};
    if (from_gmsh_type_code(code, type))
      kept.emplace_back(code, type);
    else
      unsupported.push_back({code, type_name(code), bucket.dim, bucket.element_tags.size()});
  }
  if (!unsupported.empty()) {
    std::string list;
    for (const TypeInfo& t : unsupported) list += (list.empty() ? "" : ", ") + describe(t);
    const std::string message = context + ": unsupported element types: " + list +
                                " (expected complete Lagrange lines, triangles, quadrilaterals, tetrahedra or hexahedra of order 1 "
                                "to 3)";
    if (!options.skip_unsupported)
      throw MeshError(message + "; load with skip_unsupported (the feinterp command: --skip-unsupported) to drop them");
    if (options.warn) options.warn(message + ": skipped");
    for (const TypeInfo& t : unsupported) mesh.skipped_elements += offset_t(t.count);
  }
  if (kept.empty()) throw MeshError(context + ": no elements of a supported type are left (expected at least one block)");
  for (const auto& k : kept)
    if (k.second.order != kept.front().second.order) {
      std::string list;
      for (const auto& kk : kept)
        list += (list.empty() ? "" : ", ") +
                describe({kk.first, type_name(kk.first), 0, buckets.at(kk.first).element_tags.size()});
      throw MeshError(context + ": the mesh mixes element orders: " + list + " (expected one order for all elements)");
    }
  // Top dimension first, then the fixed order of all_element_types: blocks come out the same way
  // whatever order the file lists its elements in.
  auto rank = [](ElementType t) {
    int i = 0;
    for (ElementType a : all_element_types) {
      if (a == t) break;
      ++i;
    }
    return (3 - dimension(t.shape)) * 100 + i;
  };
  std::sort(kept.begin(), kept.end(), [&](const auto& a, const auto& b) { return rank(a.second) < rank(b.second); });

  // ---- nodes ---------------------------------------------------------------------------------------------
  std::vector<double> parametric;
  gmsh::model::mesh::getNodes(mesh.node_tags, mesh.coordinates, parametric, -1, -1, false, false);
  if (mesh.node_tags.empty()) throw MeshError(context + ": the file has elements but no nodes");
  if (mesh.node_tags.size() > std::size_t(std::numeric_limits<node_index>::max()))
    throw MeshError(context + ": " + std::to_string(mesh.node_tags.size()) +
                    " nodes exceed the 2^31 - 1 that 32-bit node indices can address");
  if (mesh.coordinates.size() != 3 * mesh.node_tags.size())
    throw MeshError(context + ": Gmsh returned " + std::to_string(mesh.coordinates.size()) + " coordinates for " +
                    std::to_string(mesh.node_tags.size()) + " nodes (expected 3 per node)");
  for (std::size_t i = 0; i < mesh.coordinates.size(); ++i)
    if (!std::isfinite(mesh.coordinates[i]))
      throw MeshError(context + ": node " + std::to_string(mesh.node_tags[i / 3]) + " has a non-finite coordinate (" +
                      std::to_string(mesh.coordinates[i]) + "); expected finite numbers");
  // The space dimension: a mesh whose z is identically 0 is planar (2D), anything else lives in 3D (and a
  // mesh of 3D elements in 3D whatever its z: flat tetrahedra are then refused as degenerate).
  mesh.space_dimension = top == 3 ? 3 : 2;
  for (std::size_t i = 2; i < mesh.coordinates.size(); i += 3)
    if (mesh.coordinates[i] != 0.0) {
      mesh.space_dimension = 3;
      break;
    }
  const NodeTagMap map(mesh.node_tags);
  if (map.duplicate_tag())
    throw MeshError(context + ": node tag " + std::to_string(map.duplicate_tag()) + " appears twice (expected unique tags)");

  // ---- blocks ------------------------------------------------------------------------------------------------
  for (const auto& [code, type] : kept) {
    Bucket& bucket = buckets.at(code);
    ElementBlock block;
    block.type = type;
    block.space_dimension = mesh.space_dimension;
    const std::size_t per = std::size_t(nodes_per_element(type));
    if (bucket.node_tags.size() != bucket.element_tags.size() * per)
      throw MeshError(context + ": Gmsh returned " + std::to_string(bucket.node_tags.size()) + " node tags for " +
                      std::to_string(bucket.element_tags.size()) + " elements of " + to_string(type) + " (expected " +
                      std::to_string(per) + " per element)");
    block.connectivity.resize(bucket.node_tags.size());
    for (std::size_t k = 0; k < bucket.node_tags.size(); ++k) {
      const node_index node = map.find(bucket.node_tags[k]);
      if (node < 0)
        throw MeshError(context + ": element " + std::to_string(bucket.element_tags[k / per]) + " (" + to_string(type) +
                        ") references node " + std::to_string(bucket.node_tags[k]) +
                        ", which is not in the file's nodes (expected every element node to be defined)");
      block.connectivity[k] = node;
    }
    std::vector<std::size_t>().swap(bucket.node_tags);
    block.element_tags = std::move(bucket.element_tags);
    block.physical_tags = std::move(bucket.physical_tags);
    mesh.blocks.push_back(std::move(block));
  }

  // ---- physical groups of the kept dimensions --------------------------------------------------------------
  gmsh::vectorpair groups;
  gmsh::model::getPhysicalGroups(groups);
  for (const auto& [dim, tag] : groups) {
    if (dim < lowest_kept) continue;
    PhysicalGroup g{dim, tag, {}};
    gmsh::model::getPhysicalName(dim, tag, g.name);
    mesh.physical_groups.push_back(std::move(g));
  }

  return mesh;
}

}  // namespace feinterp::detail
