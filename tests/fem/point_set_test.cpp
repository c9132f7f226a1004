// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/elements/visit.hpp>
#include <feinterp/fem/point_set.hpp>

namespace feinterp {
namespace {

TEST(PointSetTest, ElementNodesAreTheReferenceNodesInGmshOrder) {
  for (ElementType type : all_element_types) {
    const PointSet nodes = element_nodes(type);
    SCOPED_TRACE(to_string(type));
    EXPECT_EQ(nodes.shape, type.shape);
    EXPECT_EQ(nodes.size(), nodes_per_element(type));
    EXPECT_TRUE(nodes.weights.empty());
    EXPECT_EQ(nodes.degree, -1);
    EXPECT_EQ(nodes.name, "nodes of " + to_string(type));
    visit(type, [&](auto element) {
      using Element = decltype(element);
      ASSERT_EQ(nodes.coordinates.size(), std::size_t(Element::nodes_per_element * Element::dimension));
      for (int n = 0; n < Element::nodes_per_element; ++n) {
        double xi[3];
        Element::reference_node(n, xi);
        for (int d = 0; d < Element::dimension; ++d) EXPECT_EQ(nodes.point(n)[d], xi[d]) << "node " << n;
      }
    });
  }
}

TEST(PointSetTest, ElementNodesRejectUnsupportedOrders) {
  EXPECT_THROW(element_nodes({Shape::triangle, 4}), std::invalid_argument);
  EXPECT_THROW(element_nodes({Shape::hexahedron, 0}), std::invalid_argument);
}

// Every element's own nodes lie in its reference element, boundary included.
TEST(PointSetTest, ReferencePointsAcceptElementNodes) {
  for (ElementType type : all_element_types) {
    const PointSet nodes = element_nodes(type);
    const PointSet points = reference_points(type.shape, nodes.coordinates);
    EXPECT_EQ(points.shape, type.shape);
    EXPECT_EQ(points.coordinates, nodes.coordinates);
    EXPECT_TRUE(points.weights.empty());
    EXPECT_EQ(points.degree, -1);
    EXPECT_FALSE(points.name.empty());
  }
}

std::string message_of(Shape shape, std::vector<double> coordinates) {
  try {
    reference_points(shape, std::move(coordinates));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PointSetTest, ReferencePointsRejectAnOutsidePointByIndex) {
  // Point 1 of the triangle is beyond the hypotenuse: 0.6 + 0.5 > 1.
  std::string message = message_of(Shape::triangle, {0.2, 0.2, 0.6, 0.5, 0.0, 0.0});
  EXPECT_NE(message.find("point 1 (0.59999999999999998, 0.5)"), std::string::npos) << message;
  EXPECT_NE(message.find("outside"), std::string::npos) << message;

  message = message_of(Shape::hexahedron, {0, 0, 0, 1, 1, 1, 0, 0, -1.5});
  EXPECT_NE(message.find("point 2 (0, 0, -1.5)"), std::string::npos) << message;
  EXPECT_NE(message.find("[-1, 1]^3"), std::string::npos) << message;

  EXPECT_NE(message_of(Shape::tetrahedron, {-0.01, 0.1, 0.1}).find("point 0"), std::string::npos);
  EXPECT_NE(message_of(Shape::quadrilateral, {0.0, 1.0 + 1e-9}).find("point 0"), std::string::npos);
}

TEST(PointSetTest, ReferencePointsRejectMalformedInput) {
  EXPECT_NE(message_of(Shape::triangle, {}).find("empty"), std::string::npos);
  EXPECT_NE(message_of(Shape::tetrahedron, {0.1, 0.1, 0.1, 0.2}).find("not a multiple of the dimension 3"),
            std::string::npos);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of(Shape::quadrilateral, {0.0, 0.0, nan, 0.0}).find("point 1"), std::string::npos);
  EXPECT_NE(message_of(Shape::quadrilateral, {0.0, 0.0, nan, 0.0}).find("not finite"), std::string::npos);
}

TEST(PointSetTest, ReferencePointsToleratesRoundingOnTheBoundary) {
  // 1/3 + 2/3 evaluated in double is 1 within an ulp; LagrangeElement::contains allows 1e-12.
  EXPECT_NO_THROW(reference_points(Shape::triangle, {1.0 / 3.0, 2.0 / 3.0 + 1e-15}));
  const PointSet one = reference_points(Shape::hexahedron, {1.0, -1.0, 0.5});
  EXPECT_EQ(one.size(), 1);
  EXPECT_EQ(one.dimension(), 3);
}

std::string check_message(const PointSet& set) {
  try {
    check_point_set(set);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(PointSetTest, CheckAcceptsRulesNodesAndNegativeWeights) {
  for (Shape shape : {Shape::line, Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron}) {
    EXPECT_EQ(check_message(element_nodes({shape, 3})), "");
    PointSet with_weights = element_nodes({shape, 2});
    with_weights.weights.assign(std::size_t(with_weights.size()), -0.25);
    EXPECT_EQ(check_message(with_weights), "") << shape_name(shape);
  }
}

TEST(PointSetTest, CheckRefusesWeightsThatDoNotMatchThePoints) {
  PointSet set = element_nodes({Shape::quadrilateral, 1});  // 4 points
  set.weights = {1, 1, 1};
  EXPECT_NE(check_message(set).find("3 weights for 4 points, expected one per point"), std::string::npos)
      << check_message(set);
  set.weights = {1, 1, 1, 1, 1};
  EXPECT_NE(check_message(set).find("5 weights for 4 points"), std::string::npos) << check_message(set);
  set.weights = {1, 1, 1, -std::numeric_limits<double>::infinity()};
  EXPECT_NE(check_message(set).find("weight 3 is -inf, expected a finite number"), std::string::npos)
      << check_message(set);
  set.weights = {1, 1, 1, 1};
  set.coordinates[5] = 1.5;
  EXPECT_NE(check_message(set).find("point 2 (1, 1.5) lies outside"), std::string::npos) << check_message(set);
  set.coordinates.clear();
  EXPECT_NE(check_message(set).find("empty"), std::string::npos) << check_message(set);
}

}  // namespace
}  // namespace feinterp
