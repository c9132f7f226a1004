// SPDX-License-Identifier: BSD-3-Clause
// feinterp interpolate MESH.msh: a nodal field (a $NodeData view of the file, or formulas in x, y, z)
// interpolated on every element block at a quadrature rule (degree 2p by default) or at the elements'
// nodes; values, reference gradients and physical gradients (all three unless some are chosen),
// summarised as min/max per column, optionally written as Gmsh views, VTU, NPY (--output) and CSV (--csv).
// Block by block and, within a block, in chunks of elements (outputs of ~64 MB, or --chunk-elements):
// each chunk is computed by a MeshOperator on the executor (field_runner.hpp: the operations and, for the
// writers, the points' coordinates), summarised, handed to the writers (feinterp::io, which stream it to
// their files) and freed, so that memory does not grow with the results.
// --renumber rcm|hilbert computes on a renumbered mesh and reports in the file's order (original_order.hpp).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <memory>
#include <string>

#include <feinterp/core/layout.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/fem/quadrature.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/fields.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/core/printable_text.hpp>

#include <feinterp/apps/cli/column_range.hpp>
#include <feinterp/apps/cli/commands.hpp>
#include <feinterp/apps/cli/expression_field.hpp>
#include <feinterp/apps/cli/finite_results.hpp>
#include <feinterp/apps/cli/field_runner.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cli/json_schemas.hpp>
#include <feinterp/apps/cli/json_document.hpp>
#include <feinterp/apps/cli/json_writer.hpp>
#include <feinterp/apps/cli/output_path.hpp>
#include <feinterp/apps/common/progress.hpp>
#include <feinterp/apps/cli/original_order.hpp>
#include <feinterp/apps/cli/output_format.hpp>
#include <feinterp/io/msh_output.hpp>
#include <feinterp/io/results_csv.hpp>
#include <feinterp/io/results_npy.hpp>
#include <feinterp/io/results_npz.hpp>
#include <feinterp/io/results_table.hpp>
#include <feinterp/io/vtu_output.hpp>

namespace feinterp::app {

void add_interpolate_options(CLI::App& command, InterpolateOptions& o) {
  command.add_option("mesh", o.mesh, "the mesh file (MSH 2.2 or 4.x, ASCII or binary)")->required();
  CLI::Option* field = command.add_option("--field", o.field, "the $NodeData view of the file to interpolate: its name, or #N for the N-th view that `feinterp info` lists (a view without a name)");
  CLI::Option* expr = command.add_option("--expr", o.expressions,
                                         "formula in x, y, z (muparser: sin(x)*y, x^2, min(x,y), _pi); repeat it "
                                         "or separate formulas by commas for a vector field");
  field->excludes(expr);
  CLI::Option* degree = command.add_option("--quadrature", o.quadrature, "quadrature degree (default 2p for p-th order elements)")
                            ->check(CLI::Range(0, 100));
  command.add_option("--points", o.points, "'nodes': interpolate at the elements' own nodes instead of a quadrature rule")
      ->check(CLI::IsMember({"nodes"}))
      ->excludes(degree);
  command.add_flag("--values", o.values, "compute values (default: all three quantities)");
  command.add_flag("--gradients,--reference-gradients", o.reference_gradients, "compute gradients in reference coordinates");
  command.add_flag("--physical-gradients", o.physical_gradients, "compute gradients in physical coordinates (and det J)");
  command.add_option("--device", o.device, "cpu, cuda, cuda:N (device N) or auto (the GPU if there is one)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  command.add_option("--threads", o.threads,
                     "CPU threads (default 0: FEINTERP_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs this "
                     "process may use)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--output", o.output,
                     "write the results, in the format of the extension: .msh (Gmsh: the mesh, the field, the results "
                     "at the true quadrature points), .vtu (ParaView: the mesh as Lagrange cells with the field, and "
                     "FILE_points.vtu with the results), .npy (NumPy: the CSV's table as a structured array of float64 "
                     "columns named as the CSV's), .npz (NumPy: one float64 array per CSV column, named as the column; "
                     "needs feinterp built with libzip), .csv (as --csv)");
  command.add_option("--timing", o.timing,
                     "R > 0: time each quantity as the fastest of R calls after a warm-up one (default 0: computed "
                     "once, that call timed, first-launch costs included)")
      ->check(CLI::Range(0, 1000));
  command.add_option("--vtu-compression", o.vtu_compression,
                     "zlib (VTK's vtkZLibDataCompressor: a third smaller for results, more for the mesh; the default "
                     "where feinterp was built with zlib) or none (raw: faster to write, larger)")
      ->check(CLI::IsMember({"zlib", "none"}));
  command.add_option("--csv", o.csv,
                     "write one row per element and point: coordinates and results (a file, or - for standard output)");
  command.add_flag("--all-dimensions", o.all_dimensions,
                   "also interpolate on the lower-dimensional blocks (the boundary faces of a 3D mesh, the curves of "
                   "a 2D or 3D mesh); default: the blocks of the top dimension only");
  command.add_flag("--skip-unsupported", o.skip_unsupported,
                   "drop elements of unsupported types (prisms, pyramids, incomplete quad8/hex20, order > 3) and say "
                   "how many, instead of failing");
  command.add_option("--renumber", o.renumber,
                     "renumber the nodes and elements on load so the gathers are local: rcm (reverse Cuthill-McKee) "
                     "or hilbert (the Hilbert curve); results are still reported and written in the file's element "
                     "and node order, by element tag")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "rcm", "hilbert"}));
  command.add_option("--chunk-elements", o.chunk_elements,
                     "elements computed and written at a time (default 0: as many as make ~64 MB of results); the "
                     "results are the same whatever the count")
      ->check(CLI::NonNegativeNumber);
  command.add_flag("--json", o.json, "print one JSON object instead of the summary");
}

