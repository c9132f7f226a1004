// SPDX-License-Identifier: BSD-3-Clause
// What the benchmarks and the sweep run over, chosen on the command line the same way for all:
// element shapes and orders (or a list of types), component counts, operations, mesh size, point set,
// node numbering; plus the mesh each element type is measured on: Gmsh's (the default) or the
// structured box (fem/structured_box.hpp, --generator structured), which makes 10M elements in seconds
// where Gmsh takes minutes.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/fem/point_set.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/apps/common/relative_difference.hpp>
#include <feinterp/fem/structured_box.hpp>
#include <feinterp/mesh/generate.hpp>

#include <feinterp/apps/common/benchmark_mesh.hpp>

namespace feinterp::tuning {

struct Selection {
  std::vector<std::string> shape_names{"line", "triangle", "quadrilateral", "tetrahedron", "hexahedron"};
  std::vector<int> orders{1, 2, 3};
  std::vector<std::string> component_names{"1", "dim"};
  std::vector<std::string> operation_names{"reference_gradients"};
  std::vector<std::string> precision_names{"fp64"};
  offset_t elements = 1000000;
  std::string points_name = "nodes";
  unsigned seed = 1;
  std::string numbering_name = "natural";
  bool shuffle = false;  ///< --shuffle: another spelling of --numbering shuffled
  bool quick = false;
  std::vector<std::string> type_names;  ///< --types: "tri:1", ...; when given, instead of shapes x orders
  std::string generator = "gmsh";       ///< --generator: "gmsh" or "structured"
  /// --operations may name the fused operators (mass, diffusion, operators: both), and "all" includes
  /// them: set before add_options by the programs that time them (the sweep).
  bool fused_operators_allowed = false;

  // Filled by finish():
  app::Numbering numbering = app::Numbering::natural;
  std::vector<ElementType> types;
  std::vector<Operation> operations;
  std::vector<FusedOperator> fused_operators;
  std::vector<Precision> precisions;

  void add_options(CLI::App& app) {
    app.add_option("--elements", shape_names,
                   "element shapes: line triangle quadrilateral tetrahedron hexahedron (or tri quad tet hex)")
        ->delimiter(',');
    app.add_option("--orders", orders, "orders: 1 2 3")->delimiter(',')->check(CLI::Range(1, 3));
    app.add_option("--components", component_names, "component counts: numbers 1-9, or 'dim'")->delimiter(',');
    app.add_option("--operations", operation_names,
                   fused_operators_allowed
                       ? "values, reference_gradients, physical_gradients, their _transpose, forward (the three), "
                         "transposes (the three), the fused operators mass and diffusion (operators: both), or all "
                         "(the eight)"
                       : "values, reference_gradients, physical_gradients, their _transpose, forward (the three), "
                         "transposes (the three), or all (the six)")
        ->delimiter(',');
    app.add_option("--precisions", precision_names, "fp64, fp32, or both: fp64,fp32")->delimiter(',');
    app.add_option("--size", elements, "target elements per mesh (default 1000000; --quick: 50000)")->check(CLI::Range(1, 1 << 30));
    app.add_option("--points", points_name, "'nodes' (as many points as nodes, the seed's choice) or 'quadrature' (degree 2p)")
        ->check(CLI::IsMember({"nodes", "quadrature"}));
    app.add_option("--seed", seed, "mesh and field seed");
    app.add_option("--numbering", numbering_name,
                   "node numbering of the generated meshes: natural (Gmsh's), shuffled (random: the worst case), "
                   "rcm or hilbert (the shuffled mesh renumbered; apps/common/benchmark_mesh.hpp)")
        ->check(CLI::IsMember({"natural", "shuffled", "rcm", "hilbert"}));
    app.add_flag("--shuffle", shuffle, "the same as --numbering shuffled");
    app.add_flag("--quick", quick, "small meshes and few repeats: finishes in under a minute");
  }

  /// --types, for the programs that take a list of element types rather than shapes x orders.
  void add_types_option(CLI::App& app) {
    app.add_option("--types", type_names, "element types as shape:order, e.g. tri:1,tet:2,hex:3 (instead of --elements and --orders)")
        ->delimiter(',');
  }

  /// --generator, for the programs whose meshes come from GeneratedBlock (not the sweep, which generates
  /// its own).
  void add_generator_option(CLI::App& app) {
    app.add_option("--generator", generator,
                   "gmsh (Gmsh's unstructured mesh, refined: ~14 s for 1M p2 tetrahedra) or structured (the unit "
                   "square or cube split into cells, fem/structured_box.hpp: 10M elements in seconds)")
        ->check(CLI::IsMember({"gmsh", "structured"}));
  }

