// The packing of the MPI sweep's messages (messages.hpp).
#include "messages.hpp"

#include <complex>
#include <cstddef>
#include <utility>

namespace pmom::sweep::mpi {
namespace {

using cd = std::complex<double>;
enum class ReplyKind : char { frequency, stop, stop_failed };

}  // namespace

Packet pack(const Request& request) {
  Packet p;
  p.put(request.kind);
  if (request.kind == RequestKind::failed) p.put(request.error);
  if (request.kind != RequestKind::record) return p;
  io::for_each_member([&p, &r = request.record](auto member) { p.put(r.*member); });
  return p;
}

Request unpack_request(Packet& packet) {
  Request q;
  q.kind = packet.get<RequestKind>();
  if (q.kind == RequestKind::failed) q.error = packet.get_string();
  if (q.kind != RequestKind::record) return q;
  io::for_each_member([&packet, &r = q.record](auto member) { packet.get_into(r.*member); });
  return q;
}

Packet pack(const std::optional<Assignment>& assignment, bool failed) {
  Packet p;
  if (!assignment) return p.put(failed ? ReplyKind::stop_failed : ReplyKind::stop);
  const Assignment& a = *assignment;
  p.put(ReplyKind::frequency).put(a.index).put(a.frequency_hz);
  p.put(a.next_hz.has_value()).put(a.next_hz.value_or(0.0)).put(a.guess).put(a.currents);
  return p;
}

std::optional<Assignment> unpack_reply(Packet& packet, bool& failed) {
  const auto kind = packet.get<ReplyKind>();
  failed = kind == ReplyKind::stop_failed;
  if (kind != ReplyKind::frequency) return std::nullopt;
  Assignment a;
  a.index = packet.get<std::size_t>();
  a.frequency_hz = packet.get<double>();
  const bool has_next = packet.get<bool>();
  const double next = packet.get<double>();
  if (has_next) a.next_hz = next;
  a.guess = packet.get<Assignment::Guess>();
  a.currents = packet.get_vector<cd>();
  return a;
}

Packet pack(const LineResults& lines) {
  Packet p;
  p.put(lines.size());
  for (const auto& [key, values] : lines) p.put(key).put(values);
  return p;
}

LineResults unpack_lines(Packet& packet) {
  LineResults lines;
  const auto count = packet.get<std::size_t>();
  for (std::size_t k = 0; k < count; ++k) {
    std::string key = packet.get_string();
    lines[std::move(key)] = packet.get_vector<double>();
  }
  return lines;
}

}  // namespace pmom::sweep::mpi
