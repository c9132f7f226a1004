// SPDX-License-Identifier: BSD-3-Clause
// feinterp::io's streamed writers (io/point_results.hpp): the results of a generated mesh (a fresh seed each
// run), computed on the CPU into NaN-poisoned arrays, written in one chunk and in chunks of random sizes:
//   * every format's files are byte for byte the same however the results are cut;
//   * the .msh output is byte for byte mesh/write.hpp's write_msh of the same results as a PointCloud;
//   * VTK's reader and meshio (VTU), meshio (.msh) and numpy.load (.npy, .npz) read back the CSV's numbers
//     (tests/apps/read_outputs.py; skipped where the Python module is missing);
//   * a writer destroyed before finish() leaves no file and no scratch file, and an older file untouched,
//     and so does an .npz whose disk fills while libzip assembles it (as root: a small tmpfs);
//     chunks out of order and a finish() with rows missing are refused;
//   * a .pvtu over two VtuWriter pieces (each half of every block's elements) is read by VTK's
//     vtkXMLPUnstructuredGridReader as the pieces appended: the points file's pieces give the whole run's
//     points and arrays; pieces that declare other arrays are refused, naming the piece and the array;
//   * in a .msh, the gradient of a scalar field on triangles is a vector view (3 values a point), that of a
//     2-component field a tensor view (9).
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <feinterp/fem/quadrature.hpp>
#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/io/msh_output.hpp>
#include <feinterp/io/pvtu_output.hpp>
#include <feinterp/io/results_csv.hpp>
#include <feinterp/io/results_npy.hpp>
#include <feinterp/io/results_npz.hpp>
#include <feinterp/io/vtu_output.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>

namespace {

namespace fs = std::filesystem;
using namespace feinterp;

unsigned fresh_seed() {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  return seed;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "feinterp-io-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path operator/(const std::string& name) const { return path / name; }
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A mesh, a field and everything computed at the blocks' quadrature points, held whole: the oracle the
// chunks are cut from.
struct Computed {
  Mesh mesh;
  NodalField field;
  io::PointLayout layout;
  struct Block {
    std::vector<double> coordinates, values, reference, physical, detj;
  };
  std::vector<Block> blocks;

  Computed(ElementType type, offset_t elements, unsigned seed, int components, bool all_quantities) {
    mesh = generate_mesh({type, elements, seed});
    const std::size_t n = std::size_t(mesh.node_count());
    field.name = components == 1 ? "1+2*x+3*y-z" : "pair";
    field.components = components;
    for (std::size_t i = 0; i < n; ++i) {
      const double* x = &mesh.coordinates[3 * i];
      field.values.push_back(1 + 2 * x[0] + 3 * x[1] - x[2]);
      if (components == 2) field.values.push_back(x[0] * x[1]);
    }
    layout.components = components;
    layout.space_dimension = mesh.space_dimension;
    layout.values = layout.physical_gradients = true;
    layout.reference_gradients = all_quantities;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
      const ElementBlock& block = mesh.blocks[b];
      const PointSet points = quadrature_rule(block.type.shape, 2 * block.type.order);
      layout.blocks.push_back({b, std::size_t(block.element_count()), points.size(), dimension(block.type.shape)});
      const Interpolator<double> plan(block.view(), mesh.node_count(), points, mesh.coordinates.data(), {Executor::cpu()});
      Block r;
      auto compute = [&](Operation op, const std::vector<double>& u, int c, std::vector<double>& out, std::vector<double>* detj) {
        out.assign(plan.output_size(op, c), nan);
        if (detj) detj->assign(plan.detj_size(), nan);
        plan.apply(op, {u.data(), u.size(), c}, {out.data(), out.size()},
                   detj ? BasicOutputView<double>{detj->data(), detj->size()} : BasicOutputView<double>{});
      };
      compute(Operation::values, mesh.coordinates, 3, r.coordinates, nullptr);
      compute(Operation::values, field.values, components, r.values, nullptr);
      if (all_quantities) compute(Operation::reference_gradients, field.values, components, r.reference, nullptr);
      compute(Operation::physical_gradients, field.values, components, r.physical, &r.detj);
      for (const std::vector<double>* v : {&r.coordinates, &r.values, &r.reference, &r.physical, &r.detj})
        for (double x : *v) EXPECT_TRUE(std::isfinite(x)) << "a result the plan did not write";
      blocks.push_back(std::move(r));
    }
  }

  // Writes everything through `writer`, the elements of each block cut at random into chunks of 1 to
  // `largest` elements (0: one chunk per block); stops after `stop_after` chunks when it is >= 0.
  void write(io::PointResultsWriter& writer, std::size_t largest, std::mt19937& random, int stop_after = -1) const {
    writer.begin(layout);
    int chunks = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      const std::size_t E = layout.blocks[b].elements, Q = std::size_t(layout.blocks[b].points);
      const std::size_t C = std::size_t(layout.components), d = std::size_t(layout.blocks[b].dimension),
                        S = std::size_t(layout.space_dimension);
      for (std::size_t first = 0; first < E;) {
        const std::size_t count =
            largest == 0 ? E : std::min(E - first, std::uniform_int_distribution<std::size_t>(1, largest)(random));
        io::PointChunk chunk;
        chunk.block = b;
        chunk.first_element = first;
        chunk.elements = count;
        chunk.element_tags = &mesh.blocks[b].element_tags[first];
        const std::size_t p = first * Q;
        chunk.coordinates = &blocks[b].coordinates[p * 3];
        chunk.values = &blocks[b].values[p * C];
        if (layout.reference_gradients) chunk.reference_gradients = &blocks[b].reference[p * C * d];
        chunk.physical_gradients = &blocks[b].physical[p * C * S];
        chunk.detj = &blocks[b].detj[p];
        if (stop_after >= 0 && chunks++ == stop_after) return;
        writer.write(chunk);
        first += count;
      }
    }
    writer.finish();
  }
};

