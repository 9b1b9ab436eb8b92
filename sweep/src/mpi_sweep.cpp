// run_sweep_on_ranks (mpi_sweep.hpp): the agreed set-up steps, the coordinator thread on rank 0
// and the workers' requests and replies.
#include "planarmom/sweep/mpi_sweep.hpp"

// The C API only: mpi.h would otherwise pull in the deprecated C++ bindings, which need their
// own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"
#include "sweep_steps.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;
constexpr int kRequestTag = 11, kReplyTag = 12;

// A message's bytes: values written in order and read back in the same order.
class Packet {
 public:
  Packet() = default;
  explicit Packet(std::vector<char> bytes) : bytes_(std::move(bytes)) {}

  template <class T> Packet& put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
    return *this;
  }
  template <class T> Packet& put(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(values.size());
    const auto* p = reinterpret_cast<const char*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size() * sizeof(T));
    return *this;
  }
  Packet& put(const std::string& text) { return put(std::vector<char>(text.begin(), text.end())); }

  template <class T> T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <class T> std::vector<T> get_vector() {
    const auto n = get<std::size_t>();
    std::vector<T> values(n);
    if (n > 0) std::memcpy(values.data(), take(n * sizeof(T)), n * sizeof(T));
    return values;
  }
  std::string get_string() {
    const std::vector<char> c = get_vector<char>();
    return {c.begin(), c.end()};
  }
  // Into a value or a vector, as put wrote it.
  template <class T> void get_into(T& value) { value = get<T>(); }
  template <class T> void get_into(std::vector<T>& values) { values = get_vector<T>(); }

  [[nodiscard]] const std::vector<char>& bytes() const { return bytes_; }

 private:
  const char* take(std::size_t n) {
    if (bytes_.size() - read_ < n) throw std::logic_error("MPI sweep: message shorter than read");
    const char* p = bytes_.data() + read_;
    read_ += n;
    return p;
  }
  std::vector<char> bytes_;
  std::size_t read_ = 0;
};

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

// Rank 0's text to every rank.
std::string broadcast(std::string text) {
  auto n = static_cast<unsigned long long>(text.size());
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
  return text;
}

// Every rank's text, on rank 0 (empty elsewhere).
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

// "rank 1 of 2 (host, pid 4242)", from the place this rank gathers (where()).
std::string rank_name(const MpiSession& session, int rank, const std::string& where) {
  return "rank " + std::to_string(rank) + " of " + std::to_string(session.size()) + " (" + where +
         ")";
}

std::string where(const MpiSession& session) {
  return session.host() + ", pid " + std::to_string(::getpid());
}

// Every rank's "where\ntext", gathered on rank 0 as {rank's name, text} (empty elsewhere).
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

// A failure every rank knows of is reported: rank 0 logs it, then every rank meets the others
// and throws FailureReported. mpirun ends the job as soon as one rank exits non-zero; a rank
// that ended first took rank 0's line with it (on a busy 16-core host the disk-full sweep ended
// with no error line at all).
[[noreturn]] void report_failure(const MpiSession& session, const std::string& message) {
  if (session.rank() == 0) PMOM_LOG(error) << message;
  MPI_Barrier(MPI_COMM_WORLD);
  throw FailureReported(message);
}

// One agreed step: each rank's error (empty: none) goes to rank 0, which sends the first to
// every rank; then it is reported (naming the rank it came from where that was another).
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

// Runs `step`, then agrees on whether it failed anywhere.
template <class Step> void agreed(const MpiSession& session, Step&& step) {
  std::string error;
  try {
    step();
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "an error without a message";
  }
  agree(session, error);
}

