// Disk space for a sweep file's next record, taken before HDF5 writes any of it. HDF5 cannot
// take back half a flush: run out of space in the middle of one and the file on disk holds the
// new metadata without the data it points to. With the space reserved first, a full disk stops
// the sweep between two records, and the records already written stay readable and resumable.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

namespace pmom::io {

class SpaceReservation {
 public:
  SpaceReservation() = default;
  // Throws std::system_error when the file cannot be opened for writing.
  explicit SpaceReservation(const std::filesystem::path& file)
      : fd_(::open(file.c_str(), O_WRONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), file.string());
  }
  ~SpaceReservation() {
    if (fd_ >= 0) ::close(fd_);
  }
  SpaceReservation(SpaceReservation&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  SpaceReservation& operator=(SpaceReservation&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  SpaceReservation(const SpaceReservation&) = delete;
  SpaceReservation& operator=(const SpaceReservation&) = delete;

  // Allocates `bytes` on disk past the file's end (its size unchanged, so HDF5 sees nothing),
  // where HDF5 will place the next record. Returns 0, or the errno: ENOSPC, EDQUOT... A file
  // system without fallocate() gets no reservation (0): a full disk then shows as a write error
  // inside HDF5, which append() still reports, but the partial file may not survive it.
  [[nodiscard]] int reserve(off_t bytes) const {
    struct stat status {};
    if (::fstat(fd_, &status) != 0) return errno;
    if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, status.st_size, bytes) == 0) return 0;
    return errno == EOPNOTSUPP || errno == ENOSYS ? 0 : errno;
  }

  // Gives back what is reserved past the end; for a finished file, which grows no more.
  void release(off_t bytes) const {
    struct stat status {};
    if (::fstat(fd_, &status) == 0)
      ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, status.st_size, bytes);
  }

 private:
  int fd_ = -1;
};

}  // namespace pmom::io