// Every writer under test, by name, writing into `dir`.
std::vector<std::pair<std::string, std::function<std::unique_ptr<io::PointResultsWriter>(const fs::path&)>>>
writers(const Computed& run) {
  std::vector<std::pair<std::string, std::function<std::unique_ptr<io::PointResultsWriter>(const fs::path&)>>> all = {
      {"csv", [](const fs::path& d) { return std::make_unique<io::CsvWriter>((d / "r.csv").string()); }},
      {"npy", [](const fs::path& d) { return std::make_unique<io::NpyWriter>((d / "r.npy").string()); }},
      {"vtu", [&run](const fs::path& d) {
         return std::make_unique<io::VtuWriter>((d / "r.vtu").string(), run.mesh, run.field,
                                                io::vtu_zlib_available() ? io::VtuCompression::zlib : io::VtuCompression::none);
       }},
      {"vtu none", [&run](const fs::path& d) {
         return std::make_unique<io::VtuWriter>((d / "raw.vtu").string(), run.mesh, run.field, io::VtuCompression::none);
       }},
      {"msh", [&run](const fs::path& d) { return std::make_unique<io::MshPointsWriter>((d / "r.msh").string(), run.mesh, run.field); }},
  };
  if (io::npz_available())  // built with libzip
    all.push_back({"npz", [](const fs::path& d) { return std::make_unique<io::NpzWriter>((d / "r.npz").string()); }});
  return all;
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(PointWriters, ChunksGiveTheSameFilesAsOneChunk) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::tetrahedron, 2}, 400, seed, 1, true);
  TempDir whole, cut;
  for (const auto& [name, make] : writers(run)) {
    run.write(*make(whole.path), 0, random);
    run.write(*make(cut.path), 1 + random() % 17, random);
  }
  const std::vector<std::string> names = files_in(whole.path);
  std::vector<std::string> expected = {"r.csv", "r.msh", "r.npy", "r.vtu", "r_points.vtu", "raw.vtu", "raw_points.vtu"};
  if (io::npz_available()) expected.insert(expected.begin() + 3, "r.npz");
  EXPECT_EQ(names, expected);
  EXPECT_EQ(files_in(cut.path), names);
  for (const std::string& f : names) {
    const std::string a = slurp(whole / f), b = slurp(cut / f);
    EXPECT_GT(a.size(), 100u) << f;
    EXPECT_TRUE(a == b) << f << " differs when written in chunks (" << a.size() << " and " << b.size() << " bytes)";
  }
}