// A batch of the band's tables (mom::BandTables::Share) shared by every rank: frequency k is
// evaluated by rank k mod R, and each evaluation is then broadcast from its rank. A rank that
// fails to evaluate stops every rank (agree) before any broadcast waits for it.
mom::BandTables::Share share_among(const MpiSession& session) {
  return [&session](const std::vector<double>& frequencies, const mom::TablePlan& plan,
                    const std::function<mom::InteractionTables(double)>& one) {
    const auto ranks = static_cast<std::size_t>(session.size());
    std::vector<std::vector<cd>> values(frequencies.size());
    agreed(session, [&] {
      for (std::size_t k = static_cast<std::size_t>(session.rank()); k < frequencies.size();
           k += ranks)
        values[k] = one(frequencies[k]).values;
    });
    std::vector<mom::InteractionTables> tables;
    for (std::size_t k = 0; k < frequencies.size(); ++k) {
      values[k].resize(static_cast<std::size_t>(plan.size));
      MPI_Bcast(values[k].data(), static_cast<int>(2 * plan.size), MPI_DOUBLE,
                static_cast<int>(k % ranks), MPI_COMM_WORLD);
      tables.push_back(mom::tables_with_values(plan, frequencies[k], std::move(values[k])));
    }
    return tables;
  };
}

// A request from a worker to rank 0, and its reply.
enum class RequestKind : char { first, record, failed };
enum class ReplyKind : char { frequency, stop, stop_failed };

struct Request {
  RequestKind kind = RequestKind::first;
  io::FrequencyRecord record;
  std::string error;
};

Packet pack(const Request& q) {
  Packet p;
  p.put(q.kind);
  if (q.kind == RequestKind::failed) p.put(q.error);
  if (q.kind != RequestKind::record) return p;
  io::for_each_member([&p, &r = q.record](auto member) { p.put(r.*member); });
  return p;
}

Request unpack_request(Packet& p) {
  Request q;
  q.kind = p.get<RequestKind>();
  if (q.kind == RequestKind::failed) q.error = p.get_string();
  if (q.kind != RequestKind::record) return q;
  io::for_each_member([&p, &r = q.record](auto member) { p.get_into(r.*member); });
  return q;
}

Packet pack(const std::optional<Assignment>& a, bool failed) {
  Packet p;
  if (!a) return p.put(failed ? ReplyKind::stop_failed : ReplyKind::stop);
  p.put(ReplyKind::frequency).put(a->index).put(a->frequency_hz);
  p.put(a->next_hz.has_value()).put(a->next_hz.value_or(0.0)).put(a->guess).put(a->currents);
  return p;
}

// The assignment in a reply; nothing for a stop (std::nullopt), and `failed` set for a stop
// after a failure.
std::optional<Assignment> unpack_reply(Packet& p, bool& failed) {
  const auto kind = p.get<ReplyKind>();
  failed = kind == ReplyKind::stop_failed;
  if (kind != ReplyKind::frequency) return std::nullopt;
  Assignment a;
  a.index = p.get<std::size_t>();
  a.frequency_hz = p.get<double>();
  const bool has_next = p.get<bool>();
  const double next = p.get<double>();
  if (has_next) a.next_hz = next;
  a.guess = p.get<Assignment::Guess>();
  a.currents = p.get_vector<cd>();
  return a;
}

