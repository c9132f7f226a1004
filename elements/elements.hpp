// SPDX-License-Identifier: BSD-3-Clause
// Umbrella header of the element library: the 15 element types, indices and visit.
#pragma once

#include "element_type.hpp"
#include "hexahedron.hpp"
#include "indices.hpp"
#include "line.hpp"
#include "quadrilateral.hpp"
#include "tetrahedron.hpp"
#include "triangle.hpp"
#include "visit.hpp"
