// SPDX-License-Identifier: BSD-3-Clause
// feinterp info MESH.msh: what a mesh file holds, as feinterp reads it: the top reference dimension d
// of its elements and its space dimension s, nodes and their bounding box, element blocks of every
// dimension (type, order, d, count: a 3D mesh's boundary faces and a 2D mesh's curves included),
// physical groups, $NodeData fields with the range of each component, and the domain's measure
// (length, area or volume: 1^T M 1 of the mass operator over the top-dimension blocks, MeshOperator on
// the CPU). Elements of unsupported types, and a tangled element that leaves the measure undefined, are
// reported as warnings, not errors, so that the command describes any file load_msh can open.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>
#include <cstdio>
#include <iostream>
#include <limits>

#include <feinterp/core/printable_text.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/mesh_operator.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/apps/cli/column_range.hpp>
#include <feinterp/apps/cli/commands.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cli/json_schemas.hpp>
#include <feinterp/apps/cli/json_document.hpp>
#include <feinterp/apps/cli/json_writer.hpp>
#include <feinterp/apps/common/progress.hpp>

namespace feinterp::app {

void add_info_options(CLI::App& command, InfoOptions& o) {
  command.add_option("mesh", o.mesh, "the mesh file (MSH 2.2 or 4.x, ASCII or binary)")->required();
  command.add_flag("--json", o.json, "print one JSON object instead of the text");
}

namespace {

// 1^T M 1 over the blocks of the mesh's dimension, Gauss degree 2p (exact for straight-sided elements);
// NaN, with a warning, where an element is degenerate or tangled.
double domain_measure(const Mesh& mesh, std::vector<std::string>& warnings) {
  std::vector<OperatorBlock> blocks;
  for (const ElementBlock& b : mesh.blocks)
    if (dimension(b.type.shape) == mesh.dimension) blocks.push_back({b.view(), quadrature_rule(b.type.shape, 2 * b.type.order)});
  InterpolatorOptions cpu;
  cpu.executor = Executor::cpu();
  try {
    const MeshOperator<double> mass(blocks, mesh.node_count(), mesh.coordinates.data(), cpu);
    const std::size_t n = std::size_t(mesh.node_count());
    const std::vector<double> one(n, 1.0);
    std::vector<double> r(n);
    mass.apply_operator(FusedOperator::mass, {one.data(), n, 1}, {r.data(), n});
    return std::accumulate(r.begin(), r.end(), 0.0);
  } catch (const DegenerateElementError& e) {
    warnings.push_back(std::string("the measure is undefined: ") + e.what());
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

int run_info(const InfoOptions& o) {
  std::vector<std::string> warnings;
  LoadOptions load;
  load.skip_unsupported = true;
  load.keep_lower_dimensional = true;
  load.warn = [&](const std::string& message) { warnings.push_back(message); };
  Progress loading("feinterp", "loading " + printable_text(o.mesh));
  const Mesh mesh = load_msh(o.mesh, load);
  const double load_s = loading.finish();

  ColumnRange box(3);
  box.add(mesh.coordinates);
  const double measure = mesh.blocks.empty() ? std::numeric_limits<double>::quiet_NaN() : domain_measure(mesh, warnings);
  const char* measure_name = mesh.dimension == 1 ? "length" : mesh.dimension == 2 ? "area" : "volume";
  std::vector<ColumnRange> field_ranges;
  for (const NodalField& f : mesh.fields) {
    field_ranges.emplace_back(std::size_t(f.components));
    field_ranges.back().add(f.values);
  }
  auto physical_elements = [&](const PhysicalGroup& g) {
    long long n = 0;
    for (const ElementBlock& b : mesh.blocks)
      if (dimension(b.type.shape) == g.dimension) n += std::count(b.physical_tags.begin(), b.physical_tags.end(), g.tag);
    return n;
  };

  if (o.json) {
    JsonWriter json(std::cout);
    begin_document(json, json_schema::info, "info");
    mesh_members(json, o.mesh, mesh, (long long)mesh.skipped_elements);
    json.key("bounding_box").begin_object().member("min", box.min).member("max", box.max).end_object();
    json.member("measure", measure);
    json.key("blocks").begin_array();
    for (const ElementBlock& b : mesh.blocks) {
      json.begin_object().member("element", shape_name(b.type.shape)).member("order", b.type.order);
      json.member("dimension", dimension(b.type.shape)).member("space_dimension", space_dimension(b.view()));
      json.member("gmsh_type", gmsh_type_code(b.type)).member("nodes_per_element", nodes_per_element(b.type));
      json.member("elements", (long long)b.element_count()).end_object();
    }
    json.end_array().key("physical_groups").begin_array();
    for (const PhysicalGroup& g : mesh.physical_groups) {
      json.begin_object().member("dimension", g.dimension).member("tag", g.tag).member("name", g.name);
      json.member("elements", physical_elements(g)).end_object();
    }
    json.end_array().key("fields").begin_array();
    for (std::size_t i = 0; i < mesh.fields.size(); ++i) {
      json.begin_object().member("name", mesh.fields[i].name).member("components", mesh.fields[i].components);
      json.member("min", field_ranges[i].min).member("max", field_ranges[i].max).end_object();
    }
    json.end_array().member("warnings", warnings).member("load_s", load_s).end_object();
    return 0;
  }

  // Names and paths are the file's (or the file system's) bytes: printed escaped (core/printable_text.hpp).
  std::printf("%s: %dD elements in %dD space, %lld nodes, %lld elements (loaded in %.3f s)\n", printable_text(o.mesh).c_str(),
              mesh.dimension, mesh.space_dimension, (long long)mesh.node_count(), (long long)mesh.element_count(),
              load_s);
  if (mesh.skipped_elements)
    std::printf("skipped %lld elements of unsupported types\n", (long long)mesh.skipped_elements);
  std::printf("bounding box: [%g, %g] x [%g, %g] x [%g, %g]\n", box.min[0], box.max[0], box.min[1], box.max[1],
              box.min[2], box.max[2]);
  if (std::isfinite(measure)) std::printf("%s: %.15g\n", measure_name, measure);
  std::printf("\n%-15s %3s %3s %9s %6s %12s\n", "block", "d", "s", "gmsh type", "nodes", "elements");
  for (const ElementBlock& b : mesh.blocks)
    std::printf("%-15s %3d %3d %9d %6d %12lld\n", to_string(b.type).c_str(), dimension(b.type.shape),
                space_dimension(b.view()), gmsh_type_code(b.type), nodes_per_element(b.type),
                (long long)b.element_count());
  std::printf("\nphysical groups: %s\n", mesh.physical_groups.empty() ? "none" : "");
  for (const PhysicalGroup& g : mesh.physical_groups)
    std::printf("  %dD %-6d %-24s %lld elements\n", g.dimension, g.tag,
                g.name.empty() ? "(unnamed)" : printable_text(g.name).c_str(), physical_elements(g));
  std::printf("\nfields: %s\n", mesh.fields.empty() ? "none" : "");
  for (std::size_t i = 0; i < mesh.fields.size(); ++i) {
    const NodalField& f = mesh.fields[i];
    // #N chooses the field in `interpolate --field` too: the only way to choose a view without a name.
    std::printf("  #%-3zu %-24s %d component%s", i + 1, f.name.empty() ? "(unnamed)" : printable_text(f.name).c_str(),
                f.components, f.components == 1 ? "" : "s");
    for (int c = 0; c < f.components; ++c)
      std::printf("%s [%g, %g]", c == 0 ? ", range" : ",", field_ranges[i].min[std::size_t(c)],
                  field_ranges[i].max[std::size_t(c)]);
    std::printf("\n");
  }
  for (const std::string& w : warnings) std::printf("warning: %s\n", printable_text(w).c_str());
  return 0;
}

}  // namespace feinterp::app
