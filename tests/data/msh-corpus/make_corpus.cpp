// SPDX-License-Identifier: BSD-3-Clause
// Writes the seed corpus of real Gmsh 4.8.4 files (see README.md beside this file). Not part of the
// build; run once, by hand:
//   g++ -O1 make_corpus.cpp -lgmsh -o /tmp/make_corpus && /tmp/make_corpus tests/data/msh-corpus
#include <gmsh.h>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

static std::string out;
struct Variant { double version; int binary; const char* name; };
static const Variant variants[] = {{2.2, 0, "v22a"}, {2.2, 1, "v22b"}, {4.1, 0, "v41a"}, {4.1, 1, "v41b"}};

static void common(double size) {
  gmsh::option::setNumber("Mesh.MeshSizeMin", size);
  gmsh::option::setNumber("Mesh.MeshSizeMax", size);
  gmsh::option::setNumber("Mesh.RecombineAll", 0);
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.Algorithm", 6);
  gmsh::option::setNumber("Mesh.Algorithm3D", 1);
  gmsh::option::setNumber("Mesh.SaveAll", 0);
  gmsh::option::setNumber("Mesh.SaveParametric", 0);
  gmsh::option::setNumber("Mesh.PartitionCreateTopology", 1);
  gmsh::option::setNumber("General.NumThreads", 1);
}

static void write_all(const std::string& stem, bool views = false, std::vector<int> tags = {}) {
  for (const Variant& v : variants) {
    gmsh::option::setNumber("Mesh.MshFileVersion", v.version);
    gmsh::option::setNumber("Mesh.Binary", v.binary);
    const std::string path = out + "/" + stem + "_" + v.name + ".msh";
    gmsh::write(path);
    if (views) {
      gmsh::option::setNumber("PostProcessing.SaveMesh", 0);
      for (int t : tags) gmsh::view::write(t, path, true);
    }
  }
}

static void transfinite_box(int volume, int n) {
  gmsh::vectorpair surfaces, curves;
  gmsh::model::getBoundary({{3, volume}}, surfaces, false, false, false);
  gmsh::model::getBoundary(surfaces, curves, false, false, false);
  for (const auto& c : curves) gmsh::model::mesh::setTransfiniteCurve(std::abs(c.second), n);
  for (const auto& s : surfaces) { gmsh::model::mesh::setTransfiniteSurface(s.second); gmsh::model::mesh::setRecombine(2, s.second); }
  gmsh::model::mesh::setTransfiniteVolume(volume);
}