TEST(PointWriters, MshIsWriteMshOfTheSamePointCloud) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  for (const ElementType type : {ElementType{Shape::tetrahedron, 2}, ElementType{Shape::triangle, 3}}) {
    const Computed run(type, 300, seed, 2, true);
    TempDir dir;
    io::MshPointsWriter streamed((dir / "streamed.msh").string(), run.mesh, run.field);
    run.write(streamed, 1 + random() % 9, random);
    // The same views through write_msh (io/msh_output.hpp: values, reference gradients, physical
    // gradients, det J; C = 2: a tensor each).
    PointCloud cloud;
    const int C = 2, S = run.mesh.space_dimension;
    for (const Computed::Block& b : run.blocks) cloud.blocks.push_back({b.coordinates.data(), b.coordinates.size() / 3});
    auto view = [&](const std::string& name, std::vector<double> Computed::Block::*data, int components, int dim) {
      PointCloud::View v{name, {}};
      for (std::size_t i = 0; i < run.blocks.size(); ++i) {
        const std::vector<double>& x = run.blocks[i].*data;
        v.blocks.push_back({x.data(), x.size(), components, dim < 0 ? run.layout.blocks[i].dimension : dim});
      }
      cloud.views.push_back(v);
    };
    view("pair values", &Computed::Block::values, C, 0);
    view("pair reference gradients", &Computed::Block::reference, C, -1);
    view("pair physical gradients", &Computed::Block::physical, C, S);
    view("det J", &Computed::Block::detj, 1, 0);
    for (const Computed::Block& b : run.blocks) cloud.field_values.push_back({b.values.data(), b.values.size(), C, 0});
    write_msh((dir / "whole.msh").string(), run.mesh, {run.field}, {}, {}, &cloud);
    const std::string a = slurp(dir / "whole.msh"), b = slurp(dir / "streamed.msh");
    EXPECT_GT(a.size(), 1000u);
    EXPECT_TRUE(a == b) << to_string(type) << ": the streamed .msh (" << b.size() << " bytes) is not write_msh's ("
                        << a.size() << " bytes)";
  }
}

int read_back(const std::vector<std::string>& args) {
  std::string command = std::string(FEINTERP_PYTHON) + " " + FEINTERP_READ_OUTPUTS;
  for (const std::string& a : args) command += " '" + a + "'";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(PointWriters, ReadBackByVtkMeshioAndNumpy) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::tetrahedron, 2}, 300, seed, 1, false);
  TempDir dir;
  for (const auto& [name, make] : writers(run)) run.write(*make(dir.path), 1 + random() % 13, random);
  const std::string csv = (dir / "r.csv").string();
  bool grouped = true;  // every element in a physical group: the points get one too
  for (const ElementBlock& b : run.mesh.blocks) grouped &= b.physical_tags.size() == b.element_tags.size() && b.physical_tags[0] != 0;
  std::vector<std::vector<std::string>> checks = {
      {"vtu", (dir / "r.vtu").string(), (dir / "r_points.vtu").string(), csv, "71"},
      {"vtu", (dir / "raw.vtu").string(), (dir / "raw_points.vtu").string(), csv, "71", "none"},
      {"msh", (dir / "r.msh").string(), csv, grouped ? "1" : "0"},
      {"npy", (dir / "r.npy").string(), csv}};
  if (io::npz_available()) checks.push_back({"npz", (dir / "r.npz").string(), csv});
  int skipped = 0;
  for (const auto& check : checks) {
    const int status = read_back(check);
    skipped += status == 77;
    EXPECT_TRUE(status == 0 || status == 77) << check[0] << " " << check[1] << ": exit status " << status;
  }
  if (skipped) GTEST_SKIP() << skipped << " of the read-backs skipped: a Python module is missing (read_outputs.py says which)";
}

