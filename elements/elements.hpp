// SPDX-License-Identifier: BSD-3-Clause
// Umbrella header of the element library: the 15 element types, indices and visit.
#pragma once

#include <feinterp/elements/element_type.hpp>
#include <feinterp/elements/hexahedron.hpp>
#include <feinterp/elements/indices.hpp>
#include <feinterp/elements/line.hpp>
#include <feinterp/elements/quadrilateral.hpp>
#include <feinterp/elements/tetrahedron.hpp>
#include <feinterp/elements/triangle.hpp>
#include <feinterp/elements/visit.hpp>