// Rank 0's own worker and the coordinator thread meet here: the worker posts a request and
// waits for the reply.
class LocalChannel {
 public:
  std::optional<Assignment> ask(Request q) {
    std::unique_lock lock(mutex_);
    request_ = std::move(q);
    reply_.reset();
    changed_.wait(lock, [this] { return reply_.has_value(); });
    std::optional<Assignment> a = std::move(*reply_);
    reply_.reset();
    return a;
  }
  std::optional<Request> take() {
    const std::lock_guard lock(mutex_);
    std::optional<Request> q = std::move(request_);
    request_.reset();
    return q;
  }
  void answer(std::optional<Assignment> a) {
    {
      const std::lock_guard lock(mutex_);
      reply_.emplace(std::move(a));
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Request> request_;
  std::optional<std::optional<Assignment>> reply_;
};

// Rank 0's coordinator thread: serves rank 0's worker through `local` and the other ranks by
// MPI, until every worker has been told to stop.
void coordinate(SweepCoordinator& coordinator, LocalChannel& local, const MpiSession& session,
                const std::vector<std::string>& names) {
  const auto serve = [&](int worker, Request& q) -> std::optional<Assignment> {
    try {
      if (q.kind == RequestKind::failed) {
        coordinator.fail(names[static_cast<std::size_t>(worker)] + ": " + q.error);
        return std::nullopt;
      }
      return coordinator.next(worker, q.kind == RequestKind::record ? &q.record : nullptr);
    } catch (const std::exception& e) {
      coordinator.fail(e.what());
      return std::nullopt;
    }
  };
  int stopped = 0;
  while (stopped < session.size()) {
    bool served = false;
    if (std::optional<Request> q = local.take()) {
      std::optional<Assignment> a = serve(0, *q);
      stopped += a ? 0 : 1;
      local.answer(std::move(a));
      served = true;
    }
    int waiting = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &waiting, &status);
    if (waiting != 0) {
      Packet p = receive(status.MPI_SOURCE, kRequestTag);
      Request q = unpack_request(p);
      const std::optional<Assignment> a = serve(status.MPI_SOURCE, q);
      stopped += a ? 0 : 1;
      send(pack(a, coordinator.failure().has_value()), status.MPI_SOURCE, kReplyTag);
      served = true;
    }
    if (!served) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// A worker's loop with `ask` carrying its requests; a failure is sent as its last request.
// Returns whether it failed here.
bool run_worker(const std::function<std::optional<Assignment>(Request)>& ask,
                SweepPipeline& pipeline) {
  try {
    work(
        [&ask](io::FrequencyRecord* done) {
          Request q;
          if (done != nullptr) {
            q.kind = RequestKind::record;
            q.record = std::move(*done);
          }
          return ask(std::move(q));
        },
        [&pipeline](double hz, std::vector<cd>& guess, std::optional<double> next) {
          return pipeline.run(hz, guess, next);
        });
  } catch (const std::exception& e) {
    Request q;
    q.kind = RequestKind::failed;
    q.error = e.what();
    ask(std::move(q));
    return true;
  }
  return false;
}

// How the sweep's backends are named in its file: the one all ranks run, or each of them
// ("cpu+cuda").
std::string joined(const std::vector<std::string>& names) {
  const std::set<std::string> distinct(names.begin(), names.end());
  std::string all;
  for (const std::string& n : distinct) all += (all.empty() ? "" : "+") + n;
  return all;
}

}  // namespace

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

std::optional<SweepJob> run_sweep_on_ranks(const std::filesystem::path& config,
                                           const RunOptions& options, const MpiSession& session) {
  const bool root = session.rank() == 0;
  // 1. Every rank reads and meshes the config; it must be the same sweep everywhere.
  std::optional<SweepJob> job;
  agreed(session, [&] { job = load_sweep(config); });
  std::ostringstream mine;
  mine << std::hash<std::string>{}(steps::sweep_info(*job, "").config_text) << ' '
       << job->mesh.basis().size() << ' ' << job->settings.frequencies_hz.size();
  const auto sweeps = gather_named(session, mine.str());
  std::string differs;
  for (std::size_t r = 1; r < sweeps.size() && differs.empty(); ++r)
    if (sweeps[r].second != sweeps[0].second)
      differs = sweeps[r].first + " read another sweep than rank 0 from " + config.string() +
                " (config text, unknowns or frequencies differ): every rank must read the same "
                "file (a shared folder, or the same copy on every host)";
  agree(session, differs);

  // 2. Each rank's backend: the device of its place on its host.
  const SweepSettings settings = output_paths(*job, options);
  std::unique_ptr<Backend<cd>> backend;
  std::string backend_name, device = "cpu";
  agreed(session, [&] {
    const int ordinal =
        settings.backend == BackendChoice::cpu ? -1 : select_cuda_device(session.local_rank());
    backend_name = to_string(steps::choose_backend(settings.backend));
    backend = make_backend<cd>(backend_name);
    backend_name = backend->on_device() ? "cuda" : "cpu";
    device = backend->on_device() ? "cuda device " + std::to_string(ordinal) + ", " +
                                          cuda_device_status().description
                                    : "cpu, " + std::to_string(omp_get_max_threads()) +
                                          " threads";
  });
  const std::vector<std::string> backends = gather(session, backend_name);
  std::vector<std::string> names;  // on rank 0: "rank 1 of 2 (host, pid 4242)"
  for (const auto& [name, what] : gather_named(session, device)) {
    PMOM_LOG(info) << name << ": " << what;
    names.push_back(name);
  }

  // 3. Rank 0 checks the outputs and opens the file (resumed or fresh).
  std::optional<io::SweepFile> file;
  agreed(session, [&] {
    if (!root) return;
    steps::prepare_outputs(*job, settings, options);
    file.emplace(settings.hdf5, steps::sweep_info(*job, joined(backends)),
                 options.resume ? io::SweepFile::Mode::resume : io::SweepFile::Mode::fresh);
  });

  // 4. Rank 0 solves the line checks and sends them to the others; then every rank builds its
  // pipeline (the tables' plan, the operator) at once.
  LineResults lines;
  agreed(session, [&] {
    if (root) solve_line_checks(job->mesh, settings, *backend, lines);
  });
  Packet sent;
  if (root) {
    sent.put(lines.size());
    for (const auto& [key, values] : lines) sent.put(key).put(values);
  }
  const std::string bytes =
      broadcast(root ? std::string(sent.bytes().begin(), sent.bytes().end()) : "");
  if (!root) {
    Packet got(std::vector<char>(bytes.begin(), bytes.end()));
    const auto count = got.get<std::size_t>();
    for (std::size_t k = 0; k < count; ++k) {
      std::string key = got.get_string();
      lines[std::move(key)] = got.get_vector<double>();
    }
  }
  std::optional<SweepPipeline> pipeline;
  agreed(session, [&] { pipeline.emplace(job->mesh, settings, *backend, &lines); });
  // Where a rank fills Z on the host from tables over the band, every rank evaluates its share
  // of their nodes and receives the others'.
  int wants = pipeline->wants_band_tables() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &wants, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (wants != 0) pipeline->make_band_tables(share_among(session));

  // 5. The frequencies: rank 0 hands them out from its coordinator thread and solves its own.
  if (!root) {
    bool stopped_failed = false;  // rank 0 stopped this rank after a failure
    const bool failed_here = run_worker(
        [&stopped_failed](Request q) {
          send(pack(q), 0, kRequestTag);
          Packet reply = receive(0, kReplyTag);
          return unpack_reply(reply, stopped_failed);
        },
        *pipeline);
    if (failed_here || stopped_failed)
      report_failure(session, "the sweep stopped; rank 0 says why");
    return std::nullopt;
  }
  SweepCoordinator coordinator(*file, settings.frequencies_hz, session.size(), options.progress);
  PMOM_LOG(info) << coordinator.todo() << " frequencies to compute on " << session.size()
                 << " ranks, handed out as they ask";
  LocalChannel local;
  std::thread thread([&] { coordinate(coordinator, local, session, names); });
  // A failure here reaches the coordinator as this worker's last request: its failure() says it.
  (void)run_worker([&local](Request q) { return local.ask(std::move(q)); }, *pipeline);
  thread.join();
  coordinator.log_rate();
  if (const std::optional<std::string>& failure = coordinator.failure())
    report_failure(session, *failure + " (" + std::to_string(coordinator.done()) + " of " +
                                std::to_string(coordinator.todo()) + " frequencies written to " +
                                io::SweepFile::partial_path(settings.hdf5).string() +
                                ": --resume continues from them, with any number of ranks)");
  steps::finish(*file, *job, settings);
  return job;
}

}  // namespace pmom::sweep
