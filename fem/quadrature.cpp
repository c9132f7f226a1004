// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/quadrature.hpp>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace feinterp {

namespace {

// ---- Gauss-Jacobi rules on [-1, 1] ---------------------------------------------------------------
// Nodes and weights of the n-point rule for the weight (1 - t)^alpha (1 + t)^beta: Golub-Welsch gives
// every node to ~1e-15 at once, then two Newton steps on the orthonormal polynomial p_n (three-term
// recurrence) bring each to the last bit, and the weights are the Christoffel numbers
// 1 / sum_{k<n} p_k(t)^2, which involve no differences of close numbers.

struct Rule1D {
  std::vector<double> nodes, weights;
};

struct JacobiRecurrence {
  std::vector<double> a, b;  // t p_k = b_{k+1} p_{k+1} + a_k p_k + b_k p_{k-1}, orthonormal p_k
  double p0 = 0;             // p_0 = 1 / sqrt(integral of the weight)
};

JacobiRecurrence jacobi_recurrence(int n, double alpha, double beta) {
  JacobiRecurrence r;
  r.a.resize(std::size_t(n));
  r.b.resize(std::size_t(n) + 1);
  const double ab = alpha + beta;
  for (int k = 0; k < n; ++k) {
    const double s = 2.0 * k + ab;
    r.a[std::size_t(k)] = (k == 0) ? (beta - alpha) / (ab + 2.0) : (beta * beta - alpha * alpha) / (s * (s + 2.0));
  }
  r.b[0] = 0.0;
  for (int k = 1; k <= n; ++k) {
    const double s = 2.0 * k + ab;
    // (k + alpha + beta) / (s - 1) is written with the k = 1, alpha + beta = 0 case in mind, where both
    // vanish together in the textbook form; here s - 1 = 1 + ab > 0 for k = 1.
    r.b[std::size_t(k)] = std::sqrt(4.0 * k * (k + alpha) * (k + beta) * (k + ab) / (s * s * (s + 1.0) * (s - 1.0)));
  }
  const double mu0 = std::pow(2.0, ab + 1.0) * std::tgamma(alpha + 1.0) * std::tgamma(beta + 1.0) / std::tgamma(ab + 2.0);
  r.p0 = 1.0 / std::sqrt(mu0);
  return r;
}

Rule1D gauss_jacobi(int n, double alpha, double beta) {
  const JacobiRecurrence r = jacobi_recurrence(n, alpha, beta);
  Eigen::VectorXd diagonal(n), subdiagonal(std::max(n - 1, 0));
  for (int k = 0; k < n; ++k) diagonal[k] = r.a[std::size_t(k)];
  for (int k = 1; k < n; ++k) subdiagonal[k - 1] = r.b[std::size_t(k)];
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
  solver.computeFromTridiagonal(diagonal, subdiagonal, Eigen::EigenvaluesOnly);

  Rule1D rule;
  rule.nodes.resize(std::size_t(n));
  rule.weights.resize(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    double t = solver.eigenvalues()[i];
    double sum_squares = 0.0;
    for (int step = 0; step < 3; ++step) {
      double p_prev = 0.0, p = r.p0, dp_prev = 0.0, dp = 0.0;
      sum_squares = 0.0;
      for (int k = 0; k < n; ++k) {
        sum_squares += p * p;
        const double p_next = ((t - r.a[std::size_t(k)]) * p - r.b[std::size_t(k)] * p_prev) / r.b[std::size_t(k) + 1];
        const double dp_next =
            (p + (t - r.a[std::size_t(k)]) * dp - r.b[std::size_t(k)] * dp_prev) / r.b[std::size_t(k) + 1];
        p_prev = p, p = p_next, dp_prev = dp, dp = dp_next;
      }
      if (step < 2) t -= p / dp;  // the last pass only evaluates the weight at the polished node
    }
    rule.nodes[std::size_t(i)] = t;
    rule.weights[std::size_t(i)] = 1.0 / sum_squares;
  }
  if (alpha == beta) {
    // Make the symmetric rule exactly symmetric, so odd moments vanish to rounding of the sum alone.
    for (int i = 0; i < n / 2; ++i) {
      const std::size_t j = std::size_t(n - 1 - i);
      const double t = 0.5 * (rule.nodes[j] - rule.nodes[std::size_t(i)]);
      const double w = 0.5 * (rule.weights[j] + rule.weights[std::size_t(i)]);
      rule.nodes[std::size_t(i)] = -t, rule.nodes[j] = t;
      rule.weights[std::size_t(i)] = w, rule.weights[j] = w;
    }
    if (n % 2 == 1) rule.nodes[std::size_t(n / 2)] = 0.0;
  }
  return rule;
}

// ---- tensor and collapsed rules --------------------------------------------------------------------

std::string repeat_count(int n, int dim) {
  std::string s = std::to_string(n);
  for (int d = 1; d < dim; ++d) s += "x" + std::to_string(n);
  return s;
}

// n Gauss points per axis integrate t^k exactly for k <= 2n - 1, so a rule for `degree` needs
// n = degree / 2 + 1 points and is exact to 2n - 1 (odd), at least `degree`.
int gauss_points_for(int degree) { return degree / 2 + 1; }

PointSet gauss_legendre_tensor(Shape shape, int degree) {
  const int dim = dimension(shape), n = gauss_points_for(degree);
  const Rule1D g = gauss_jacobi(n, 0.0, 0.0);
  PointSet set;
  set.shape = shape;
  set.degree = 2 * n - 1;
  set.name = "Gauss-Legendre " + repeat_count(n, dim);
  int count = 1;
  for (int d = 0; d < dim; ++d) count *= n;
  set.coordinates.reserve(std::size_t(count * dim));
  set.weights.reserve(std::size_t(count));
  // x fastest, then y, then z.
  for (int k = 0; k < (dim == 3 ? n : 1); ++k)
    for (int j = 0; j < (dim >= 2 ? n : 1); ++j)
      for (int i = 0; i < n; ++i) {
        const int index[3] = {i, j, k};
        double w = 1.0;
        for (int d = 0; d < dim; ++d) {
          set.coordinates.push_back(g.nodes[std::size_t(index[d])]);
          w *= g.weights[std::size_t(index[d])];
        }
        set.weights.push_back(w);
      }
  return set;
}

// Conical product (Duffy collapse) of the cube [0, 1]^d onto the simplex:
//   triangle     x = u,  y = v (1 - u),                      dx dy    = (1 - u) du dv
//   tetrahedron  x = u,  y = v (1 - u),  z = w (1 - u)(1 - v), dx dy dz = (1 - u)^2 (1 - v) du dv dw
// A polynomial of total degree k becomes one of degree <= k in each of u, v, w, and the Jacobian
// factors are absorbed in Gauss-Jacobi weights (alpha = 2, 1, 0), so n points per axis are exact to
// 2n - 1. Every node is a Gauss node, strictly inside (0, 1), and every weight is positive.
PointSet collapsed_gauss_jacobi(Shape shape, int degree) {
  const int dim = dimension(shape), n = gauss_points_for(degree);
  PointSet set;
  set.shape = shape;
  set.degree = 2 * n - 1;
  set.name = "collapsed Gauss-Jacobi " + repeat_count(n, dim);
  const Rule1D legendre = gauss_jacobi(n, 0.0, 0.0), jacobi1 = gauss_jacobi(n, 1.0, 0.0);
  auto unit = [](double t) { return 0.5 * (1.0 + t); };
  if (dim == 2) {
    // dt/2 for each axis and (1 - u) = (1 - t)/2: a factor 1/8 on the product of the 1D weights.
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double u = unit(jacobi1.nodes[std::size_t(i)]), v = unit(legendre.nodes[std::size_t(j)]);
        set.coordinates.push_back(u);
        set.coordinates.push_back(v * (1.0 - u));
        set.weights.push_back(jacobi1.weights[std::size_t(i)] * legendre.weights[std::size_t(j)] / 8.0);
      }
  } else {
    // (1/2)^3 from dt, (1/2)^2 from (1 - u)^2 and 1/2 from (1 - v): 1/64.
    const Rule1D jacobi2 = gauss_jacobi(n, 2.0, 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          const double u = unit(jacobi2.nodes[std::size_t(i)]), v = unit(jacobi1.nodes[std::size_t(j)]),
                       w = unit(legendre.nodes[std::size_t(k)]);
          set.coordinates.push_back(u);
          set.coordinates.push_back(v * (1.0 - u));
          set.coordinates.push_back(w * (1.0 - u) * (1.0 - v));
          set.weights.push_back(jacobi2.weights[std::size_t(i)] * jacobi1.weights[std::size_t(j)] *
                                legendre.weights[std::size_t(k)] / 64.0);
        }
  }
  return set;
}

