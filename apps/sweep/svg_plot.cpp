// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/sweep/svg_plot.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace feinterp::tuning {

namespace {

// Panel geometry in SVG pixels: 2 panels per row of 900 x 540; the plot area leaves 72 px for the y
// tick labels, 300 px on the right for a legend of up to 18 series at 16 px each (3 orders x 2
// component counts x 3 operations), 56 px below for the x ticks and label.
constexpr double panel_w = 900, panel_h = 540, header_h = 64;
constexpr double left = 72, right = 300, top = 40, bottom = 56;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string tick_label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

void panel(std::ostringstream& svg, const PlotPanel& p, const PlotText& text, double px, double py) {
  const double x0 = px + left, x1 = px + panel_w - right, y0 = py + top, y1 = py + panel_h - bottom;
  svg << "<g>\n<rect x='" << num(px + 4) << "' y='" << num(py + 4) << "' width='" << num(panel_w - 8)
      << "' height='" << num(panel_h - 8) << "' fill='white' stroke='#ccc'/>\n";
  svg << "<text x='" << num((x0 + x1) / 2) << "' y='" << num(py + 26)
      << "' text-anchor='middle' font-size='16' font-weight='bold'>" << escape(p.title) << "</text>\n";

  int x_max = 1;
  double y_min = std::numeric_limits<double>::infinity(), y_max = 0;
  for (const PlotSeries& s : p.series) {
    for (int x : s.x) x_max = std::max(x_max, x);
    for (int x : s.unfit_x) x_max = std::max(x_max, x);
    for (double y : s.y)
      if (y > 0 && std::isfinite(y)) {
        y_min = std::min(y_min, y);
        y_max = std::max(y_max, y);
      }
  }
  if (!(y_max > 0)) {
    svg << "<text x='" << num((x0 + x1) / 2) << "' y='" << num((y0 + y1) / 2)
        << "' text-anchor='middle' font-size='14' fill='#888'>not measured</text>\n</g>\n";
    return;
  }
  // 15% of room above and below the data (in log space, at least a factor 2 in all), not whole decades:
  // a panel's times span 8-100 us, an axis from 1 to 1000 would squeeze them into its middle third.
  double lo = std::log10(y_min / 1.15), hi = std::log10(y_max * 1.15);
  if (hi - lo < std::log10(2.0)) {
    const double middle = (lo + hi) / 2;
    lo = middle - std::log10(2.0) / 2;
    hi = middle + std::log10(2.0) / 2;
  }
  auto X = [&](double x) { return x_max == 1 ? (x0 + x1) / 2 : x0 + (x - 1) / (x_max - 1) * (x1 - x0); };
  auto Y = [&](double y) { return y1 - (std::log10(y) - lo) / (hi - lo) * (y1 - y0); };

  // Grid and ticks. x: a step of 1, 2, 4, 8 or 16 so that there are at most 16 ticks; always 1.
  int step = 1;
  while ((x_max - 1) / step > 16) step *= 2;
  std::vector<int> x_ticks{1};
  for (int x = step; x <= x_max; x += step)
    if (x != 1) x_ticks.push_back(x);
  for (int x : x_ticks) {
    svg << "<line x1='" << num(X(x)) << "' y1='" << num(y0) << "' x2='" << num(X(x)) << "' y2='" << num(y1)
        << "' stroke='#eee'/>\n";
    svg << "<line x1='" << num(X(x)) << "' y1='" << num(y1) << "' x2='" << num(X(x)) << "' y2='" << num(y1 + 5)
        << "' stroke='black'/>\n";
    svg << "<text x='" << num(X(x)) << "' y='" << num(y1 + 19) << "' text-anchor='middle' font-size='12'>" << x
        << "</text>\n";
  }
  // Ticks at 1, 2, 5 x 10^d (and 1.5, 3, 7 when the axis spans under a decade), labelled all when it
  // spans under 2.5 decades, else only the decades.
  const bool fine = hi - lo < 1, minor_labels = hi - lo <= 2.5;
  const std::vector<double> mantissas = fine ? std::vector<double>{1, 1.5, 2, 3, 5, 7} : std::vector<double>{1, 2, 5};
  for (int d = int(std::floor(lo)); d <= int(std::ceil(hi)); ++d)
    for (double m : mantissas) {
      const double v = m * std::pow(10.0, d);
      if (std::log10(v) < lo || std::log10(v) > hi) continue;
      const bool label = m == 1 || minor_labels;
      svg << "<line x1='" << num(x0) << "' y1='" << num(Y(v)) << "' x2='" << num(x1) << "' y2='" << num(Y(v))
          << "' stroke='" << (m == 1 ? "#d8d8d8" : "#eeeeee") << "'/>\n";
      if (label)
        svg << "<text x='" << num(x0 - 8) << "' y='" << num(Y(v) + 4) << "' text-anchor='end' font-size='12'>"
            << tick_label(v) << "</text>\n";
    }
  svg << "<rect x='" << num(x0) << "' y='" << num(y0) << "' width='" << num(x1 - x0) << "' height='" << num(y1 - y0)
      << "' fill='none' stroke='black'/>\n";
  svg << "<text x='" << num((x0 + x1) / 2) << "' y='" << num(y1 + 42) << "' text-anchor='middle' font-size='13'>"
      << escape(text.x_label) << "</text>\n";
  svg << "<text transform='translate(" << num(px + 20) << ' ' << num((y0 + y1) / 2)
      << ") rotate(-90)' text-anchor='middle' font-size='13'>" << escape(text.y_label) << "</text>\n";

  // Series: a polyline per run of consecutive measured counts (a count that was not measured leaves a
  // gap), '*' at the counts that do not fit (at the height of the last measured time), a dot at the best.
  for (const PlotSeries& s : p.series) {
    const std::string style = "fill='none' stroke='" + s.color + "' stroke-width='1.6'" +
                              (s.dash.empty() ? std::string() : " stroke-dasharray='" + s.dash + "'");
    std::string points;
    int previous = -1;
    auto flush = [&] {
      if (!points.empty()) svg << "<polyline " << style << " points='" << points << "'/>\n";
      points.clear();
    };
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!(s.y[i] > 0) || !std::isfinite(s.y[i])) {
        flush();
        previous = -1;
        continue;
      }
      if (previous >= 0 && s.x[i] != previous + 1 && std::find(s.unfit_x.begin(), s.unfit_x.end(), previous + 1) != s.unfit_x.end())
        flush();
      points += num(X(s.x[i])) + "," + num(Y(s.y[i])) + " ";
      previous = s.x[i];
    }
    flush();
    if (!s.y.empty() && !s.unfit_x.empty()) {
      const double level = s.y.back();
      for (int x : s.unfit_x)
        svg << "<text x='" << num(X(x)) << "' y='" << num(Y(level) + 4) << "' text-anchor='middle' font-size='11' fill='"
            << s.color << "'>*</text>\n";
    }
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if (s.x[i] == s.best_x && s.y[i] > 0)
        svg << "<circle cx='" << num(X(s.x[i])) << "' cy='" << num(Y(s.y[i])) << "' r='3.5' fill='" << s.color
            << "'/>\n";
  }

  // Legend.
  const double lx = x1 + 16;
  double ly = y0 + 6;
  for (const PlotSeries& s : p.series) {
    svg << "<line x1='" << num(lx) << "' y1='" << num(ly) << "' x2='" << num(lx + 26) << "' y2='" << num(ly)
        << "' stroke='" << s.color << "' stroke-width='2'"
        << (s.dash.empty() ? std::string() : " stroke-dasharray='" + s.dash + "'") << "/>\n";
    svg << "<text x='" << num(lx + 32) << "' y='" << num(ly + 4) << "' font-size='11'>" << escape(s.label)
        << "</text>\n";
    ly += 16;
  }
  svg << "</g>\n";
}

}  // namespace

