// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/sweep/sweep.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <feinterp/apps/sweep/svg_plot.hpp>

namespace feinterp::tuning {

const SweepSample* SweepConfig::best() const {
  const SweepSample* best = nullptr;
  for (const SweepSample& s : samples)
    if (s.fits && s.median_us > 0 && (!best || s.median_us < best->median_us)) best = &s;
  return best;
}

const SweepSample* SweepConfig::sample(int elements_per_block) const {
  for (const SweepSample& s : samples)
    if (s.elements_per_block == elements_per_block) return &s;
  return nullptr;
}

bool SweepConfig::same_configuration(const SweepConfig& o) const {
  // The dense kernel computes J on the fly: a plan that asked for precomputed factors compares it with the
  // sum-factorised kernel that reads them.
  const auto geometry_choice = [](const SweepConfig& c) {
    return c.variant == KernelVariant::dense && c.fusion == Fusion::on_the_fly ? Fusion::none : c.fusion;
  };
  const bool same_fusion = (fusion == Fusion::none) == (o.fusion == Fusion::none) &&
                           (geometry_choice(*this) == Fusion::none || geometry_choice(o) == Fusion::none ||
                            fusion == o.fusion);
  return mesh == o.mesh && type == o.type && components == o.components && op == o.op && precision == o.precision &&
         points == o.points && same_fusion;
}

std::vector<bool> variant_winners(const std::vector<SweepConfig>& configs) {
  std::vector<bool> winner(configs.size(), false);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const SweepSample* best = configs[i].best();
    if (!best) continue;
    bool fastest = true;
    for (std::size_t j = 0; j < configs.size() && fastest; ++j) {
      if (j == i || !configs[j].same_configuration(configs[i])) continue;
      const SweepSample* other = configs[j].best();
      // Strictly faster, or as fast and swept first.
      if (other && (other->median_us < best->median_us || (other->median_us == best->median_us && j < i))) fastest = false;
    }
    winner[i] = fastest;
  }
  return winner;
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

namespace {

std::string fixed(double v, int digits) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

/// One line per mesh: "triangle p1 (generated): 1000000 elements, 500000 nodes".
std::vector<std::string> mesh_lines(const std::vector<SweepConfig>& configs) {
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (const SweepConfig& c : configs) {
    const std::string line = to_string(c.type) + " (" + c.mesh + "): " + std::to_string(c.elements) + " elements, " +
                             std::to_string(c.nodes) + " nodes";
    if (seen.insert(line).second) lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> provenance(const SweepContext& x) {
  return {"device: " + x.device + ", compute capability " + std::to_string(x.major) + "." + std::to_string(x.minor),
          "CUDA driver " + cuda_version_string(x.driver_version) + ", runtime " + cuda_version_string(x.runtime_version),
          "date: " + x.date + ", feinterp git " + x.git_revision,
          "points: " + x.point_set + "; " + std::to_string(x.repeats) + " launches after " + std::to_string(x.warmup) +
              " warm-up launches, timed in batches of " + std::to_string(x.batch) +
              " back to back between CUDA events (kernels only), each batch held until issued, the median over batches",
          "command: " + x.command_line};
}

}  // namespace

std::string sweep_csv(const SweepContext& x, const std::vector<SweepConfig>& configs) {
  std::ostringstream csv;
  csv << "# feinterp-sweep timings\n";
  csv << "# device: " << x.device << "\n# compute_capability: " << x.major << '.' << x.minor << "\n";
  csv << "# driver_version: " << cuda_version_string(x.driver_version) << "\n# runtime_version: "
      << cuda_version_string(x.runtime_version) << "\n";
  csv << "# date: " << x.date << "\n# git_revision: " << x.git_revision << "\n# points: " << x.point_set << "\n";
  csv << "# warmup: " << x.warmup << "\n# repeats: " << x.repeats << "\n# command: " << x.command_line << "\n";
  for (const std::string& line : mesh_lines(configs)) csv << "# mesh: " << line << "\n";
  csv << "# fits = 0: the count needs more shared memory than the device allows per block (not run, '*')\n";
  csv << "# gbs: minimal_bytes / median (core/traffic.hpp)\n";
  csv << "# best = 1: the variant's fastest count; winner = 1: that count, where its variant is the configuration's fastest\n";
  csv << "mesh,element,order,components,operation,precision,variant,points,elements,nodes,minimal_bytes,rotations,"
         "max_fitting,heuristic,elements_per_block,fits,median_us,min_us,max_us,gbs,best,winner\n";
  const std::vector<bool> winners = variant_winners(configs);
  for (std::size_t k = 0; k < configs.size(); ++k) {
    const SweepConfig& c = configs[k];
    const SweepSample* best = c.best();
    for (const SweepSample& s : c.samples) {
      csv << '"' << c.mesh << "\"," << shape_name(c.type.shape) << ',' << c.type.order << ',' << c.components << ','
          << table_operation_name(c.op, c.fusion) << ',' << precision_name(c.precision) << ','
          << kernel_variant_name(c.variant) << ','
          << c.points << ',' << c.elements << ','
          << c.nodes << ',' << c.minimal_bytes
          << ',' << c.rotations << ',' << c.max_fitting << ',' << c.heuristic << ',' << s.elements_per_block << ','
          << (s.fits ? 1 : 0) << ',';
      if (s.fits && s.median_us > 0)
        csv << fixed(s.median_us, 3) << ',' << fixed(s.min_us, 3) << ',' << fixed(s.max_us, 3) << ','
            << fixed(double(c.minimal_bytes) / (s.median_us * 1e-6) / 1e9, 1);
      else
        csv << ",,,";
      csv << ',' << (&s == best ? 1 : 0) << ',' << (&s == best && winners[k] ? 1 : 0) << '\n';
    }
  }
  return csv.str();
}

TuningTable sweep_table(const SweepContext& x, const std::vector<SweepConfig>& configs) {
  TuningTable table;
  table.source = "sweep";
  table.device = x.device;
  table.major = x.major;
  table.minor = x.minor;
  table.point_set = x.point_set;
  std::map<std::tuple<int, int, int, int, int, int, int, int>, std::pair<offset_t, TuningEntry>> chosen;
  for (const SweepConfig& c : configs) {
    const SweepSample* best = c.best();
    if (!best) continue;
    TuningEntry e;
    e.type = c.type;
    e.components = c.components;
    e.op = c.op;
    e.precision = c.precision;
    e.variant = c.variant;
    e.fusion = c.fusion;
    e.points = c.points;
    e.elements_per_block = best->elements_per_block;
    // Rounded as written (0.1 us): the table then reads back exactly as it was made.
    e.time_us = std::max(0.1, std::round(best->median_us * 10) / 10);
    const auto key = std::make_tuple(int(c.type.shape), c.type.order, int(c.op), int(c.fusion), c.components,
                                     int(c.precision), c.variant.index(), c.points);
    auto it = chosen.find(key);
    if (it == chosen.end() || c.elements > it->second.first) chosen[key] = {c.elements, e};
  }
  for (const auto& [key, value] : chosen) table.entries.push_back(value.second);
  table.sort_entries();
  return table;
}

std::string sweep_table_text(const SweepContext& x, const std::vector<SweepConfig>& configs) {
  std::vector<std::string> comments{"Written by feinterp-sweep: the fastest elements_per_block per configuration and kernel",
                                    "variant; of a configuration's variants, the launch takes the fastest.",
                                    "Copy to tuning/tables/ to compile it into feinterp (its README.md)."};
  for (const std::string& line : provenance(x)) comments.push_back(line);
  for (const std::string& line : mesh_lines(configs)) comments.push_back("mesh " + line);
  comments.push_back("");
  return format_tuning_table(sweep_table(x, configs), comments);
}

std::string sweep_svg(const SweepContext& x, const std::vector<SweepConfig>& configs) {
  std::vector<PlotPanel> panels;
  for (Shape shape : all_shapes) {
    if (std::none_of(configs.begin(), configs.end(), [&](const SweepConfig& c) { return c.type.shape == shape; }))
      continue;  // a panel per swept shape only
    PlotPanel panel;
    panel.title = std::string(shape_name(shape)) + "s";
    // Component counts in this shape's configurations, in order: shade 0 for the first (C = 1), 1, 2.
    std::vector<int> components;
    for (const SweepConfig& c : configs)
      if (c.type.shape == shape && std::find(components.begin(), components.end(), c.components) == components.end())
        components.push_back(c.components);
    std::sort(components.begin(), components.end());
    for (const SweepConfig& c : configs) {
      if (c.type.shape != shape) continue;
      PlotSeries s;
      const int shade = int(std::find(components.begin(), components.end(), c.components) - components.begin());
      // The other variants in the lightest shade, beside the dense kernel's darker ones (and named).
      s.color = series_color(c.type.order - 1, c.variant != KernelVariant::dense ? 2 : shade);
      s.dash = series_dash(int(forward_of(c.op)));
      for (const SweepSample& sample : c.samples) {
        if (!sample.fits) {
          s.unfit_x.push_back(sample.elements_per_block);
        } else if (sample.median_us > 0) {
          s.x.push_back(sample.elements_per_block);
          s.y.push_back(sample.median_us);
        }
      }
      const SweepSample* best = c.best();
      s.best_x = best ? best->elements_per_block : 0;
      // Short operation names: the legend column is 300 px wide.
      static const char* short_names[operation_count] = {"values",   "ref grad",   "phys grad",
                                                          "values^T", "ref grad^T", "phys grad^T"};
      const std::string operation = c.fusion == Fusion::none ? short_names[int(c.op)] : table_operation_name(c.op, c.fusion);
      s.label = "p" + std::to_string(c.type.order) + " C=" + std::to_string(c.components) + " " + operation +
                (c.precision == Precision::fp32 ? " fp32" : "") +
                (c.variant == KernelVariant::sum_factorised       ? " sumfac"
                 : c.variant == KernelVariant::dense_tensor_cores ? " tensor cores"
                 : c.variant == KernelVariant::dense_async_gather ? " async gather"
                 : c.variant == KernelVariant::dense_64_registers ? " 64 regs"
                 : c.variant == KernelVariant::dense              ? ""
                                                                  : std::string(" ") + tuning::kernel_variant_name(c.variant)) +
                (best ? ": best " + std::to_string(best->elements_per_block) : std::string()) +
                (s.unfit_x.empty() ? std::string() : ", *: " + std::to_string(s.unfit_x.front()) + "+");
      if (c.mesh != "generated") s.label += " [" + c.mesh.substr(c.mesh.find_last_of('/') + 1) + "]";
      panel.series.push_back(std::move(s));
    }
    panels.push_back(std::move(panel));
  }
  PlotText text;
  text.title = "feinterp packed kernels on " + x.device + " (sm_" + std::to_string(x.major) + std::to_string(x.minor) + ")";
  text.subtitle = "median over batches of " + std::to_string(x.batch) + " back-to-back launches, points: " + x.point_set +
                  "; solid: values, dashed: reference gradients, dotted: physical gradients; lightest: sum-factorised; dot: best; *: needs "
                  "more shared memory than the device allows; " + x.date + ", git " + x.git_revision;
  text.x_label = "elements per block";
  text.y_label = "time per launch (us, log scale)";
  return render_svg_plot(text, panels);
}

}  // namespace feinterp::tuning
