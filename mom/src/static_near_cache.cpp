// StaticNearCache's files (static_near_cache.hpp, static_near_store.hpp): "PMSNP001", a count,
// then (key, value) pairs of one order and aspect, native byte order.
#include "static_near_cache.hpp"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <system_error>

#include <unistd.h>

#include "planarmom/mom/static_near_store.hpp"

namespace pmom::mom {
namespace {

constexpr char kMagic[8] = {'P', 'M', 'S', 'N', 'P', '0', '0', '1'};

struct Record {
  std::uint64_t packed;
  double value;
};

}  // namespace

std::size_t StaticNearCache::Hash::operator()(const Key& k) const {
  return std::hash<std::uint64_t>{}(k.packed ^
                                    (std::bit_cast<std::uint64_t>(k.eta) * 0x9e3779b97f4a7c15ull));
}

std::filesystem::path StaticNearCache::file_of(const Group& g) const {
  char name[64];
  std::snprintf(name, sizeof name, "o%d-eta%016llx.bin", g.first,
                static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(g.second)));
  return folder_ / name;
}

void StaticNearCache::set_folder(std::filesystem::path folder) {
  std::unique_lock lock(mutex_);
  folder_ = std::move(folder);
  loaded_.clear();
}

void StaticNearCache::load(int outer_order, double eta) {
  const Group group{outer_order, eta};
  std::unique_lock lock(mutex_);
  if (folder_.empty() || !loaded_.insert(group).second) return;
  std::ifstream in(file_of(group), std::ios::binary);
  char magic[sizeof kMagic];
  std::uint64_t count = 0;
  if (!in.read(magic, sizeof magic) || !std::equal(magic, magic + sizeof magic, kMagic) ||
      !in.read(reinterpret_cast<char*>(&count), sizeof count) || count > (1ull << 32))
    return;
  std::vector<Record> records(count);
  if (!in.read(reinterpret_cast<char*>(records.data()),
               static_cast<std::streamsize>(count * sizeof(Record))) ||
      in.peek() != std::char_traits<char>::eof())
    return;
  // Every record of the file's group and finite, or none is used.
  for (const Record& r : records)
    if (group_of({r.packed, eta}) != group || !std::isfinite(r.value)) return;
  for (const Record& r : records) values_.emplace(Key{r.packed, eta}, r.value);
}

void StaticNearCache::save() {
  std::unique_lock lock(mutex_);
  if (folder_.empty()) {
    unsaved_.clear();
    return;
  }
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  static std::atomic<int> serial{0};
  for (const Group& group : unsaved_) {
    std::vector<Record> records;
    for (const auto& [key, value] : values_)
      if (group_of(key) == group) records.push_back({key.packed, value});
    const std::filesystem::path file = file_of(group);
    // Unique per process and call: processes writing the same group never share a file.
    const std::filesystem::path temporary =
        file.string() + "." + std::to_string(::getpid()) + "." + std::to_string(serial++) + ".tmp";
    bool written = false;
    {
      std::ofstream out(temporary, std::ios::binary);
      const std::uint64_t count = records.size();
      out.write(kMagic, sizeof kMagic);
      out.write(reinterpret_cast<const char*>(&count), sizeof count);
      out.write(reinterpret_cast<const char*>(records.data()),
                static_cast<std::streamsize>(records.size() * sizeof(Record)));
      written = static_cast<bool>(out.flush());
    }
    if (written) std::filesystem::rename(temporary, file, error);
    if (!written || error) {
      failures_.push_back(file.string());
      std::filesystem::remove(temporary, error);
    }
  }
  unsaved_.clear();
}

std::vector<std::string> StaticNearCache::take_write_failures() {
  std::unique_lock lock(mutex_);
  return std::exchange(failures_, {});
}

void store_static_near_parts(std::filesystem::path folder) {
  static_near_cache().set_folder(std::move(folder));
}

std::vector<std::string> static_near_write_failures() {
  return static_near_cache().take_write_failures();
}

}  // namespace pmom::mom
