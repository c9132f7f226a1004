// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/msh_output.hpp>

#include <feinterp/interpolator/interpolator.hpp>
#include <feinterp/mesh/write.hpp>

namespace feinterp::app {

void write_msh_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results) {
  PointCloud cloud;
  for (const BlockResults& r : results) cloud.blocks.push_back({r.physical_points.data(), r.physical_points.size() / 3});
  const int C = field.components, S = mesh.space_dimension;
  struct Quantity {
    const char* label;
    std::vector<double> BlockResults::*data;
    int components, dimension;  // dimension -1: the block's reference dimension d
  };
  const Quantity quantities[] = {{"values", &BlockResults::values, C, 0},
                                 {"reference gradients", &BlockResults::reference_gradients, C, -1},
                                 {"physical gradients", &BlockResults::physical_gradients, C, S},
                                 {"det J", &BlockResults::detj, 1, 0}};
  for (const Quantity& q : quantities) {
    if (results.empty() || (results[0].*q.data).empty()) continue;
    // MSH views hold 1, 3 or 9 values per point: the gradients of a field of more than 3 components
    // (C x 3 > 9) are one view per direction, "T physical gradients d/dx" (C values per point).
    const bool split = q.dimension != 0 && q.components > 3;
    const char* const directions[2][3] = {{"xi", "eta", "zeta"}, {"x", "y", "z"}};
    for (int k = split ? 0 : -1; k < (split ? 3 : 0); ++k) {
      std::string name = q.data == &BlockResults::detj ? "det J" : field.name + " " + q.label;
      if (k >= 0) name += std::string(" d/d") + directions[q.dimension > 0 ? 1 : 0][k];
      PointCloud::View view{name, {}};
      for (const BlockResults& r : results) {
        const std::vector<double>& data = r.*q.data;
        const int d = q.dimension < 0 ? dimension(mesh.blocks[r.block].type.shape) : q.dimension;
        PointValues values{data.data(), data.size(), q.components, d};
        values.direction = k;
        view.blocks.push_back(values);
      }
      cloud.views.push_back(std::move(view));
    }
  }
  // The field's view covers the points too, with its interpolated values there (computed here on the
  // CPU when --values was not asked for): every node of the file then has the field, as meshio requires
  // of a NodeData view, and the file loads back with its field (feinterp interpolate out.msh --field NAME).
  std::vector<std::vector<double>> own_values(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BlockResults& r = results[i];
    const std::vector<double>* values = &r.values;
    if (values->empty()) {
      const ElementBlock& block = mesh.blocks[r.block];
      const Interpolator<double> plan(block.view(), mesh.node_count(), r.points, nullptr, {Executor::cpu()});
      own_values[i].resize(plan.output_size(Operation::values, C));
      plan.apply(Operation::values, {field.values.data(), field.values.size(), C},
                 {own_values[i].data(), own_values[i].size()});
      values = &own_values[i];
    }
    cloud.field_values.push_back({values->data(), values->size(), C, 0});
  }
  write_msh(path, mesh, {field}, {}, {}, &cloud);
}

}  // namespace feinterp::app
