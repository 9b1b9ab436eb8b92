// The MPI sweep's failure agreement (agreement.hpp).
#include "agreement.hpp"

#include <unistd.h>

#include <cstddef>

#include "planarmom/logging/logging.hpp"
#include "transport.hpp"

namespace pmom::sweep::mpi {
namespace {

// "rank 1 of 2 (host, pid 4242)", from the place this rank gathers (where()).
std::string rank_name(const MpiSession& session, int rank, const std::string& where) {
  return "rank " + std::to_string(rank) + " of " + std::to_string(session.size()) + " (" + where +
         ")";
}

std::string where(const MpiSession& session) {
  return session.host() + ", pid " + std::to_string(::getpid());
}

}  // namespace

std::vector<std::pair<std::string, std::string>> gather_named(const MpiSession& session,
                                                              const std::string& text) {
  std::vector<std::pair<std::string, std::string>> named;
  const std::vector<std::string> texts = gather(session, where(session) + '\n' + text);
  for (std::size_t r = 0; r < texts.size(); ++r) {
    const std::size_t cut = texts[r].find('\n');
    named.emplace_back(rank_name(session, static_cast<int>(r), texts[r].substr(0, cut)),
                       texts[r].substr(cut + 1));
  }
  return named;
}

void report_failure(const MpiSession& session, const std::string& message) {
  if (session.rank() == 0) PMOM_LOG(error) << message;
  meet_every_rank();
  throw FailureReported(message);
}

void agree(const MpiSession& session, const std::string& error) {
  const auto errors = gather_named(session, error);
  std::string verdict;
  for (std::size_t r = 0; r < errors.size() && verdict.empty(); ++r) {
    const auto& [name, what] = errors[r];
    if (!what.empty()) verdict = r == 0 ? what : name + ": " + what;
  }
  verdict = broadcast(verdict);
  if (verdict.empty()) return;
  report_failure(session, verdict);
}

}  // namespace pmom::sweep::mpi
