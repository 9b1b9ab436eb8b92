// HDF5 error reporting: the innermost entry of the error stack is the one that says what went
// wrong (a missing file, a lock held by another process), the outer ones only repeat the call.
// Where that is a failed system call (the file driver's "..., errno = 28, ..."), the operating
// system's own words are what the user needs ("No space left on device").
#include "hdf5_handle.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <system_error>

namespace pmom::io::h5 {

namespace {

std::string innermost_error() {
  std::string detail;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned depth, const H5E_error2_t* error, void* out) -> herr_t {
        if (depth == 0 && error->desc != nullptr) *static_cast<std::string*>(out) = error->desc;
        return 0;
      },
      &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail;
}

// The file or object name an H5Fget_name-like query gives, or "" when it has none.
template <class Query> std::string name_of(Query query, hid_t location) {
  const ssize_t length = query(location, nullptr, 0);
  if (length <= 0) return {};
  std::string name(static_cast<std::size_t>(length), '\0');
  query(location, name.data(), name.size() + 1);
  return name;
}

// The errno of a file-driver message, or 0 when it names none.
int os_error(const std::string& detail) {
  constexpr std::string_view kErrno = "errno = ";
  const std::size_t at = detail.find(kErrno);
  if (at == std::string::npos) return 0;
  return std::max(0, std::atoi(detail.c_str() + at + kErrno.size()));
}

[[noreturn]] void throw_error(std::string file, std::string_view what, const std::string& detail) {
  std::string message = std::move(file);
  message += ": ";
  message += what;
  const int code = os_error(detail);
  if (code > 0) {
    message += ": ";
    message += std::generic_category().message(code);
  } else if (!detail.empty()) {
    message += " (HDF5: ";
    message += detail;
    message += ')';
  }
  throw SweepFileError(message, code);
}

}  // namespace

void fail(hid_t location, std::string_view what) {
  // Read the stack first: the name queries below start a new one.
  const std::string detail = innermost_error();
  std::string where = name_of(H5Fget_name, location);
  if (where.empty()) where = "HDF5 file";
  if (H5Iget_type(location) == H5I_DATASET) {
    where += ": dataset '";
    where += name_of(H5Iget_name, location);
    where += '\'';
  }
  throw_error(std::move(where), what, detail);
}

void fail(const std::filesystem::path& file, std::string_view what) {
  throw_error(file.string(), what, innermost_error());
}

}  // namespace pmom::io::h5
