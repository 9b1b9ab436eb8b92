// Owning HDF5 identifiers, and HDF5 failures turned into SweepFileError messages that name the
// file and carry the library's own explanation instead of its stderr dump.
#pragma once

#include <hdf5.h>

#include <filesystem>
#include <string_view>
#include <utility>

#include "planarmom/io/sweep_file.hpp"

namespace pmom::io::h5 {

template <herr_t (*Close)(hid_t)>
class Id {
 public:
  Id() = default;
  explicit Id(hid_t id) : id_(id) {}
  ~Id() { reset(); }
  Id(Id&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Id& operator=(Id&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;

  [[nodiscard]] hid_t get() const { return id_; }
  [[nodiscard]] bool is_open() const { return id_ >= 0; }

  // Closes now and reports the outcome: closing a file writes its last metadata, which can fail.
  herr_t close() { return is_open() ? Close(std::exchange(id_, H5I_INVALID_HID)) : 0; }

 private:
  void reset() {
    if (is_open()) Close(std::exchange(id_, H5I_INVALID_HID));
  }
  hid_t id_ = H5I_INVALID_HID;
};

using File = Id<H5Fclose>;
using Dataset = Id<H5Dclose>;
using Space = Id<H5Sclose>;
using Type = Id<H5Tclose>;
using Attribute = Id<H5Aclose>;
using PropertyList = Id<H5Pclose>;

// Holds HDF5's automatic printing of error stacks to stderr off while it lives: failures still
// arrive as return codes, and fail() puts the stack's explanation into the exception. Scoped
// per call (not set once) so that an application's own HDF5 settings survive.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &print_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, print_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t print_ = nullptr;
  void* data_ = nullptr;
};

// Throws SweepFileError "FILE: what: <HDF5's most specific explanation>". The first form takes
// any identifier inside the file.
[[noreturn]] void fail(hid_t location, std::string_view what);
[[noreturn]] void fail(const std::filesystem::path& file, std::string_view what);

// The result of an HDF5 call, or fail() when it reports an error (a negative value).
template <class Result, class Where>
Result check(Result result, const Where& where, std::string_view what) {
  if (result < 0) fail(where, what);
  return result;
}

}  // namespace pmom::io::h5
