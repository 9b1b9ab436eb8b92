// Where a backend's memory lives and its work runs (Ginkgo's executor): allocation, copies
// between the host and that memory, synchronisation, and the loop that runs a solver's
// iterations. It knows no value type: every Backend<T> is one.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/block.hpp"

namespace pmom {

enum class CopyKind { to_backend, to_host, within_backend };

// Runs a solver iteration `count` times. The plain loop calls it; a device backend may record
// the iteration's launches once and replay them (CUDA graphs), which is valid because the
// solvers keep every pointer and size of an iteration fixed for the whole solve.
class StepLoop {
 public:
  virtual ~StepLoop() = default;
  virtual void run(int count) = 0;
};

class PlainStepLoop final : public StepLoop {
 public:
  explicit PlainStepLoop(std::function<void()> step) : step_(std::move(step)) {}
  void run(int count) override {
    for (int i = 0; i < count; ++i) step_();
  }

 private:
  std::function<void()> step_;
};

class Executor {
 public:
  virtual ~Executor() = default;

  [[nodiscard]] virtual std::string name() const = 0;
  // Whether its memory is a device's (not the host's): callers choose device-side routes by
  // this, never by the name.
  [[nodiscard]] virtual bool on_device() const = 0;

  // Zero-filled storage of the given size.
  virtual std::shared_ptr<void> allocate_bytes(std::size_t bytes) = 0;
  virtual void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind kind) = 0;
  // Waits for all queued work (timing, host reads).
  virtual void synchronize() = 0;
  // Bytes of a device's memory free now; 0 for a backend whose memory is the host's, which
  // callers size by time, not by this.
  [[nodiscard]] virtual std::size_t device_memory_free() const { return 0; }

  template <class U> Block<U> allocate(index_t rows, index_t cols) {
    return Block<U>(allocate_bytes(static_cast<std::size_t>(rows) * cols * sizeof(U)), rows,
                    cols);
  }
  template <class U> void upload(std::span<const U> host, Block<U>& dst) {
    check_size(host.size(), dst.size());
    copy_bytes(dst.data(), host.data(), dst.bytes(), CopyKind::to_backend);
  }
  template <class U> std::vector<U> download(const Block<U>& src) {
    std::vector<U> host(src.size());
    copy_bytes(host.data(), src.data(), src.bytes(), CopyKind::to_host);
    return host;
  }
  template <class U> void copy(const Block<U>& src, Block<U>& dst) {
    check_size(src.size(), dst.size());
    copy_bytes(dst.data(), src.data(), src.bytes(), CopyKind::within_backend);
  }

  // Iterations between the solver's stopping tests when the options leave it to the backend.
  [[nodiscard]] virtual int default_check_interval() const { return 1; }

  // The iteration loop; see StepLoop. The default is the plain loop.
  virtual std::unique_ptr<StepLoop> make_step_loop(std::function<void()> step) {
    return std::make_unique<PlainStepLoop>(std::move(step));
  }

 private:
  static void check_size(std::size_t have, std::size_t want) {
    if (have != want)
      throw std::invalid_argument("block copy: " + std::to_string(have) + " values given, " +
                                  std::to_string(want) + " expected");
  }
};

}  // namespace pmom
