// A message's bytes for the MPI sweep: values written in order and read back in the same order.
// The ranks run the same build, so trivially copyable values travel as their bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pmom::sweep::mpi {

class Packet {
 public:
  Packet() = default;
  explicit Packet(std::vector<char> bytes) : bytes_(std::move(bytes)) {}

  // A value byte by byte: GCC's -Wstringop-overflow takes a range insert into a new, empty
  // vector for an overflow.
  template <class T> Packet& put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    std::copy(p, p + sizeof(T), std::back_inserter(bytes_));
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

}  // namespace pmom::sweep::mpi