// ---- fully symmetric simplex rules -------------------------------------------------------------------
// Each orbit is one barycentric tuple and its distinct permutations, one weight per point (weights are
// on the reference simplex itself, summing to 1/2 or 1/6). The point of barycentric tuple
// (l0, l1, l2[, l3]) is (x, y[, z]) = (l1, l2[, l3]).
//
//   triangle     S3  (1/3, 1/3, 1/3)            1 point
//                S21 (a, a, 1 - 2a)             3 points
//                S111 (a, b, 1 - a - b)         6 points
//   tetrahedron  S4  (1/4, 1/4, 1/4, 1/4)       1 point
//                S31 (a, a, a, 1 - 3a)          4 points
//                S22 (a, a, 1/2 - a, 1/2 - a)   6 points
//                S211 (a, a, b, 1 - 2a - b)    12 points
//
// Orbit parameters were solved for from the moment equations (every monomial of total degree <= the
// rule's degree) in 50-digit arithmetic, starting from the orbit structure of the published rule cited
// with each; the values below are rounded to 20 significant digits. tests/fem/quadrature_test.cpp checks
// every monomial, the positivity of the weights and the interiority of the points.

enum class Orbit { S3, S21, S111, S4, S31, S22, S211 };

struct OrbitData {
  Orbit orbit;
  double a, b, weight;
};

