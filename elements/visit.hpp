// SPDX-License-Identifier: BSD-3-Clause
// visit(type, f): the one place where the run-time pair (shape, order) becomes a compile-time element
// type. f is called as f(Element{}) with Element one of the 15 LagrangeElement types, and its result is
// returned. Every other switch over element kinds in the project goes through here.
#pragma once

#include <stdexcept>
#include <utility>

#include <feinterp/elements/element_type.hpp>
#include <feinterp/elements/hexahedron.hpp>
#include <feinterp/elements/line.hpp>
#include <feinterp/elements/quadrilateral.hpp>
#include <feinterp/elements/tetrahedron.hpp>
#include <feinterp/elements/triangle.hpp>

namespace feinterp {

namespace detail {
template <Shape S, class F>
decltype(auto) visit_order(int order, F&& f) {
  switch (order) {
    case 1: return std::forward<F>(f)(LagrangeElement<S, 1>{});
    case 2: return std::forward<F>(f)(LagrangeElement<S, 2>{});
    case 3: return std::forward<F>(f)(LagrangeElement<S, 3>{});
  }
  check_order({S, order});  // throws
  throw std::logic_error("unreachable");
}
}  // namespace detail

template <class F>
decltype(auto) visit(ElementType type, F&& f) {
  switch (type.shape) {
    case Shape::line: return detail::visit_order<Shape::line>(type.order, std::forward<F>(f));
    case Shape::triangle: return detail::visit_order<Shape::triangle>(type.order, std::forward<F>(f));
    case Shape::quadrilateral: return detail::visit_order<Shape::quadrilateral>(type.order, std::forward<F>(f));
    case Shape::tetrahedron: return detail::visit_order<Shape::tetrahedron>(type.order, std::forward<F>(f));
    case Shape::hexahedron: return detail::visit_order<Shape::hexahedron>(type.order, std::forward<F>(f));
  }
  throw std::invalid_argument("unknown element shape");
}

/// All 15 supported element types, in a fixed order (for tests, sweeps and the demo).
inline constexpr ElementType all_element_types[] = {
    {Shape::line, 1},          {Shape::line, 2},          {Shape::line, 3},
    {Shape::triangle, 1},      {Shape::triangle, 2},      {Shape::triangle, 3},
    {Shape::quadrilateral, 1}, {Shape::quadrilateral, 2}, {Shape::quadrilateral, 3},
    {Shape::tetrahedron, 1},   {Shape::tetrahedron, 2},   {Shape::tetrahedron, 3},
    {Shape::hexahedron, 1},    {Shape::hexahedron, 2},    {Shape::hexahedron, 3}};

}  // namespace feinterp