TEST(PointWriters, AFailureMidwayLeavesNoFile) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::tetrahedron, 1}, 500, seed, 1, true);
  TempDir dir;
  std::ofstream(dir / "r.msh") << "older";
  for (const auto& [name, make] : writers(run)) {
    std::unique_ptr<io::PointResultsWriter> writer = make(dir.path);
    run.write(*writer, 1 + random() % 40, random, /*stop_after=*/3);  // no finish()
    writer.reset();
  }
  EXPECT_EQ(files_in(dir.path), std::vector<std::string>{"r.msh"}) << "a file or scratch file was left behind";
  EXPECT_EQ(slurp(dir / "r.msh"), "older");
}

// A disk that fills while libzip copies the columns into the archive (a tmpfs that holds the scratch files
// but not the archive too): the error is AtomicFile's, and neither the archive nor a scratch file stays.
TEST(PointWriters, NpzOnAFullDiskLeavesNoFile) {
  if (!io::npz_available()) GTEST_SKIP() << "built without libzip";
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root";
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::tetrahedron, 2}, 4000, seed, 1, true);  // an archive of several MiB: past
  TempDir sized;                                                      // AtomicFile's buffer, inside zip_close
  io::NpzWriter probe((sized / "r.npz").string());
  run.write(probe, 0, random);
  const std::uintmax_t bytes = fs::file_size(sized / "r.npz");
  TempDir dir;
  const std::string size = "size=" + std::to_string((bytes * 3 / 2 + 4095) / 4096 * 4096);
  if (::mount("tmpfs", dir.path.c_str(), "tmpfs", 0, size.c_str()) != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  std::ofstream(dir / "r.npz") << "older";
  try {
    io::NpzWriter writer((dir / "r.npz").string());
    run.write(writer, 1 + random() % 40, random);
    ADD_FAILURE() << "a " << bytes << "-byte archive and its columns fitted in " << size;
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("r.npz"), std::string::npos) << e.what();
    std::printf("%s\n", e.what());
  }
  EXPECT_EQ(files_in(dir.path), std::vector<std::string>{"r.npz"});
  EXPECT_EQ(slurp(dir / "r.npz"), "older");
  ::umount(dir.path.c_str());
}

TEST(PointWriters, NpzMembersAreNumpySaveOfEachColumn) {
  if (!io::npz_available()) {
    try {
      io::NpzWriter writer("r.npz");
      ADD_FAILURE() << "an NpzWriter without libzip";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("libzip-dev"), std::string::npos) << e.what();
    }
    GTEST_SKIP() << "built without libzip: .npz is refused";
  }
  // numpy.save's header for a 1-D float64 array: 128 bytes, the row count in it (read_outputs.py compares
  // every member with numpy.save's bytes).
  for (std::size_t rows : {std::size_t(0), std::size_t(7), std::size_t(123456789012)}) {
    const std::string h = io::npy_column_header(rows);
    EXPECT_EQ(h.size(), 128u);
    EXPECT_EQ(h.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    EXPECT_NE(h.find("'shape': (" + std::to_string(rows) + ",)"), std::string::npos) << h;
    EXPECT_EQ(h.back(), '\n');
  }
}

TEST(PointWriters, ChunksOutOfOrderAndMissingRowsAreRefused) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::triangle, 1}, 200, seed, 1, true);
  TempDir dir;
  for (const auto& [name, make] : writers(run)) {
    std::unique_ptr<io::PointResultsWriter> writer = make(dir.path);
    writer->begin(run.layout);
    io::PointChunk chunk;
    chunk.block = 0;
    chunk.first_element = 1;  // element 0 comes first
    chunk.elements = 1;
    chunk.element_tags = &run.mesh.blocks[0].element_tags[1];
    chunk.coordinates = run.blocks[0].coordinates.data();
    EXPECT_THROW(writer->write(chunk), std::invalid_argument) << name;
    EXPECT_THROW(writer->finish(), std::logic_error) << name;
  }
  EXPECT_TRUE(files_in(dir.path).empty());
}