  void finish(int& repeats) {
    numbering = app::parse_numbering(numbering_name);
    if (shuffle && numbering != app::Numbering::natural && numbering != app::Numbering::shuffled)
      throw std::invalid_argument("--shuffle with --numbering " + numbering_name +
                                  ": expected one of them (--shuffle is --numbering shuffled)");
    if (shuffle) numbering = app::Numbering::shuffled;
    if (quick) {
      if (elements == 1000000) elements = 50000;
      repeats = std::min(repeats, 10);
    }
    if (generator == "structured" && numbering != app::Numbering::natural)
      throw std::invalid_argument(std::string("--numbering ") + app::numbering_name(numbering) +
                                  " renumbers Gmsh's meshes; --generator structured numbers its nodes along the "
                                  "lattice: use --generator gmsh with it");
    types.clear();
    for (const std::string& name : type_names) types.push_back(parse_type(name));
    if (type_names.empty())
      for (const std::string& name : shape_names)
        for (int p : orders) types.push_back({parse_shape(name), p});
    operations.clear();
    fused_operators.clear();
    for (const std::string& name : operation_names) {
      for (FusedOperator op : {FusedOperator::mass, FusedOperator::diffusion})
        if (name == fused_operator_name(op) || name == "operators" || (name == "all" && fused_operators_allowed)) {
          if (!fused_operators_allowed)
            throw std::invalid_argument("--operations " + name + ": this program times the operations, not the fused operators");
          if (std::find(fused_operators.begin(), fused_operators.end(), op) == fused_operators.end())
            fused_operators.push_back(op);
        }
      if (name == "mass" || name == "diffusion" || name == "operators") continue;
      if (name == "all" || name == "forward")
        operations.insert(operations.end(), std::begin(forward_operations), std::end(forward_operations));
      if (name == "all" || name == "transposes")
        operations.insert(operations.end(), std::begin(transpose_operations), std::end(transpose_operations));
      if (name == "all" || name == "forward" || name == "transposes") continue;
      operations.push_back(parse_operation(name));
    }
    precisions.clear();
    for (const std::string& name : precision_names) precisions.push_back(parse_precision(name));
    for (ElementType type : types) component_counts(type);  // validates
  }

  std::vector<int> component_counts(ElementType type) const {
    std::vector<int> counts;
    for (const std::string& name : component_names) {
      int c = 0;
      if (name == "dim") {
        c = dimension(type.shape);
      } else {
        try {
          std::size_t used = 0;
          c = std::stoi(name, &used);
          if (used != name.size()) c = 0;
        } catch (const std::exception&) {
          c = 0;
        }
      }
      if (c < 1 || c > 9) throw std::invalid_argument("bad component count '" + name + "': expected 1 to 9 or 'dim'");
      if (std::find(counts.begin(), counts.end(), c) == counts.end()) counts.push_back(c);
    }
    return counts;
  }

  /// "tri:1" -> triangle p1; throws std::invalid_argument naming the expected form.
  static ElementType parse_type(const std::string& name) {
    const std::size_t colon = name.find(':');
    const std::string order = colon == std::string::npos ? "" : name.substr(colon + 1);
    if (order.size() != 1 || order[0] < '1' || order[0] > '3')
      throw std::invalid_argument("bad element type '" + name + "': expected shape:order with an order of 1 to 3, e.g. tet:2");
    return {parse_shape(name.substr(0, colon)), order[0] - '0'};
  }

  PointSet point_set(ElementType type) const {
    return points_name == "nodes" ? element_nodes(type) : quadrature_rule(type.shape, 2 * type.order);
  }
};

/// The mesh an element type is measured on, of ~`elements` elements: generated by Gmsh (a segment,
/// square or cube) and numbered as the selection says (after finish()), or the structured box of the
/// nearest element count (--generator structured), in its lattice numbering.
class GeneratedBlock {
 public:
  GeneratedBlock(ElementType type, const Selection& s) {
    if (s.generator == "structured") {
      structured_ = true;
      box_ = structured_box(type, structured_box_cells(type, s.elements));
      return;
    }
    GenerateOptions options;
    options.type = type;
    options.target_elements = s.elements;
    options.seed = s.seed;
    mesh_ = app::generate_numbered_mesh(options, s.numbering);
    for (std::size_t i = 0; i < mesh_.blocks.size(); ++i)
      if (mesh_.blocks[i].type == type) block_ = int(i);
    if (block_ < 0) throw std::runtime_error("the generated mesh has no " + to_string(type) + " block");
  }
  BlockView block() const { return structured_ ? box_.view() : mesh_.blocks[std::size_t(block_)].view(); }
  const std::vector<double>& coordinates() const { return structured_ ? box_.coordinates : mesh_.coordinates; }
  offset_t node_count() const { return structured_ ? box_.node_count() : mesh_.node_count(); }
  offset_t element_count() const {
    return structured_ ? box_.element_count : mesh_.blocks[std::size_t(block_)].element_count();
  }
  /// "Gmsh" or "structured box, 229 cells per side".
  std::string description() const {
    return structured_ ? "structured box, " + std::to_string(box_.cells) + " cells per side" : "Gmsh";
  }

 private:
  bool structured_ = false;
  StructuredBox box_;
  Mesh mesh_;
  int block_ = -1;
};

inline GeneratedBlock generate_block(ElementType type, const Selection& s) { return GeneratedBlock(type, s); }

}  // namespace feinterp::tuning
