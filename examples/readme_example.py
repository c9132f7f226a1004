# SPDX-License-Identifier: BSD-3-Clause
import numpy, feinterp

# The unit square as two p1 triangles (your own arrays: no mesh file), and u = 1 + 2x + 3y at its nodes.
coordinates = numpy.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=numpy.float64)
triangles = numpy.array([[0, 1, 2], [0, 2, 3]], dtype=numpy.int32)
plan = feinterp.Interpolator(feinterp.BlockArrays(feinterp.ElementType("triangle", 1), triangles), 2, coordinates)
u = 1 + 2 * coordinates[:, 0] + 3 * coordinates[:, 1]
grad, detj = plan.apply("physical_gradients", u)   # (E, Q, C, s) = (2, Q, 1, 2) and (E, Q), on the CPU
area = (plan.point_set.weights * detj).sum()       # sum of w_q |det J| over the points
print("grad u =", grad[0, 0, 0].round(12), "area =", area.round(12))   # [2. 3.] and 1.0