int main(int argc, char** argv) {
  out = argc > 1 ? argv[1] : ".";
  gmsh::initialize(0, nullptr, false);
  gmsh::option::setNumber("General.Terminal", 0);

  // 1. p1 triangles on a square with named physical groups (surface and boundary lines).
  gmsh::model::add("tri1");
  common(0.5);
  { int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(2, {s}, 7); gmsh::model::setPhysicalName(2, 7, "domain");
    gmsh::model::addPhysicalGroup(1, {1, 2}, 3); gmsh::model::setPhysicalName(1, 3, "wall");
    gmsh::model::mesh::generate(2); }
  write_all("tri1_named");
  gmsh::model::remove();

  // 2. p2 quadrilaterals (recombined), all entities saved (points and lines too).
  gmsh::model::add("quad2");
  common(0.5);
  { int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::mesh::setRecombine(2, s); gmsh::model::mesh::generate(2); gmsh::model::mesh::setOrder(2);
    gmsh::option::setNumber("Mesh.SaveAll", 1); }
  write_all("quad2_all");
  gmsh::model::remove();

  // 3. p3 triangles, parametric nodes saved.
  gmsh::model::add("tri3");
  common(0.7);
  { int s = gmsh::model::occ::addDisk(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(2, {s}, 1); gmsh::model::mesh::generate(2); gmsh::model::mesh::setOrder(3);
    gmsh::option::setNumber("Mesh.SaveParametric", 1); }
  write_all("tri3_parametric");
  gmsh::model::remove();

  // 4. p2 tetrahedra in a box.
  gmsh::model::add("tet2");
  common(0.8);
  { int v = gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(3, {v}, 5); gmsh::model::setPhysicalName(3, 5, "solid");
    gmsh::model::mesh::generate(3); gmsh::model::mesh::setOrder(2); }
  write_all("tet2");
  gmsh::model::remove();

  // 5. p1 hexahedra (transfinite), p3 hexahedra of 1 element.
  gmsh::model::add("hex1");
  common(1);
  { int v = gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1); gmsh::model::occ::synchronize();
    transfinite_box(v, 3); gmsh::model::addPhysicalGroup(3, {v}, 2); gmsh::model::mesh::generate(3); }
  write_all("hex1");
  gmsh::model::remove();
  gmsh::model::add("hex3");
  common(1);
  { int v = gmsh::model::occ::addBox(0, 0, 0, 1, 1, 1); gmsh::model::occ::synchronize();
    transfinite_box(v, 2); gmsh::model::addPhysicalGroup(3, {v}, 2); gmsh::model::mesh::generate(3);
    gmsh::model::mesh::setOrder(3); }
  write_all("hex3");
  gmsh::model::remove();

  // 6. prisms and pyramids beside tetrahedra (unsupported types, for skip_unsupported).
  gmsh::model::add("extruded");
  common(0.5);
  { gmsh::model::geo::addPoint(0, 0, 0, 0.5, 1); gmsh::model::geo::addPoint(1, 0, 0, 0.5, 2);
    gmsh::model::geo::addPoint(0, 1, 0, 0.5, 3); gmsh::model::geo::addLine(1, 2, 1); gmsh::model::geo::addLine(2, 3, 2);
    gmsh::model::geo::addLine(3, 1, 3); gmsh::model::geo::addCurveLoop({1, 2, 3}, 1); gmsh::model::geo::addPlaneSurface({1}, 1);
    gmsh::vectorpair ov; gmsh::model::geo::extrude({{2, 1}}, 0, 0, 1, ov, {2}, {}, true);  // recombined: prisms
    gmsh::model::geo::synchronize(); gmsh::model::mesh::generate(3); }
  write_all("prism_extruded");
  gmsh::model::remove();

  // 7. views: NodeData (scalar, two steps; vector), ElementData, ElementNodeData, on p1 triangles.
  gmsh::model::add("views");
  common(0.5);
  { int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(2, {s}, 1); gmsh::model::mesh::generate(2);
    std::vector<std::size_t> nodes; std::vector<double> x, u;
    gmsh::model::mesh::getNodes(nodes, x, u, -1, -1, false, false);
    std::vector<std::vector<double>> scalar, vector;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      scalar.push_back({1 + 2 * x[3 * i] + 3 * x[3 * i + 1]});
      vector.push_back({x[3 * i], -x[3 * i + 1], 0.5});
    }
    std::vector<std::size_t> elements, enodes; gmsh::model::mesh::getElementsByType(2, elements, enodes);
    std::vector<std::vector<double>> per_element, per_element_node;
    for (std::size_t e = 0; e < elements.size(); ++e) { per_element.push_back({double(e)}); per_element_node.push_back({0.1, 0.2, 0.3}); }
    int a = gmsh::view::add("temperature"); gmsh::view::addModelData(a, 0, "views", "NodeData", nodes, scalar, 0.0);
    gmsh::view::addModelData(a, 1, "views", "NodeData", nodes, scalar, 1.0);
    int b = gmsh::view::add("velocity"); gmsh::view::addModelData(b, 0, "views", "NodeData", nodes, vector);
    int c = gmsh::view::add("index"); gmsh::view::addModelData(c, 0, "views", "ElementData", elements, per_element);
    int d = gmsh::view::add("corner"); gmsh::view::addModelData(d, 0, "views", "ElementNodeData", elements, per_element_node);
    write_all("tri1_views", true, {a, b, c, d}); }
  gmsh::model::remove();

  // 8. periodic mesh (a square whose right side copies its left side).
  gmsh::model::add("periodic");
  common(0.5);
  { gmsh::model::occ::addRectangle(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::mesh::setPeriodic(1, {2}, {4}, {1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    gmsh::model::mesh::generate(2); }
  write_all("tri1_periodic");
  gmsh::model::remove();

  // 9. partitioned (2 parts, with topology): $PartitionedEntities in 4.1, partition tags in 2.2.
  gmsh::model::add("partitioned");
  common(0.4);
  { int s = gmsh::model::occ::addRectangle(0, 0, 0, 1, 1); gmsh::model::occ::synchronize();
    gmsh::model::addPhysicalGroup(2, {s}, 1); gmsh::model::mesh::generate(2); gmsh::model::mesh::partition(2); }
  write_all("tri1_partitioned");
  gmsh::model::remove();

  gmsh::finalize();
  return 0;
}
