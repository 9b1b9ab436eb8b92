// The MPI sweep's MPI calls (transport.hpp).
#include "transport.hpp"

#include <cstddef>

#include "mpi_c.hpp"

namespace pmom::sweep::mpi {
namespace {

constexpr int kRequestTag = 11, kReplyTag = 12;

void send(const Packet& p, int to, int tag) {
  MPI_Send(p.bytes().data(), static_cast<int>(p.bytes().size()), MPI_BYTE, to, tag,
           MPI_COMM_WORLD);
}

Packet receive(int from, int tag) {
  MPI_Status status;
  MPI_Probe(from, tag, MPI_COMM_WORLD, &status);
  int n = 0;
  MPI_Get_count(&status, MPI_BYTE, &n);
  std::vector<char> bytes(static_cast<std::size_t>(n));
  MPI_Recv(bytes.data(), n, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return Packet(std::move(bytes));
}

}  // namespace

void send_request(const Request& request) { send(pack(request), 0, kRequestTag); }

std::optional<Assignment> receive_reply(bool& failed) {
  Packet reply = receive(0, kReplyTag);
  return unpack_reply(reply, failed);
}

std::optional<std::pair<int, Request>> take_request() {
  int waiting = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &waiting, &status);
  if (waiting == 0) return std::nullopt;
  Packet p = receive(status.MPI_SOURCE, kRequestTag);
  return std::pair{status.MPI_SOURCE, unpack_request(p)};
}

void send_reply(const std::optional<Assignment>& assignment, bool failed, int to) {
  send(pack(assignment, failed), to, kReplyTag);
}

std::string broadcast(std::string text) {
  auto n = static_cast<unsigned long long>(text.size());
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
  return text;
}

Packet broadcast(const Packet& packet) {
  const std::string text = broadcast(std::string(packet.bytes().begin(), packet.bytes().end()));
  return Packet(std::vector<char>(text.begin(), text.end()));
}

void broadcast(std::vector<std::complex<double>>& values, int from) {
  MPI_Bcast(values.data(), static_cast<int>(2 * values.size()), MPI_DOUBLE, from,
            MPI_COMM_WORLD);
}

std::vector<std::string> gather(const MpiSession& session, const std::string& text) {
  const int n = static_cast<int>(text.size());
  std::vector<int> sizes(static_cast<std::size_t>(session.size()));
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(sizes.size());
  std::string all;
  if (session.rank() == 0) {
    int at = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = at;
      at += sizes[r];
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(text.data(), n, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> texts;
  if (session.rank() == 0)
    for (std::size_t r = 0; r < sizes.size(); ++r)
      texts.push_back(all.substr(static_cast<std::size_t>(offsets[r]),
                                 static_cast<std::size_t>(sizes[r])));
  return texts;
}

bool on_any_rank(bool yes) {
  int any = yes ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

void meet_every_rank() { MPI_Barrier(MPI_COMM_WORLD); }

}  // namespace pmom::sweep::mpi
