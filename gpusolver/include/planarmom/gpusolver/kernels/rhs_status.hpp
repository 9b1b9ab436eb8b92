// The state of each right-hand side that the solvers' kernels set and read: a column whose
// status is not rhs_running is left alone; the solver maps the others to an outcome.
#pragma once

namespace pmom {

enum RhsStatus : int { rhs_running = 0, rhs_stopped = 1, rhs_breakdown_rho = 2,
                       rhs_breakdown_sigma = 3, rhs_breakdown_omega = 4 };

}  // namespace pmom
