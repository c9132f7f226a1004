// SPDX-License-Identifier: BSD-3-Clause
// feinterp-sweep: times every kernel variant that applies (the dense packed kernel; the sum-factorised
// one for quadrilaterals and hexahedra at tensor-product point sets: tuning/kernel_variant.hpp) at every
// elements_per_block, for each element type, order, component count, operation and precision, and writes
// the tuning table of each variant's fastest count with its time (the launch takes the fastest variant;
// ready for tuning/tables/), the full timing CSV (with each configuration's winner) and an
// SVG plot.
//
//   feinterp-sweep                          15 element types x C in {1, dim} x 8 operations (3 forward, their
//                                           transposes, the fused mass and diffusion operators) x 2 precisions,
//                                           ~1M elements
//   feinterp-sweep --operations operators   the fused operators alone (at the degree-2p rule, which they need;
//                                           the sum-factorised kernel on the fly and reading precomputed factors)
//   feinterp-sweep --quick                  counts 1, 2, 4, .., 64 (and the largest that fits, and the
//                                           heuristic's), ~50k elements: under a minute on an H100
//   feinterp-sweep --mesh part.msh --mesh other.msh     the blocks of your own meshes
//   feinterp-sweep --elements tri,quad --orders 1 --components 1 --operations values --output DIR
//
// Counts go from 1 to the largest the launch allows (64 = blockDim.z, and 512 threads per block);
// those needing more shared memory than the device gives one block are not run and are marked '*'.
// Each count: `--warmup` launches first, then `--repeats` launches in batches of 5 back to back between
// CUDA events (the kernels alone, gpu_timing.hpp), the median over batches; consecutive launches
// rotate over copies of the data spanning >= 4x the L2 (benchmark_case.hpp). Both precisions by
// default (--precisions).
//
// Budget of a sweep of the dense kernel over the 12 types other than lines (10 repeats + 2 warm-up):
// 72 configurations, 3,366 counts (per C and operation: 64 counts for p1 and for p2 triangles, 56 p2
// quads, 51 p3 triangles and p2 tets, 32 p3 quads, 25 p3 tets, 18 p2 hexes, 8 p3 hexes at 512 threads
// per block), ~40,000 launches: 197 s on an H200, most of it Gmsh making the 12 meshes of ~1M elements
// (hex p3, 25.7M nodes: ~50 s; tet p3 ~25 s); --quick: 19 s on an H100. Every other variant that applies
// adds its configurations again (the sum-factorised one each quadrilateral and hexahedron
// configuration, at its own counts: the same threads per element at Q1 = p + 1); that full budget is
// not timed here.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>

#include <unistd.h>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/elements/visit.hpp>
#include <feinterp/core/traffic.hpp>
#include <feinterp/fem/tensor_structure.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/apps/common/benchmark_case.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/common/progress.hpp>
#include <feinterp/apps/common/selection.hpp>
#include <feinterp/apps/sweep/sweep.hpp>

using namespace feinterp;
namespace cuda = feinterp::backends::cuda;