// The number of values per point of the view `name` in a binary .msh: its $ElementNodeData header is
// "NAME", a time, then 3 integer tags: step, components, count.
int view_components(const std::string& file, const std::string& name) {
  const std::size_t at = file.find("\"" + name + "\"\n");
  if (at == std::string::npos) return -1;
  std::istringstream header(file.substr(at + name.size() + 3, 200));
  int reals = 0, integers = 0, step = 0, components = 0;
  double time = 0;
  header >> reals >> time >> integers >> step >> components;
  return components;
}

TEST(PointWriters, GradientsOfAScalarOnTrianglesAreVectorViews) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  for (const int components : {1, 2}) {
    const Computed run({Shape::triangle, 2}, 100, seed, components, true);
    TempDir dir;
    io::MshPointsWriter writer((dir / "r.msh").string(), run.mesh, run.field);
    run.write(writer, 1 + random() % 9, random);
    const std::string file = slurp(dir / "r.msh");
    const int expected = components == 1 ? 3 : 9;  // Gmsh's vector (VP) and tensor (TP)
    EXPECT_EQ(view_components(file, run.field.name + " reference gradients"), expected) << components << " components";
    EXPECT_EQ(view_components(file, run.field.name + " physical gradients"), expected) << components << " components";
    EXPECT_EQ(view_components(file, run.field.name + " values"), components == 1 ? 1 : 3);
    EXPECT_EQ(view_components(file, "det J"), 1);
  }
}

// Piece `half` (0 or 1) of `run`: the first or second half of every block's elements, as a mesh of its own
// (every node kept: each piece's mesh file has them all) written by a VtuWriter with or without the
// reference gradients.
struct Piece {
  Mesh mesh;
  io::PointLayout layout;
  std::unique_ptr<io::VtuWriter> writer;

  Piece(const Computed& run, int half, const fs::path& file, bool reference) : mesh(run.mesh), layout(run.layout) {
    layout.reference_gradients = reference;
    std::vector<std::size_t> first(mesh.blocks.size());
    for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
      ElementBlock& block = mesh.blocks[b];
      const std::size_t E = block.element_tags.size(), n = std::size_t(nodes_per_element(block.type));
      const std::size_t lo = half == 0 ? 0 : E / 2, hi = half == 0 ? E / 2 : E;
      first[b] = lo;
      block.element_tags = {run.mesh.blocks[b].element_tags.begin() + lo, run.mesh.blocks[b].element_tags.begin() + hi};
      block.connectivity = {run.mesh.blocks[b].connectivity.begin() + lo * n, run.mesh.blocks[b].connectivity.begin() + hi * n};
      if (!block.physical_tags.empty())
        block.physical_tags = {run.mesh.blocks[b].physical_tags.begin() + lo, run.mesh.blocks[b].physical_tags.begin() + hi};
      layout.blocks[b].elements = hi - lo;
    }
    writer = std::make_unique<io::VtuWriter>(file.string(), mesh, run.field, io::VtuCompression::none);
    writer->begin(layout);
    for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
      const std::size_t Q = std::size_t(layout.blocks[b].points), C = std::size_t(layout.components),
                        d = std::size_t(layout.blocks[b].dimension), S = std::size_t(layout.space_dimension),
                        p = first[b] * Q;
      io::PointChunk chunk;
      chunk.block = b;
      chunk.elements = layout.blocks[b].elements;
      chunk.element_tags = mesh.blocks[b].element_tags.data();
      chunk.coordinates = &run.blocks[b].coordinates[p * 3];
      chunk.values = &run.blocks[b].values[p * C];
      if (reference) chunk.reference_gradients = &run.blocks[b].reference[p * C * d];
      chunk.physical_gradients = &run.blocks[b].physical[p * C * S];
      chunk.detj = &run.blocks[b].detj[p];
      writer->write(chunk);
    }
    writer->finish();
  }
};

