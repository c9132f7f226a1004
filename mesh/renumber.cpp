// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/renumber.hpp>

#include <stdexcept>
#include <string>
#include <utility>

#include <feinterp/core/printable_text.hpp>

namespace feinterp {

namespace {

void check_consistent(const Mesh& mesh) {
  const std::size_t n = mesh.node_tags.size();
  if (mesh.coordinates.size() != 3 * n)
    throw std::invalid_argument("renumbering a mesh of " + std::to_string(n) + " node tags and " +
                                std::to_string(mesh.coordinates.size()) + " coordinates (expected 3 per node)");
  for (const NodalField& f : mesh.fields)
    if (f.components < 1 || f.values.size() != n * std::size_t(f.components))
      throw std::invalid_argument("renumbering a mesh of " + std::to_string(n) + " nodes: field '" + printable_text(f.name) +
                                  "' has " + std::to_string(f.values.size()) + " values of " +
                                  std::to_string(f.components) + " components (expected nodes x components)");
  for (const ElementBlock& b : mesh.blocks) {
    const std::size_t E = b.element_tags.size(), N = std::size_t(nodes_per_element(b.type));
    if (b.connectivity.size() != E * N || (!b.physical_tags.empty() && b.physical_tags.size() != E))
      throw std::invalid_argument("renumbering a block of " + to_string(b.type) + " with " + std::to_string(E) +
                                  " element tags, " + std::to_string(b.connectivity.size()) + " node indices and " +
                                  std::to_string(b.physical_tags.size()) + " physical tags (expected " +
                                  std::to_string(N) + " indices per element, and one physical tag per element or none)");
  }
}

void check_matches(const Mesh& mesh, const Renumbering& r) {
  bool match = r.nodes.size() == std::size_t(mesh.node_count()) && r.elements.size() == mesh.blocks.size();
  for (std::size_t b = 0; match && b < mesh.blocks.size(); ++b)
    match = r.elements[b].size() == std::size_t(mesh.blocks[b].element_count());
  if (!match)
    throw std::invalid_argument("the mesh's renumbering (permutations of " + std::to_string(r.nodes.size()) +
                                " nodes and " + std::to_string(r.elements.size()) + " blocks) does not match the mesh (" +
                                std::to_string(mesh.node_count()) + " nodes, " + std::to_string(mesh.blocks.size()) +
                                " blocks): were blocks, nodes or elements added or removed after renumbering?");
}

// Moves every array of the mesh to the numbering of `step` (whose old order is the mesh's current one).
// Everything new is built before anything is replaced: an allocation failure leaves the mesh as it was.
void apply(Mesh& mesh, const Renumbering& step) {
  check_matches(mesh, step);
  std::vector<double> coordinates = step.nodes.to_new_order(mesh.coordinates);
  std::vector<std::size_t> node_tags = step.nodes.to_new_order(mesh.node_tags);
  std::vector<std::vector<double>> fields;
  for (const NodalField& f : mesh.fields) fields.push_back(step.nodes.to_new_order(f.values));
  std::vector<ElementBlock> blocks;
  for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
    const ElementBlock& old = mesh.blocks[b];
    ElementBlock block;
    block.type = old.type;
    block.space_dimension = old.space_dimension;
    block.connectivity = renumbered_connectivity(old.view(), step, b);
    block.element_tags = step.elements[b].to_new_order(old.element_tags);
    block.physical_tags = step.elements[b].to_new_order(old.physical_tags);
    blocks.push_back(std::move(block));
  }
  mesh.coordinates.swap(coordinates);
  mesh.node_tags.swap(node_tags);
  for (std::size_t i = 0; i < fields.size(); ++i) mesh.fields[i].values.swap(fields[i]);
  mesh.blocks.swap(blocks);
}

template <class Index>
Permutation<Index> inverse(const Permutation<Index>& p) {
  return {p.old_to_new, p.new_to_old};
}

}  // namespace

const Renumbering& renumber(Mesh& mesh, RenumberMethod method) {
  if (method == RenumberMethod::none) return mesh.renumbering;
  check_consistent(mesh);
  if (mesh.renumbering.method != RenumberMethod::none) check_matches(mesh, mesh.renumbering);
  std::vector<BlockView> views;
  for (const ElementBlock& b : mesh.blocks) views.push_back(b.view());
  Renumbering step = plan_renumbering(views, mesh.node_count(), mesh.coordinates.data(), method);
  Renumbering total;
  if (mesh.renumbering.method == RenumberMethod::none) {
    total = step;
  } else {  // composed: from the original order to the new one
    total.method = method;
    total.nodes = mesh.renumbering.nodes.then(step.nodes);
    for (std::size_t b = 0; b < step.elements.size(); ++b)
      total.elements.push_back(mesh.renumbering.elements[b].then(step.elements[b]));
  }
  apply(mesh, step);
  mesh.renumbering = std::move(total);
  return mesh.renumbering;
}

void restore_original_numbering(Mesh& mesh) {
  if (mesh.renumbering.method == RenumberMethod::none) return;
  check_consistent(mesh);
  Renumbering back;
  back.method = RenumberMethod::none;
  back.nodes = inverse(mesh.renumbering.nodes);
  for (const Permutation<offset_t>& p : mesh.renumbering.elements) back.elements.push_back(inverse(p));
  apply(mesh, back);
  mesh.renumbering = Renumbering();
}

}  // namespace feinterp
