// A small GDSII stream writer for tests: a library of cells holding BOUNDARY polygons, PATHs and
// SREFs, database unit 1 nm, written with the format's records and base-16 reals.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace pmom::test {

class GdsWriter {
 public:
  GdsWriter() {
    record(0x00, 0x02, int16({600}));  // HEADER, version 600
    record(0x01, 0x02, int16(std::vector<long long>(12, 0)));  // BGNLIB, dates
    record(0x02, 0x06, ascii("LIB"));
    record(0x03, 0x05, real8(1e-3) + real8(1e-9));  // UNITS: 1 nm, a µm user unit
  }
  void begin_cell(const std::string& name) {
    record(0x05, 0x02, int16(std::vector<long long>(12, 0)));  // BGNSTR
    record(0x06, 0x06, ascii(name));
  }
  void end_cell() { record(0x07, 0x00, {}); }
  // A polygon of vertices in mm (closed by the writer).
  void polygon(int layer, std::vector<std::pair<double, double>> mm) {
    mm.push_back(mm.front());
    record(0x08, 0x00, {});
    record(0x0D, 0x02, int16({layer}));
    record(0x0E, 0x02, int16({0}));
    record(0x10, 0x03, xy(mm));
    record(0x11, 0x00, {});
  }
  void rectangle(int layer, double x0, double y0, double x1, double y1) {
    polygon(layer, {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
  }
  void path(int layer, double width_mm, int type, const std::vector<std::pair<double, double>>& mm) {
    record(0x09, 0x00, {});
    record(0x0D, 0x02, int16({layer}));
    record(0x0E, 0x02, int16({0}));
    record(0x21, 0x02, int16({type}));
    record(0x0F, 0x03, int32({nm(width_mm)}));
    record(0x10, 0x03, xy(mm));
    record(0x11, 0x00, {});
  }
  void sref(const std::string& cell) {
    record(0x0A, 0x00, {});
    record(0x12, 0x06, ascii(cell));
    record(0x10, 0x03, int32({0, 0}));
    record(0x11, 0x00, {});
  }
  // The library ended (ENDLIB) and written; `cut` bytes left off its end.
  void write(const std::filesystem::path& file, std::size_t cut = 0) {
    std::string all = bytes_;
    all += std::string{0, 4, 0x04, 0x00};
    std::ofstream(file, std::ios::binary).write(all.data(), static_cast<std::streamsize>(all.size() - cut));
  }

 private:
  static long long nm(double mm) { return std::llround(mm * 1e6); }
  static std::string int16(const std::vector<long long>& v) {
    std::string out;
    for (const long long x : v) {
      const auto u = static_cast<std::uint16_t>(x);
      out += static_cast<char>(u >> 8);
      out += static_cast<char>(u & 0xff);
    }
    return out;
  }
  static std::string int32(const std::vector<long long>& v) {
    std::string out;
    for (const long long x : v) {
      const auto u = static_cast<std::uint32_t>(x);
      for (int s = 24; s >= 0; s -= 8) out += static_cast<char>((u >> s) & 0xff);
    }
    return out;
  }
  static std::string xy(const std::vector<std::pair<double, double>>& mm) {
    std::vector<long long> v;
    for (const auto& [x, y] : mm) {
      v.push_back(nm(x));
      v.push_back(nm(y));
    }
    return int32(v);
  }
  static std::string ascii(std::string s) {
    if (s.size() % 2) s += '\0';
    return s;
  }
  // value = fraction · 16^(exponent − 64), fraction in [1/16, 1) over 56 bits.
  static std::string real8(double value) {
    int exponent = 64;
    while (value >= 1) { value /= 16; ++exponent; }
    while (value < 1.0 / 16) { value *= 16; --exponent; }
    auto fraction = static_cast<std::uint64_t>(std::ldexp(value, 56));
    std::string out(1, static_cast<char>(exponent));
    for (int s = 48; s >= 0; s -= 8) out += static_cast<char>((fraction >> s) & 0xff);
    return out;
  }
  void record(std::uint8_t type, std::uint8_t data_type, const std::string& data) {
    const auto length = static_cast<std::uint16_t>(data.size() + 4);
    bytes_ += static_cast<char>(length >> 8);
    bytes_ += static_cast<char>(length & 0xff);
    bytes_ += static_cast<char>(type);
    bytes_ += static_cast<char>(data_type);
    bytes_ += data;
  }
  std::string bytes_;
};

}  // namespace pmom::test