TEST(PointWriters, PvtuOfTwoPiecesReadsBackAsTheirUnion) {
  const unsigned seed = fresh_seed();
  std::mt19937 random(seed);
  const Computed run({Shape::tetrahedron, 2}, 300, seed, 2, true);
  TempDir dir;
  fs::create_directory(dir / "pieces");
  // The whole run, in one file, for the points' comparison.
  io::VtuWriter whole((dir / "whole.vtu").string(), run.mesh, run.field, io::VtuCompression::none);
  run.write(whole, 0, random);
  const Piece a(run, 0, dir / "pieces/a.vtu", true), b(run, 1, dir / "pieces/b.vtu", true);
  EXPECT_EQ(a.writer->points_declaration().point_data.size(), 6u);  // values, 2 gradients, det J, tag, block
  EXPECT_EQ(a.writer->mesh_declaration().cell_data.size(), 3u);     // element tag, block, physical group
  EXPECT_EQ(a.writer->mesh_declaration().version, "1.0");
  // Given as the caller names them; written from the .pvtu's folder.
  io::write_pvtu((dir / "out_points.pvtu").string(), {{(dir / "pieces/a_points.vtu").string(), a.writer->points_declaration()},
                                                      {(dir / "pieces/b_points.vtu").string(), b.writer->points_declaration()}});
  io::write_pvtu((dir / "out.pvtu").string(), {{(dir / "pieces/a.vtu").string(), a.writer->mesh_declaration()},
                                               {(dir / "pieces/b.vtu").string(), b.writer->mesh_declaration()}});
  const std::string index = slurp(dir / "out_points.pvtu");
  EXPECT_NE(index.find("<Piece Source=\"pieces/a_points.vtu\"/>"), std::string::npos) << index;
  EXPECT_NE(index.find("<PDataArray type=\"Float64\" Name=\"pair physical gradients\" NumberOfComponents=\"6\"/>"),
            std::string::npos) << index;
  int skipped = 0;
  for (const std::vector<std::string>& check :
       {std::vector<std::string>{"pvtu", dir / "out_points.pvtu", dir / "whole_points.vtu", dir / "pieces/a_points.vtu",
                                 dir / "pieces/b_points.vtu"},
        std::vector<std::string>{"pvtu", dir / "out.pvtu", "-", dir / "pieces/a.vtu", dir / "pieces/b.vtu"}}) {
    const int status = read_back(check);
    skipped += status == 77;
    EXPECT_TRUE(status == 0 || status == 77) << check[1] << ": exit status " << status;
  }
  if (skipped) GTEST_SKIP() << "VTK's Python module (python3-vtk9) is missing";
}

TEST(PointWriters, PvtuOfPiecesWithOtherArraysIsRefused) {
  const unsigned seed = fresh_seed();
  const Computed run({Shape::triangle, 1}, 200, seed, 1, true);
  TempDir dir;
  const Piece a(run, 0, dir / "a.vtu", true), b(run, 1, dir / "b.vtu", false);  // b: no reference gradients
  const std::string path = (dir / "out.pvtu").string();
  try {
    io::write_pvtu(path, {{(dir / "a_points.vtu").string(), a.writer->points_declaration()},
                          {(dir / "b_points.vtu").string(), b.writer->points_declaration()}});
    ADD_FAILURE() << "pieces with other arrays were accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("piece 1"), std::string::npos) << what;
    EXPECT_NE(what.find("b_points.vtu"), std::string::npos) << what;
    EXPECT_NE(what.find("1+2*x+3*y-z reference gradients"), std::string::npos) << what;
  }
  EXPECT_THROW(io::write_pvtu(path, {}), std::invalid_argument);
  io::VtuWriter unfinished((dir / "c.vtu").string(), run.mesh, run.field, io::VtuCompression::none);
  EXPECT_THROW(unfinished.points_declaration(), std::logic_error);
  EXPECT_FALSE(fs::exists(path));
  // The same pieces with the same arrays are accepted.
  io::write_pvtu(path, {{(dir / "a.vtu").string(), a.writer->mesh_declaration()}, {(dir / "b.vtu").string(), b.writer->mesh_declaration()}});
  EXPECT_TRUE(fs::exists(path));
}

}  // namespace
