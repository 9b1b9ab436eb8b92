// The MPI calls of the MPI sweep, all on MPI_COMM_WORLD: a worker's requests to rank 0 and its
// replies (each under its own tag), and the collectives of the agreed steps. Besides the session
// (session.cpp), the one unit that speaks MPI.
#pragma once

#include <complex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "packet.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"

namespace pmom::sweep::mpi {

// From a worker on a rank other than 0: its request to rank 0, then rank 0's reply
// (unpack_reply).
void send_request(const Request& request);
std::optional<Assignment> receive_reply(bool& failed);

// On rank 0: a request that has come from another rank, with that rank (nothing: none waits);
// then the reply to it (pack).
std::optional<std::pair<int, Request>> take_request();
void send_reply(const std::optional<Assignment>& assignment, bool failed, int to);

// Rank 0's text, or packet, to every rank.
std::string broadcast(std::string text);
Packet broadcast(const Packet& packet);
// Rank `from`'s values to every rank, where each rank's `values` hold as many already.
void broadcast(std::vector<std::complex<double>>& values, int from);

// Every rank's text, on rank 0 (empty elsewhere).
std::vector<std::string> gather(const MpiSession& session, const std::string& text);

// Whether `yes` holds on any rank, on every rank.
bool on_any_rank(bool yes);

// Returns once every rank has come here.
void meet_every_rank();

}  // namespace pmom::sweep::mpi