namespace {

struct Times {
  double load = 0, field = 0, transfer = 0, kernel = 0, write = 0;
};

struct Summary {
  std::string name;  // operation
  std::vector<std::string> columns;
  ColumnRange range;
};

std::string plural(long long n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string describe_dimensions(const Mesh& mesh) {
  return std::to_string(mesh.dimension) + "D elements in " + std::to_string(mesh.space_dimension) + "D space";
}

// What the summary says of a block, accumulated chunk by chunk.
struct BlockSummary {
  std::size_t block = 0;
  PointSet points;
  double seconds[3] = {0, 0, 0};  ///< compute time of each operation (Operation order), summed over the chunks
  bool physical = false;          ///< det J was computed
  // Elements whose det J is negative at every point: mirrored, valid (fem/orientation.hpp), counted.
  // Blocks whose element fills the space (d = s) only: there det J has a sign.
  long long mirrored = 0;
  // The block's length, area or volume, sum_e sum_q w_q |det J(e, q)| (mirrored elements count
  // positively): a sanity check at a glance (the tilted unit disk: pi). NaN without det J or weights.
  double measure = 0;

  void add(const Mesh& mesh, const std::vector<double>& detj) {
    const std::size_t Q = std::size_t(points.size());
    if (detj.empty()) return;
    if (dimension(mesh.blocks[block].type.shape) == mesh.space_dimension)
      for (std::size_t k = 0; k < detj.size(); k += Q) mirrored += detj[k] < 0;  // one sign per element
    if (points.weights.size() != Q) return;
    for (std::size_t k = 0; k < detj.size(); ++k) measure += points.weights[k % Q] * std::abs(detj[k]);
  }
  double block_measure() const {
    return physical && points.weights.size() == std::size_t(points.size()) ? measure : std::numeric_limits<double>::quiet_NaN();
  }
};

void print_table(const InterpolateOptions& o, const Mesh& mesh, const NodalField& field, const Device& device,
                 const std::vector<BlockSummary>& results, const std::vector<Summary>& summaries, const Times& t,
                 const std::vector<std::string>& files, long long skipped) {
  // With --csv - the rows are standard output: the summary goes to standard error.
  std::FILE* const out = o.csv == standard_output ? stderr : stdout;
  // Names and paths are the file's (or the file system's) bytes: printed escaped (core/printable_text.hpp).
  std::fprintf(out, "%s: %s, %s, %s in %s\n", printable_text(o.mesh).c_str(), describe_dimensions(mesh).c_str(),
              plural(mesh.node_count(), "node").c_str(), plural(mesh.element_count(), "element").c_str(),
              plural((long long)mesh.blocks.size(), "block").c_str());
  if (skipped) std::fprintf(out, "skipped %s of unsupported types\n", plural(skipped, "element").c_str());
  if (o.renumber != "none")
    std::fprintf(out, "computed with the nodes and elements renumbered (%s); reported in the file's order\n", o.renumber.c_str());
  std::fprintf(out, "field '%s' (%s), on %s\n\n", printable_text(field.name).c_str(), plural(field.components, "component").c_str(),
              describe(device, o.threads).c_str());
  const bool physical = !results.empty() && results[0].physical;
  std::fprintf(out, "%-5s %-15s %3s %10s %6s %10s %22s  %s\n", "block", "element", "d", "elements", "points",
              physical ? "mirrored" : "", physical ? "measure" : "", "point set");
  for (const BlockSummary& r : results) {
    const ElementBlock& b = mesh.blocks[r.block];
    const std::string mirrored = physical ? std::to_string(r.mirrored) : "";
    char measure[32] = "";
    if (physical) std::snprintf(measure, sizeof measure, "%.17g", r.block_measure());
    std::fprintf(out, "%-5zu %-15s %3d %10lld %6d %10s %22s  %s\n", r.block, to_string(b.type).c_str(),
                dimension(b.type.shape), (long long)b.element_count(), r.points.size(), mirrored.c_str(), measure,
                r.points.name.c_str());
  }
  std::fprintf(out, "\n%-20s %-12s %24s %24s\n", "output", "column", "min", "max");
  for (const Summary& s : summaries)
    for (std::size_t i = 0; i < s.columns.size(); ++i)
      std::fprintf(out, "%-20s %-12s %24.17g %24.17g\n", i == 0 ? s.name.c_str() : "", s.columns[i].c_str(), s.range.min[i],
                  s.range.max[i]);
  std::fprintf(out, "\ntimes: load %.3f s, field %.3f s, transfer %.3f s, kernel %.6f s, write %.3f s\n", t.load, t.field,
              t.transfer, t.kernel, t.write);
  for (const std::string& f : files) std::fprintf(out, "wrote %s\n", printable_text(f).c_str());
}

void print_json(const InterpolateOptions& o, const Mesh& mesh, const NodalField& field, const Device& device,
                const std::vector<BlockSummary>& results, const std::vector<Summary>& summaries, const Times& t,
                const std::vector<std::string>& files, long long skipped) {
  JsonWriter json(std::cout);
  begin_document(json, json_schema::interpolate, "interpolate");
  mesh_members(json, o.mesh, mesh, skipped);
  json.key("field").begin_object().member("name", field.name).member("source", o.field.empty() ? "expression" : "file");
  json.member("components", field.components).end_object();
  json.member("device", device_name(device)).member("device_name", describe(device, o.threads));
  if (!on_gpu(device)) json.member("threads", cpu_thread_count(o.threads));
  json.member("renumber", o.renumber);
  json.key("blocks").begin_array();
  const Operation operations[3] = {Operation::values, Operation::reference_gradients, Operation::physical_gradients};
  for (const BlockSummary& r : results) {
    const ElementBlock& b = mesh.blocks[r.block];
    json.begin_object().member("block", (long long)r.block).member("element", shape_name(b.type.shape));
    json.member("order", b.type.order).member("dimension", dimension(b.type.shape));
    json.member("space_dimension", mesh.space_dimension).member("elements", (long long)b.element_count());
    if (r.physical) {
      json.member("mirrored_elements", r.mirrored);
      const double measure = r.block_measure();
      if (!std::isnan(measure)) json.member("measure", measure);
    }
    json.member("points", r.points.size()).member("point_set", r.points.name).key("kernel_s").begin_object();
    for (int i = 0; i < 3; ++i)
      if (r.seconds[i] > 0) json.member(operation_name(operations[i]), r.seconds[i]);
    json.end_object().end_object();
  }
  json.end_array().key("outputs").begin_object();
  for (const Summary& s : summaries) {
    json.key(s.name).begin_object().member("columns", s.columns);
    json.member("min", s.range.min).member("max", s.range.max).end_object();
  }
  json.end_object().key("times").begin_object().member("load_s", t.load).member("field_s", t.field);
  json.member("transfer_s", t.transfer).member("kernel_s", t.kernel).member("write_s", t.write).end_object();
  json.member("files", files).end_object();
}

}  // namespace

namespace {

// Results of about this many bytes are computed and written at a time (--chunk-elements 0): enough
// elements that a chunk's plan and transfers cost little beside its work, few enough that memory does
// not grow with the mesh.
constexpr double chunk_bytes = 64e6;

std::unique_ptr<io::PointResultsWriter> output_writer(const InterpolateOptions& o, const Mesh& mesh, const NodalField& field) {
  switch (output_format(o.output)) {
    case OutputFormat::msh: return std::make_unique<io::MshPointsWriter>(o.output, mesh, field);
    case OutputFormat::vtu: {
      const bool zlib = o.vtu_compression.empty() ? io::vtu_zlib_available() : o.vtu_compression == "zlib";
      if (zlib && !io::vtu_zlib_available())
        throw std::invalid_argument("--vtu-compression zlib: this feinterp was built without zlib (Debian: zlib1g-dev); "
                                    "use --vtu-compression none");
      return std::make_unique<io::VtuWriter>(o.output, mesh, field, zlib ? io::VtuCompression::zlib : io::VtuCompression::none);
    }
    case OutputFormat::npy: return std::make_unique<io::NpyWriter>(o.output);
    case OutputFormat::npz: return std::make_unique<io::NpzWriter>(o.output);
    case OutputFormat::csv: return std::make_unique<io::CsvWriter>(o.output);
  }
  return nullptr;
}

}  // namespace

int run_interpolate(const InterpolateOptions& o) {
  if (o.field.empty() && o.expressions.empty())
    throw std::invalid_argument("interpolate: say what to interpolate: --field NAME (a $NodeData view of the file) or --expr FORMULA");
  std::vector<std::string> output_files;  // every file --output writes
  if (!o.output.empty()) {
    check_output_path(o.output, "--output");
    const OutputFormat format = output_format(o.output);
    output_files.push_back(o.output);
    if (format == OutputFormat::vtu) output_files.push_back(io::vtu_points_path(o.output));
    if (format == OutputFormat::npz && !io::npz_available())
      throw std::invalid_argument("--output '" + o.output + "': this feinterp was built without libzip (Debian: "
                                  "libzip-dev), which writes .npz archives; use .npy (the same table as one "
                                  "structured array) or .csv (nothing was written)");
  }
  if (!o.csv.empty()) check_output_path(o.csv, "--csv", /*stream_allowed=*/true);
  if (o.csv == standard_output && o.json)
    throw std::invalid_argument("--csv - and --json both write to standard output: expected one of them there "
                                "(nothing was written)");
  for (const std::string& file : output_files)
    if (!o.csv.empty()) check_distinct_outputs(file, "--output", o.csv, "--csv");
  for (const std::string& file : output_files) check_output_target(file, "--output");
  if (!o.csv.empty()) check_output_target(o.csv, "--csv");
  if (o.vtu_compression == "zlib" && !io::vtu_zlib_available())
    throw std::invalid_argument("--vtu-compression zlib: this feinterp was built without zlib (Debian: zlib1g-dev); "
                                "use --vtu-compression none");
  const std::vector<std::string> expressions = split_expressions(o.expressions);
  if (!expressions.empty() && expressions.size() > std::size_t(max_components))
    throw std::invalid_argument("--expr: " + std::to_string(expressions.size()) + " components: at most " +
                                std::to_string(max_components) + " are supported");
  const bool none = !o.values && !o.reference_gradients && !o.physical_gradients;
  const bool compute[3] = {none || o.values, none || o.reference_gradients, none || o.physical_gradients};
  const Device device = choose_device(o.device);
  describe(device, o.threads);  // a bad --threads or thread variable fails now, not after loading the mesh
  Times times;

  Progress loading("feinterp", "loading " + printable_text(o.mesh));
  LoadOptions load;
  load.read_fields = !o.field.empty();
  load.keep_lower_dimensional = o.all_dimensions;
  load.skip_unsupported = o.skip_unsupported;
  load.renumber = parse_renumber_method(o.renumber);
  load.warn = [](const std::string& message) {
    std::fprintf(stderr, "feinterp: warning: %s\n", printable_text(message).c_str());
  };
  Mesh mesh = load_msh(o.mesh, load);
  const long long skipped = mesh.skipped_elements;
  times.load = loading.finish();

  Progress evaluating("feinterp", "evaluating the field at " + std::to_string(mesh.node_count()) + " nodes");
  NodalField field;
  if (!o.field.empty()) {
    field = feinterp::field(mesh, o.field);
    if (field.name.empty()) field.name = o.field;  // a view without a name, chosen as "#N": so called in the outputs
  } else {
    std::string name;
    for (const std::string& e : expressions) name += (name.empty() ? "" : ", ") + e;
    field = expression_field(expressions, mesh.coordinates, name);
  }
  if (field.components > max_components)
    throw std::invalid_argument("field '" + printable_text(field.name) + "' has " + std::to_string(field.components) +
                                " components: at most " + std::to_string(max_components) + " are supported");
  times.field = evaluating.finish();

  const int C = field.components, S = mesh.space_dimension;
  int D = 1;  // the largest reference dimension among the blocks: the reference-gradient columns
  for (const ElementBlock& block : mesh.blocks) D = std::max(D, dimension(block.type.shape));
  const Operation operations[3] = {Operation::values, Operation::reference_gradients, Operation::physical_gradients};

  // The summaries, accumulated chunk by chunk.
  std::vector<BlockSummary> blocks;
  io::PointLayout layout;
  layout.components = C;
  layout.space_dimension = S;
  layout.values = compute[0];
  layout.reference_gradients = compute[1];
  layout.physical_gradients = compute[2];
  long long total_elements = 0;
  for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
    const ElementBlock& block = mesh.blocks[b];
    BlockSummary r;
    r.block = b;
    r.points = o.points == "nodes" ? element_nodes(block.type)
                                   : quadrature_rule(block.type.shape, o.quadrature < 0 ? 2 * block.type.order : o.quadrature);
    r.physical = compute[2];
    layout.blocks.push_back({b, std::size_t(block.element_count()), r.points.size(), dimension(block.type.shape)});
    total_elements += block.element_count();
    blocks.push_back(std::move(r));
  }
  std::vector<Summary> summaries;
  for (int i = 0; i < 3; ++i)
    if (compute[i]) {
      std::vector<std::string> columns = i == 0 ? io::value_columns(C) : io::gradient_columns(C, i == 1 ? D : S, i == 2);
      const std::size_t count = columns.size();
      summaries.push_back({operation_name(operations[i]), std::move(columns), ColumnRange(count)});
    }
  if (compute[2]) summaries.push_back({"detj", {"detj"}, ColumnRange(1)});