struct SymmetricRule {
  Shape shape;
  int degree;
  std::vector<OrbitData> orbits;
  const char* source;
};

// clang-format off
const std::vector<SymmetricRule>& symmetric_rules() {
  static const std::vector<SymmetricRule> rules = {
      // Centroid rule.
      {Shape::triangle, 1, {{Orbit::S3, 0, 0, 0.5}}, "centroid"},
      // Strang & Fix (1973), 3 interior points (the edge-midpoint rule is also degree 2 but on the
      // boundary): barycentric (2/3, 1/6, 1/6), weight 1/6 each.
      {Shape::triangle, 2, {{Orbit::S21, 1.0 / 6.0, 0, 1.0 / 6.0}}, "Strang-Fix"},
      // Dunavant (1985) degree 4, 6 points; it also serves degree 3, as Dunavant's own 4-point degree-3
      // rule has a negative centroid weight (-9/16 of the area).
      {Shape::triangle, 4,
       {{Orbit::S21, 0.091576213509770743460, 0, 0.054975871827660933819},
        {Orbit::S21, 0.44594849091596488632, 0, 0.11169079483900573285}},
       "Dunavant 1985"},
      // Radon (1948), 7 points: a = (6 -+ sqrt 15)/21, w = (155 -+ sqrt 15)/2400, centroid 9/80.
      {Shape::triangle, 5,
       {{Orbit::S3, 0, 0, 0.1125},
        {Orbit::S21, 0.10128650732345633880, 0, 0.062969590272413576298},
        {Orbit::S21, 0.47014206410511508977, 0, 0.066197076394253090369}},
       "Radon 1948"},
      // Dunavant (1985) degree 6, 12 points.
      {Shape::triangle, 6,
       {{Orbit::S21, 0.24928674517091042129, 0, 0.058393137863189683013},
        {Orbit::S21, 0.063089014491502228340, 0, 0.025422453185103408461},
        {Orbit::S111, 0.63650249912139864723, 0.31035245103378440542, 0.041425537809186787597}},
       "Dunavant 1985"},
      // 15 points, 3 S21 + 1 S111 orbits: 9 parameters for the 8 symmetric moment conditions of degree 7,
      // a one-parameter family; this member has smallest barycentric coordinate 0.0477. Witherden &
      // Vincent (2015) also give a positive interior 15-point degree-7 rule (Dunavant's 13-point one has
      // a negative weight, Gatermann's 12-point one only rotational symmetry).
      {Shape::triangle, 7,
       {{Orbit::S21, 0.47376068037238979815, 0, 0.029433018943686140904},
        {Orbit::S21, 0.055202889385040328323, 0, 0.018572822970775748726},
        {Orbit::S21, 0.24195548867464781960, 0, 0.063666606332865413726},
        {Orbit::S111, 0.24746422372929683870, 0.047658550872879680410, 0.027497109209669681656}},
       "solved, 15-point orbit structure"},
      // Dunavant (1985) degree 8, 16 points.
      {Shape::triangle, 8,
       {{Orbit::S3, 0, 0, 0.072157803838893584126},
        {Orbit::S21, 0.45929258829272315603, 0, 0.047545817133642312397},
        {Orbit::S21, 0.050547228317030975458, 0, 0.016229248811599040156},
        {Orbit::S21, 0.17056930775176020662, 0, 0.051608685267359125141},
        {Orbit::S111, 0.72849239295540428124, 0.0083947774099576053372, 0.013615157087217497132}},
       "Dunavant 1985"},

      {Shape::tetrahedron, 1, {{Orbit::S4, 0, 0, 1.0 / 6.0}}, "centroid"},
      // Hammer, Marlowe & Stroud (1956), 4 points: a = (5 - sqrt 5)/20, w = 1/24.
      {Shape::tetrahedron, 2, {{Orbit::S31, 0.13819660112501051518, 0, 1.0 / 24.0}}, "Hammer-Marlowe-Stroud"},
      // 8 points, 2 S31 orbits: 4 parameters for 3 conditions, a one-parameter family (Witherden &
      // Vincent 2015 list an 8-point degree-3 rule); this member has the largest smallest barycentric
      // coordinate found, 0.0173. Keast's 5-point degree-3 rule has a negative centroid weight (-2/15),
      // and no positive interior S4 + S22 (7-point) rule exists: the search found none.
      {Shape::tetrahedron, 3,
       {{Orbit::S31, 0.095168222477958009705, 0, 0.015042141245700599344},
        {Orbit::S31, 0.32757661727350328010, 0, 0.026624525420966067323}},
       "solved, 8-point orbit structure"},
      // 14 points (Walkington 2000; also Witherden & Vincent 2015), degree 5; it also serves degree 4,
      // since Keast's 11-point degree-4 rule has a negative centroid weight and a search for a positive
      // interior 11-point (S4 + S31 + S22) rule found none.
      {Shape::tetrahedron, 5,
       {{Orbit::S31, 0.31088591926330060980, 0, 0.018781320953002641800},
        {Orbit::S31, 0.092735250310891226402, 0, 0.012248840519393658257},
        {Orbit::S22, 0.045503704125649649492, 0, 0.0070910034628469110730}},
       "Walkington 2000"},
      // Keast (1986) degree 6, 24 points; the S211 weight is 27/3360.
      {Shape::tetrahedron, 6,
       {{Orbit::S31, 0.32233789014227551034, 0, 0.0092261969239424536825},
        {Orbit::S31, 0.040673958534611353116, 0, 0.0016795351758867738247},
        {Orbit::S31, 0.21460287125915202929, 0, 0.0066537917096945820166},
        {Orbit::S211, 0.063661001875017525299, 0.26967233145831580803, 0.0080357142857142857143}},
       "Keast 1986"},
      // 35 points, S4 + S31 + S22 + 2 S211: 11 parameters for the 11 symmetric moment conditions of
      // degree 7, solved here; smallest barycentric coordinate 0.0213. Witherden & Vincent (2015) also
      // give a positive interior 35-point degree-7 rule.
      {Shape::tetrahedron, 7,
       {{Orbit::S4, 0, 0, 0.015914214910688474810},
        {Orbit::S31, 0.31570114977820279942, 0, 0.0070549302016611715127},
        {Orbit::S22, 0.050489822598396368763, 0, 0.0053161546388095966557},
        {Orbit::S211, 0.021265472541483245989, 0.14663881381848494690, 0.0013517951383172235944},
        {Orbit::S211, 0.18883383102600104774, 0.57517163758700002348, 0.0062011884547224368949}},
       "solved, 35-point orbit structure"},
      // 46 points, 4 S31 + S22 + 2 S211: 16 parameters for the 15 symmetric moment conditions of degree 8,
      // a one-parameter family, of which the search found this member; its smallest barycentric
      // coordinate is only 0.0019 (the S211 orbit b), still strictly inside. Witherden & Vincent (2015)
      // also give a positive interior 46-point degree-8 rule; the collapsed rule would need 125 points.
      {Shape::tetrahedron, 8,
       {{Orbit::S31, 0.31334324464815188650, 0, 0.0075924467568209836424},
        {Orbit::S31, 0.046486723991738094343, 0, 0.0016130028588533532388},
        {Orbit::S31, 0.12125323988235337280, 0, 0.0057774311488421710637},
        {Orbit::S31, 0.18990589870078058461, 0, 0.0069480089871803813173},
        {Orbit::S22, 0.066679829833272911532, 0, 0.0062593216306029968832},
        {Orbit::S211, 0.20376019094046888179, 0.0018573010160629411940, 0.0022506191997440775665},
        {Orbit::S211, 0.021146847286428008080, 0.71152977701212236794, 0.0011983122899443497934}},
       "solved, 46-point orbit structure"},
  };
  return rules;
}
// clang-format on

