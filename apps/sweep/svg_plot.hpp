// SPDX-License-Identifier: BSD-3-Clause
// A small SVG line plot written directly (no plotting dependency): a grid of panels, each with x and y
// axes, ticks, labels, a legend, one polyline per series. Made for the sweep: launch time (log y)
// against elements_per_block (linear x), with the counts that do not fit the device drawn as a gap
// and marked '*' on the axis.
#pragma once

#include <string>
#include <vector>

namespace feinterp::tuning {

struct PlotSeries {
  std::string label;
  std::string color;                ///< e.g. "#1f77b4"
  std::string dash;                 ///< SVG stroke-dasharray; empty: solid
  std::vector<int> x;               ///< the counts measured (fitting), increasing
  std::vector<double> y;            ///< their times (> 0), same length as x
  std::vector<int> unfit_x;         ///< counts that do not fit the device: a gap and a '*'
  int best_x = 0;                   ///< drawn as a filled circle (0: none)
};

struct PlotPanel {
  std::string title;
  std::vector<PlotSeries> series;
};

struct PlotText {
  std::string title, subtitle, x_label, y_label;
};

/// The whole document. Panels are laid out two per row; a panel without series says "not measured".
/// Its y axis is logarithmic (decades, with 2 and 5 labelled when the range spans under two decades).
std::string render_svg_plot(const PlotText& text, const std::vector<PlotPanel>& panels);

/// Colours and dash patterns for up to 3 x 3 x 3 series: hue by `a` (0-2), shade by `b` (0-2),
/// dash pattern by `c` (0-2).
std::string series_color(int a, int b);
std::string series_dash(int c);

}  // namespace feinterp::tuning
