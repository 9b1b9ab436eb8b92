// What the MPI sweep's ranks tell each other, and its packing into bytes (packet.hpp): a
// worker's request to rank 0 and the reply, and the line checks rank 0 solved for the others.
#pragma once

#include <optional>
#include <string>

#include "packet.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/sweep/line_checks.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"

namespace pmom::sweep::mpi {

// A request from a worker to rank 0: its first, one with the record it computed, or its last,
// saying why it failed. The reply is a frequency (an Assignment) or a stop.
enum class RequestKind : char { first, record, failed };

struct Request {
  RequestKind kind = RequestKind::first;
  io::FrequencyRecord record;  // RequestKind::record
  std::string error;           // RequestKind::failed
};

Packet pack(const Request& request);
Request unpack_request(Packet& packet);

// A reply: the assignment, or (std::nullopt) a stop, `failed` telling a stop after a failure.
Packet pack(const std::optional<Assignment>& assignment, bool failed);
std::optional<Assignment> unpack_reply(Packet& packet, bool& failed);

Packet pack(const LineResults& lines);
LineResults unpack_lines(Packet& packet);

}  // namespace pmom::sweep::mpi