std::vector<double> barycentric_generator(const OrbitData& o) {
  switch (o.orbit) {
    case Orbit::S3: return {1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0};
    case Orbit::S21: return {o.a, o.a, 1.0 - 2.0 * o.a};
    case Orbit::S111: return {o.a, o.b, 1.0 - o.a - o.b};
    case Orbit::S4: return {0.25, 0.25, 0.25, 0.25};
    case Orbit::S31: return {o.a, o.a, o.a, 1.0 - 3.0 * o.a};
    case Orbit::S22: return {o.a, o.a, 0.5 - o.a, 0.5 - o.a};
    case Orbit::S211: return {o.a, o.a, o.b, 1.0 - 2.0 * o.a - o.b};
  }
  return {};
}

PointSet expand(const SymmetricRule& rule) {
  PointSet set;
  set.shape = rule.shape;
  set.degree = rule.degree;
  for (const OrbitData& o : rule.orbits) {
    std::vector<double> l = barycentric_generator(o);
    // next_permutation from the sorted tuple visits each distinct permutation exactly once, so an
    // orbit of repeated coordinates (a, a, 1 - 2a) yields its 3 points, not 3! = 6.
    std::sort(l.begin(), l.end());
    do {
      set.coordinates.insert(set.coordinates.end(), l.begin() + 1, l.end());
      set.weights.push_back(o.weight);
    } while (std::next_permutation(l.begin(), l.end()));
  }
  set.name = "symmetric " + std::to_string(set.size()) + "-point degree " + std::to_string(rule.degree);
  return set;
}

}  // namespace

