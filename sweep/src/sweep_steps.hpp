// The steps of run_sweep (run.hpp) that an MPI sweep (mpi_sweep.hpp) runs on its ranks; internal
// to the sweep library.
#pragma once

#include <complex>
#include <string>

#include "planarmom/gpusolver/backend.hpp"

#include "planarmom/io/sweep_file.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep::steps {

// Makes the output folder, checks that every output's folder takes files (std::runtime_error
// "cannot write ..." before any is written) and writes the layout picture.
void prepare_outputs(const SweepJob& job, const SweepSettings& settings,
                     const RunOptions& options);

// The backend `wanted` names; auto: cuda where a device is visible (logged), else cpu.
BackendChoice choose_backend(BackendChoice wanted);

// How the sweep file is opened for `continuation`.
io::SweepFile::Mode file_mode(Continuation continuation);

// What the sweep file records for the whole run.
io::SweepInfo sweep_info(const SweepJob& job, const std::string& backend);

// After the last record: the file finished (with an adaptive sweep's fit) and read back, the
// Touchstone file and the current pictures written.
io::SweepData finish(io::SweepFile& file, const SweepJob& job, const SweepSettings& settings,
                     const io::SweepFit* fit = nullptr);

// The adaptive sweep (is_adaptive(settings), adaptive_sampler.hpp) on one worker, from the opening
// of its file to finish().
io::SweepData run_adaptive(const SweepJob& job, const SweepSettings& settings,
                           const RunOptions& options, const std::string& backend_name,
                           Backend<std::complex<double>>& backend);

}  // namespace pmom::sweep::steps
