// A fuzz input read as a stream of choices, for structured targets: each call takes bytes from
// the front, and an exhausted input reads as zeros, so that every input decodes to something.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace pmom::fuzz {

class FuzzBytes {
 public:
  FuzzBytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  [[nodiscard]] bool empty() const { return size_ == 0; }

  std::uint8_t byte() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }

  bool flag() { return (byte() & 1) != 0; }

  // In [0, n), n <= 256.
  std::size_t below(std::size_t n) { return byte() % n; }

  // A value the code treats specially (zero, signs, NaN, infinities, the limits, round
  // frequencies) more often than the raw bytes of a double would give one.
  double number() {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr double special[] = {0.0,  -0.0, 1.0,  -1.0, 1e9, 2e9, 3e9, nan, inf, -inf,
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::denorm_min(), 50.0, 1e-300};
    constexpr std::size_t count = sizeof special / sizeof special[0];
    const std::size_t pick = byte();
    if (pick < count) return special[pick];
    if (pick < 128) return static_cast<double>(pick) * 1e8;  // distinct positive frequencies
    double raw = 0;
    for (std::size_t i = 0; i < sizeof raw; ++i) {
      const std::uint8_t b = byte();
      std::memcpy(reinterpret_cast<unsigned char*>(&raw) + i, &b, 1);
    }
    return raw;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace pmom::fuzz