std::string series_color(int a, int b) {
  // Hue by order (blue, orange, green), shade by component count / variant: dark, medium, light.
  static const char* colors[3][3] = {{"#08519c", "#4292c6", "#9ecae1"},
                                     {"#a63603", "#f16913", "#fdae6b"},
                                     {"#006d2c", "#41ab5d", "#a1d99b"}};
  return colors[std::clamp(a, 0, 2)][std::clamp(b, 0, 2)];
}

std::string series_dash(int c) {
  static const char* dashes[3] = {"", "7 3", "2 2"};
  return dashes[std::clamp(c, 0, 2)];
}

std::string render_svg_plot(const PlotText& text, const std::vector<PlotPanel>& panels) {
  const int columns = 2, rows = int((panels.size() + 1) / 2);
  const double width = columns * panel_w, height = header_h + std::max(rows, 1) * panel_h;
  std::ostringstream svg;
  svg << "<?xml version='1.0' encoding='UTF-8'?>\n"
      << "<svg xmlns='http://www.w3.org/2000/svg' width='" << num(width) << "' height='" << num(height)
      << "' viewBox='0 0 " << num(width) << ' ' << num(height) << "' font-family='sans-serif'>\n"
      << "<rect width='100%' height='100%' fill='#fafafa'/>\n"
      << "<text x='" << num(width / 2) << "' y='28' text-anchor='middle' font-size='20' font-weight='bold'>"
      << escape(text.title) << "</text>\n"
      << "<text x='" << num(width / 2) << "' y='50' text-anchor='middle' font-size='13' fill='#444'>"
      << escape(text.subtitle) << "</text>\n";
  for (std::size_t i = 0; i < panels.size(); ++i)
    panel(svg, panels[i], text, double(i % columns) * panel_w, header_h + double(i / columns) * panel_h);
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace feinterp::tuning
