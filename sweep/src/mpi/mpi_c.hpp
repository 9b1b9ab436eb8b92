// <mpi.h> for the MPI sweep's units that call MPI (session.cpp, transport.cpp): the C API only,
// since mpi.h would otherwise pull in the deprecated C++ bindings, which need their own library.
#pragma once

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