  // The writers: --output's and --csv's.
  std::vector<std::unique_ptr<io::PointResultsWriter>> writers;
  if (!o.output.empty()) writers.push_back(output_writer(o, mesh, field));
  if (!o.csv.empty())
    writers.push_back(o.csv == standard_output ? std::make_unique<io::CsvWriter>(stdout, "--csv -: standard output")
                                               : std::make_unique<io::CsvWriter>(o.csv));
  const bool msh_output = !o.output.empty() && output_format(o.output) == OutputFormat::msh;
  auto timed_write = [&](auto&& f) {
    const auto start = std::chrono::steady_clock::now();
    for (auto& w : writers) f(*w);
    times.write += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  timed_write([&](io::PointResultsWriter& w) { w.begin(layout); });

  Progress computing("feinterp", "interpolating on " + std::string(device_name(device)) +
                                     (writers.empty() ? std::string() : " and writing"), double(total_elements));
  FieldRunner interpolator(device, mesh.coordinates, {field.values.data(), field.values.size(), C}, o.threads);
  std::vector<node_index> gathered_connectivity;
  std::vector<std::size_t> gathered_tags;
  long long elements_done = 0;
  try {
    for (std::size_t b = 0; b < mesh.blocks.size(); ++b) {
      const ElementBlock& block = mesh.blocks[b];
      BlockSummary& r = blocks[b];
      const std::size_t E = std::size_t(block.element_count()), Q = std::size_t(r.points.size()),
                        d = std::size_t(dimension(block.type.shape));
      std::size_t chunk = std::size_t(o.chunk_elements);
      if (chunk == 0) {
        const std::size_t per_point = 3 + std::size_t(C) * ((compute[0] || msh_output ? 1 : 0) + (compute[1] ? d : 0) +
                                                            (compute[2] ? std::size_t(S) : 0)) + (compute[2] ? 1 : 0);
        chunk = std::max<std::size_t>(1, std::size_t(chunk_bytes / double(Q * per_point * sizeof(double))));
      }
      for (std::size_t first = 0; first < E || (first == 0 && E == 0); first += chunk) {
        const std::size_t count = std::min(chunk, E - first);
        const FileOrderChunk part = file_order_chunk(mesh, b, first, count, gathered_connectivity, gathered_tags);
        ChunkResults c;
        if (count > 0) {
          interpolator.set_block(part.view, r.points);
          std::vector<double>* outputs[3] = {&c.values, &c.reference_gradients, &c.physical_gradients};
          for (int i = 0; i < 3; ++i)
            if (compute[i]) {
              const double seconds = interpolator.run(operations[i], *outputs[i], i == 2 ? &c.detj : nullptr, o.timing);
              r.seconds[i] += seconds;
              times.kernel += seconds;
            }
          if (!writers.empty()) {  // where the points are, and the field there for the .msh output's NodeData
            interpolator.points(c.physical_points);
            if (msh_output && !compute[0]) interpolator.run(Operation::values, c.field_values);  // untimed
          }
        }
        require_finite_results(block, b, part.tags, count, c);
        std::size_t s = 0;
        if (compute[0]) summaries[s++].range.add(c.values);
        if (compute[1]) {
          // Reference gradients: d directions per component in this block, D columns per component.
          std::vector<std::size_t> columns;
          for (int k = 0; k < C; ++k)
            for (std::size_t j = 0; j < d; ++j) columns.push_back(std::size_t(k * D) + j);
          summaries[s++].range.add(c.reference_gradients, columns);
        }
        if (compute[2]) {
          summaries[s++].range.add(c.physical_gradients);
          summaries[s++].range.add(c.detj);
          r.add(mesh, c.detj);
        }
        io::PointChunk out;
        out.block = b;
        out.first_element = first;
        out.elements = count;
        out.element_tags = part.tags;
        out.coordinates = c.physical_points.data();
        out.values = c.values.data();
        out.reference_gradients = c.reference_gradients.data();
        out.physical_gradients = c.physical_gradients.data();
        out.detj = c.detj.data();
        out.field_values = c.field_values.data();
        timed_write([&](io::PointResultsWriter& w) { w.write(out); });
        elements_done += (long long)count;
        computing.update(double(elements_done));
        if (E == 0) break;
      }
    }
  } catch (const DegenerateElementError& error) {
    throw std::runtime_error(printable_text(o.mesh) + ": " + error.what());  // the error names the element's tag: say in which file
  }
  times.transfer = interpolator.transfer_seconds();
  computing.finish();
  restore_file_order(mesh, field);  // the writers write the mesh and the field at finish, in the file's numbering
  timed_write([&](io::PointResultsWriter& w) { w.finish(); });

  std::vector<std::string> files;
  if (!o.output.empty()) files.insert(files.end(), output_files.begin(), output_files.end());
  if (!o.csv.empty()) files.push_back(o.csv == standard_output ? std::string("standard output (--csv -)") : o.csv);

  if (o.json)
    print_json(o, mesh, field, device, blocks, summaries, times, files, skipped);
  else
    print_table(o, mesh, field, device, blocks, summaries, times, files, skipped);
  return 0;
}

}  // namespace feinterp::app