namespace {

constexpr int exit_no_device = 3;  // distinct from errors (1): the GPU test skips on it

/// A mesh to sweep: generated per element type (selection.hpp) or loaded from a .msh file.
struct Source {
  std::string label;                       ///< "generated" or the file
  std::optional<ElementType> generate;     ///< the type to generate, if generated
  std::unique_ptr<Mesh> mesh;              ///< loaded (files: up front; generated: when its turn comes)
  std::vector<ElementType> types;          ///< the blocks to sweep
};

/// What one configuration will run, planned before any mesh is generated (for the time estimate).
struct Plan {
  int max_fitting = 0, upper = 0, heuristic = 0;
  std::vector<int> counts;
};

Plan plan(const cuda::LaunchShape& shape, const cuda::DeviceInfo& device, bool quick) {
  Plan p;
  p.max_fitting = cuda::max_elements_per_block(shape, device);
  p.heuristic = p.max_fitting > 0 ? cuda::heuristic_elements_per_block(shape, device) : 0;
  // The launch's own limits (threads, blockDim.z) without the shared-memory one: the same function on
  // a device with unlimited shared memory, so that the limits stay defined in one place.
  cuda::DeviceInfo unlimited = device;
  unlimited.shared_per_block_optin = std::numeric_limits<std::size_t>::max() / 4;
  p.upper = cuda::max_elements_per_block(shape, unlimited);
  if (quick) {
    for (int c = 1; c <= p.upper; c *= 2) p.counts.push_back(c);
    for (int c : {p.max_fitting, p.heuristic, p.upper})
      if (c >= 1) p.counts.push_back(c);
    std::sort(p.counts.begin(), p.counts.end());
    p.counts.erase(std::unique(p.counts.begin(), p.counts.end()), p.counts.end());
  } else {
    p.counts.resize(std::size_t(std::max(p.upper, 0)));
    std::iota(p.counts.begin(), p.counts.end(), 1);
  }
  return p;
}

/// Points per direction of the point set when it is a tensor product for this element, else 0.
int points_per_direction(ElementType type, const PointSet& points) {
  const std::optional<TensorStructure> t = tensor_structure(type, points);
  return t ? t->points_per_direction : 0;
}

/// What the sweep times: a forward operation or a transpose, or a fused operator (then `op` is its
/// transpose's kernel: values_transpose for mass, physical_gradients_transpose for diffusion).
struct Swept {
  Operation op;
  std::optional<FusedOperator> fused;
};

std::vector<Swept> swept_operations(const tuning::Selection& selection) {
  std::vector<Swept> swept;
  for (Operation op : selection.operations) swept.push_back({op, std::nullopt});
  for (FusedOperator op : selection.fused_operators)
    swept.push_back({transpose_of(forward_of(op)), op});
  return swept;
}

/// The point set swept: the selection's, but a fused operator integrates, and takes the degree-2p rule
/// (its entries' Q is that rule's in any table: tuning/table.hpp).
PointSet swept_points(const tuning::Selection& selection, ElementType type, const Swept& swept) {
  return swept.fused ? quadrature_rule(type.shape, 2 * type.order) : selection.point_set(type);
}

tuning::Fusion fusion_of(const cuda::LaunchShape& s) { return cuda::tuning_key(s, s.variant).fusion; }

/// The launch shapes of a configuration, one per kernel variant that applies to it on a device of
/// unlimited shared memory (launch/kernel_variant_choice.hpp): a variant that applies but does not fit
/// this device is swept all the same, its counts recorded as not fitting, like the dense kernel's. A fused
/// operator's sum-factorised kernel is swept with each geometry it reads (on the fly, precomputed); its
/// dense kernel computes J on the fly whatever the plan precomputed.
std::vector<cuda::LaunchShape> variant_shapes(ElementType type, const Swept& swept, int Q, int Q1, int C, int S,
                                              Precision precision, const cuda::DeviceInfo& device) {
  cuda::DeviceInfo unlimited = device;
  unlimited.shared_per_block_optin = std::numeric_limits<std::size_t>::max() / 4;
  cuda::LaunchShape shape{type, swept.op, Q, C, S, precision, bool(swept.fused), bool(swept.fused)};
  shape.points_per_direction = Q1;
  std::vector<cuda::LaunchShape> shapes;
  for (bool precomputed : swept.fused ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
    shape.precomputed_geometry = precomputed;
    for (cuda::KernelVariant variant : cuda::applicable_variants(shape, unlimited)) {
      if (precomputed && variant != cuda::KernelVariant::sum_factorised) continue;  // the same launch as on the fly
      shape.variant = variant;
      shapes.push_back(shape);
    }
  }
  return shapes;
}

/// Rough expected seconds, only to weigh the progress bar's units (its estimate of the time left is
/// then calibrated by the time the done units actually took): nodes ~ elements * p^D * (vertices per
/// element: 1 line, 1/2 triangle, 1/5.5 tetrahedron, 1 quad/hex), ~1.5 TB/s achieved, 10 us per launch floor;
/// Gmsh ~1.5 us per element * p^2.5, * 1.5 in 3D (1M elements on an H200 host: tri p1 ~1 s, quad p3
/// ~18 s, hex p3 ~50 s).
double estimated_nodes(ElementType type, offset_t elements) {
  const double per_vertex[] = {1.0, 0.5, 1.0, 1.0 / 5.5, 1.0};  // indexed by Shape
  return double(elements) * std::pow(type.order, dimension(type.shape)) * per_vertex[int(type.shape)];
}
double generation_seconds(ElementType type, offset_t elements) {
  return 1.5e-6 * double(elements) * std::pow(type.order, 2.5) * (dimension(type.shape) == 3 ? 1.5 : 1.0);
}
double case_seconds(const cuda::LaunchShape& s, offset_t elements, offset_t nodes, std::size_t counts, int launches) {
  const double bytes = double(minimal_bytes(s.op, elements, nodes_per_element(s.type), nodes, s.points, s.components,
                                            dimension(s.type.shape), s.space_dimension, s.precision));
  const double setup = bytes * 4 / 5e9;  // uploading the rotating copies (~4x L2 or one copy) and filling
  return setup + double(counts) * launches * (bytes / 1.5e12 + 10e-6);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string describe(const cuda::LaunchShape& s) {
  return to_string(s.type) + " C=" + std::to_string(s.components) + " " + tuning::table_operation_name(s.op, fusion_of(s)) +
         " " +
         precision_name(s.precision) +
         (s.variant == cuda::KernelVariant::dense ? std::string() : std::string(" ") + tuning::kernel_variant_name(s.variant));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"feinterp-sweep: times the packed kernel at every elements_per_block and writes the tuning table"};
  tuning::Selection selection;
  selection.operation_names = {"all"};
  selection.precision_names = {"fp64", "fp32"};
  selection.fused_operators_allowed = true;
  selection.add_options(app);
  int repeats = 10, warmup = 2;
  constexpr int batch = 5;  // launches timed back to back between two events
  std::string output;
  std::vector<std::string> mesh_files;
  app.add_option("--repeats", repeats, "timed launches per count, the median kept (at least 10)")->check(CLI::Range(10, 10000));
  app.add_option("--warmup", warmup, "untimed launches before each count")->check(CLI::Range(1, 1000));
  app.add_option("--output", output, "directory for the results (default: sweep-<device>)");
  app.add_option("--mesh", mesh_files,
                 "sweep the blocks of this .msh file instead of generated meshes (repeatable; --elements and "
                 "--orders filter its blocks when given)");
  app.footer("Writes DIR/timings.csv, DIR/<device>.txt (the tuning table) and DIR/timings.svg.\n"
             "Exit status: 0 done, 1 error, 3 no usable CUDA device.");
  app.set_version_flag("--version", feinterp::app::version_text("feinterp-sweep"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "feinterp-sweep: error: %s (see --help)\n", e.what());
    return 1;
  }

  try {
    selection.finish(repeats);
    if (!cuda::cuda_available()) {
      std::fprintf(stderr, "feinterp-sweep: error: %s\n", cuda::cuda_unavailable_reason().c_str());
      return exit_no_device;
    }
    const cuda::DeviceInfo& device = cuda::current_device();
    const std::string stem = tuning::table_file_stem(device.name);
    if (output.empty()) output = "sweep-" + stem;
    std::error_code ec;
    std::filesystem::create_directories(output, ec);
    if (ec || !std::filesystem::is_directory(output))
      throw std::runtime_error("cannot create the output directory '" + output + "': " + ec.message());

    tuning::SweepContext context;
    context.device = device.name;
    context.major = device.major;
    context.minor = device.minor;
    context.driver_version = device.driver_version;
    context.runtime_version = device.runtime_version;
    context.point_set = selection.points_name;
    context.warmup = warmup;
    context.repeats = repeats;
    context.batch = batch;
    context.date = utc_now();
    context.git_revision = feinterp::app::git_revision();
    for (int i = 0; i < argc; ++i) context.command_line += (i ? " " : "") + std::string(argv[i]);

    // ---- what to sweep --------------------------------------------------------------------------------
    std::vector<Source> sources;
    if (mesh_files.empty()) {
      for (ElementType type : selection.types) sources.push_back({"generated", type, nullptr, {type}});
    } else {
      const bool filter = app.count("--elements") > 0 || app.count("--orders") > 0;
      for (const std::string& file : mesh_files) {
        std::fprintf(stderr, "loading %s...\n", file.c_str());
        LoadOptions options;
        options.read_fields = false;
        options.skip_unsupported = true;
        options.warn = [&](const std::string& message) {
          std::fprintf(stderr, "feinterp-sweep: warning: %s: %s\n", file.c_str(), message.c_str());
        };
        Source source{file, std::nullopt, std::make_unique<Mesh>(load_msh(file, options)), {}};
        for (const ElementBlock& block : source.mesh->blocks)
          if (!filter || std::find(selection.types.begin(), selection.types.end(), block.type) != selection.types.end())
            source.types.push_back(block.type);
        if (source.types.empty())
          throw std::runtime_error(file + " has no block of the selected element types");
        sources.push_back(std::move(source));
      }
    }

    // Every configuration's counts, planned up front: the progress bar's total.
    double total_units = 0;
    std::size_t total_counts = 0, total_configs = 0;
    for (const Source& source : sources)
      for (ElementType type : source.types) {
        offset_t elements = selection.elements;
        double nodes = estimated_nodes(type, elements);
        int S = default_space_dimension(type);  // generated meshes: a segment, square or cube
        if (source.mesh) {
          for (const ElementBlock& b : source.mesh->blocks)
            if (b.type == type) elements = b.element_count(), S = space_dimension(b.view());
          nodes = double(source.mesh->node_count());
        } else {
          total_units += generation_seconds(type, elements);
        }
        for (int C : selection.component_counts(type))
          for (const Swept& swept : swept_operations(selection)) {
            const PointSet points = swept_points(selection, type, swept);
            const int Q = points.size(), Q1 = points_per_direction(type, points);
            for (Precision precision : selection.precisions)
              for (const cuda::LaunchShape& shape : variant_shapes(type, swept, Q, Q1, C, S, precision, device)) {
                const Plan p = plan(shape, device, selection.quick);
                total_units += case_seconds(shape, elements, offset_t(nodes), p.counts.size(), warmup + repeats);
                total_counts += p.counts.size();
                ++total_configs;
              }
          }
      }
    std::fprintf(stderr, "%s (sm_%d%d, %.0f KiB shared memory per block): %zu configurations, %zu counts, %d + %d launches each\n",
                 device.name.c_str(), device.major, device.minor, double(device.shared_per_block_optin) / 1024,
                 total_configs, total_counts, warmup, repeats);

    // ---- the sweep --------------------------------------------------------------------------------------
    feinterp::app::Progress progress("feinterp-sweep", "sweeping", total_units);
    double done = 0;
    std::vector<tuning::SweepConfig> configs;
    for (Source& source : sources) {
      if (source.generate) {
        const ElementType type = *source.generate;
        progress.update(done, "generating ~" + std::to_string(selection.elements) + " " + to_string(type) + " elements with Gmsh");
        GenerateOptions options;
        options.type = type;
        options.target_elements = selection.elements;
        options.seed = selection.seed;
        source.mesh = std::make_unique<Mesh>(app::generate_numbered_mesh(options, selection.numbering));
        done += generation_seconds(type, selection.elements);
        progress.step_done(done, "generated " + to_string(type) + ": " + std::to_string(source.mesh->element_count()) + " elements");
      }
      const Mesh& mesh = *source.mesh;
      for (ElementType type : source.types) {
        const ElementBlock* block = nullptr;
        for (const ElementBlock& b : mesh.blocks)
          if (b.type == type) block = &b;
        if (!block) throw std::runtime_error("the mesh of " + source.label + " has no " + to_string(type) + " block");
        const int S = space_dimension(block->view());
        for (int C : selection.component_counts(type))
          for (const Swept& swept : swept_operations(selection)) {
            const PointSet points = swept_points(selection, type, swept);
            const int Q = points.size(), Q1 = points_per_direction(type, points);
            for (Precision precision : selection.precisions) {
            // One upload per configuration, shared by its variants (made at the first variant that fits).
            std::unique_ptr<tuning::BenchmarkCase> bench;
            for (const cuda::LaunchShape& shape : variant_shapes(type, swept, Q, Q1, C, S, precision, device)) {
            const Plan p = plan(shape, device, selection.quick);
            tuning::SweepConfig config;
            config.mesh = source.label;
            config.type = type;
            config.components = C;
            config.op = swept.op;
            config.precision = precision;
            config.variant = shape.variant;
            config.fusion = fusion_of(shape);
            config.points = Q;
            config.elements = block->element_count();
            config.nodes = mesh.node_count();
            config.max_fitting = p.max_fitting;
            config.heuristic = p.heuristic;
            const std::string what = describe(shape);
            const double units = case_seconds(shape, config.elements, config.nodes, p.counts.size(), warmup + repeats);
            if (p.max_fitting < 1) {
              for (int count : p.counts) config.samples.push_back({count, false, 0, 0, 0});
              done += units;
              progress.step_done(done, what + ": not even one element fits the device's shared memory");
              configs.push_back(std::move(config));
              continue;
            }
            if (!bench) {
              progress.update(done, what + ": uploading");
              tuning::CaseSpec spec{block->view(), &mesh.coordinates, mesh.node_count(), points, C, swept.op, precision};
              spec.fused = swept.fused;
              bench = std::make_unique<tuning::BenchmarkCase>(spec, selection.seed);
            }
            config.minimal_bytes =
                shape.precomputed_geometry
                    ? operator_minimal_bytes(*swept.fused, config.elements, nodes_per_element(type), config.nodes, Q, C,
                                             dimension(type.shape), precision, true)
                    : bench->minimal_bytes();
            config.rotations = bench->rotations();
            const double per_count = units / double(std::max<std::size_t>(p.counts.size(), 1));
            double case_done = done;
            for (int count : p.counts) {
              if (count > p.max_fitting) {
                config.samples.push_back({count, false, 0, 0, 0});
              } else {
                progress.update(case_done, what + ": " + std::to_string(count) + "/" + std::to_string(p.max_fitting) + " per block");
                // Kernel-only times: `repeats` launches in batches of 5 back-to-back (gpu_timing.hpp).
                // The variant forced: a count is never timed on another kernel than its own.
                tuning::CaseLaunch launch{cuda::Kernel::packed, count, shape.variant};
                launch.geometry = shape.precomputed_geometry ? OperatorGeometry::precomputed : OperatorGeometry::on_the_fly;
                const tuning::Timing t = bench->time(launch, warmup, std::max(2, repeats / batch), tuning::BatchIssue::held, batch);
                config.samples.push_back({count, true, t.median_ms * 1e3, t.min_ms * 1e3, t.max_ms * 1e3});
              }
              case_done += per_count;
            }
            done += units;
            const tuning::SweepSample* best = config.best();
            char summary[160];
            std::snprintf(summary, sizeof summary, ": best %d per block, %.1f us (heuristic %d)", best->elements_per_block,
                          best->median_us, p.heuristic);
            progress.step_done(done, what + summary);
            configs.push_back(std::move(config));
            }
            }
          }
      }
      source.mesh.reset();  // a 1M-element p3 mesh holds ~1 GB on the host
    }
    progress.finish();

    // ---- results ------------------------------------------------------------------------------------------
    std::printf("\n%s (compute capability %d.%d), points: %s, kernel-only medians over batches, %d launches (us)\n",
                device.name.c_str(), device.major, device.minor, selection.points_name.c_str(), repeats);
    std::printf("%-16s %2s %-21s %4s %-19s %3s %9s %5s %5s %10s %5s %10s %8s %10s\n", "element", "C", "operation", "prec",
                "variant", "Q", "elements", "fits", "best", "best_us", "heur", "heur_us", "gain", "1/blk_us");
    const std::vector<bool> winners = tuning::variant_winners(configs);
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const tuning::SweepConfig& c = configs[k];
      const tuning::SweepSample* best = c.best();
      const tuning::SweepSample* heuristic = c.sample(c.heuristic);
      const tuning::SweepSample* one = c.sample(1);
      const std::string variant = std::string(tuning::kernel_variant_name(c.variant)) + (winners[k] ? "*" : "");
      std::printf("%-16s %2d %-21s %4s %-19s %3d %9lld %5d ", to_string(c.type).c_str(), c.components,
                  tuning::table_operation_name(c.op, c.fusion).c_str(), precision_name(c.precision), variant.c_str(), c.points, (long long)c.elements,
                  c.max_fitting);
      if (best) std::printf("%5d %10.1f ", best->elements_per_block, best->median_us);
      else std::printf("%5s %10s ", "-", "-");
      if (heuristic && heuristic->fits && best)
        std::printf("%5d %10.1f %7.1f%% ", c.heuristic, heuristic->median_us,
                    100.0 * (heuristic->median_us / best->median_us - 1));
      else std::printf("%5d %10s %8s ", c.heuristic, "-", "-");
      if (one && one->fits) std::printf("%10.1f\n", one->median_us);
      else std::printf("%10s\n", "-");
    }
    std::printf("(*: the configuration's fastest variant, the one a launch takes from the table)\n");
    const std::string csv_path = output + "/timings.csv", table_path = output + "/" + stem + ".txt",
                      svg_path = output + "/timings.svg";
    write_file_atomically(csv_path, tuning::sweep_csv(context, configs));
    const std::string table_text = tuning::sweep_table_text(context, configs);
    tuning::parse_tuning_table(table_text, table_path);  // what is written reads back (throws otherwise)
    write_file_atomically(table_path, table_text);
    write_file_atomically(svg_path, tuning::sweep_svg(context, configs));
    std::printf("\nwrote %s\n      %s (copy to tuning/tables/ to make it the default on this GPU)\n      %s\n",
                csv_path.c_str(), table_path.c_str(), svg_path.c_str());
  } catch (const std::exception& e) {
    // On a terminal, "\r\033[K" first clears the progress bar's line: the error stays one line.
    std::fprintf(stderr, "%sfeinterp-sweep: error: %s\n", ::isatty(STDERR_FILENO) ? "\r\033[K" : "", e.what());
    return 1;
  }
  return 0;
}