// n = 16 Gauss points per axis (degree 31) is the largest rule the tests sweep monomial by monomial;
// the construction itself has no limit of its own.
int max_quadrature_degree(Shape shape) {
  switch (shape) {
    case Shape::line:
    case Shape::triangle:
    case Shape::quadrilateral:
    case Shape::tetrahedron:
    case Shape::hexahedron: return 31;
  }
  throw std::invalid_argument("max_quadrature_degree: unknown element shape");
}

PointSet quadrature_rule(Shape shape, int degree) {
  const int max_degree = max_quadrature_degree(shape);
  if (degree < 0 || degree > max_degree)
    throw std::invalid_argument("quadrature_rule: degree " + std::to_string(degree) + " for the " +
                                shape_name(shape) + " is out of range: expected 0 <= degree <= " +
                                std::to_string(max_degree));
  if (!is_simplex(shape)) return gauss_legendre_tensor(shape, degree);

  // The symmetric rule with the fewest points wherever one is tabulated, even where the collapsed rule
  // has fewer (triangle degree 3: 4 collapsed points against 6): a symmetric rule gives results that do
  // not depend on how the mesh numbers an element's vertices.
  const SymmetricRule* best = nullptr;
  int best_points = 0;
  for (const SymmetricRule& rule : symmetric_rules()) {
    if (rule.shape != shape || rule.degree < degree) continue;
    const int points = expand(rule).size();
    if (!best || points < best_points) best = &rule, best_points = points;
  }
  return best ? expand(*best) : collapsed_gauss_jacobi(shape, degree);
}

}  // namespace feinterp
