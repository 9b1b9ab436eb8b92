// MPI for the process's lifetime, and the host's cores shared among its ranks (mpi_sweep.hpp).
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "mpi_c.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"

namespace pmom::sweep {

void share_host_cores(const MpiSession& session) {
  const int cores = omp_get_num_procs();  // those this process may run on
  const int host = static_cast<int>(std::thread::hardware_concurrency());
  const int share = std::max(1, host / session.local_size());
  if (cores < share) {
    PMOM_LOG(warning) << "bound to " << cores << " of the host's " << host
                      << " cores (mpirun's binding): the host's part of each frequency (its "
                         "Green's table) and the tables' plan run on them; mpirun --bind-to "
                         "none gives each of the host's "
                      << session.local_size() << " ranks " << share;
    return;
  }
  if (session.local_size() > 1 && std::getenv("OMP_NUM_THREADS") == nullptr)
    omp_set_num_threads(share);
}

bool MpiSession::launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

MpiSession::MpiSession() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI did not start (MPI_Init_thread)");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("this MPI library gives no MPI_THREAD_SERIALIZED, which the sweep's "
                             "coordinator thread on rank 0 needs");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm host_comm = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host_comm);
  MPI_Comm_rank(host_comm, &local_rank_);
  MPI_Comm_size(host_comm, &local_size_);
  MPI_Comm_free(&host_comm);
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  host_.assign(name, static_cast<std::size_t>(length));
}

MpiSession::~MpiSession() { MPI_Finalize(); }

}  // namespace pmom::sweep
