// The 1/R parts of the near table entries (assembly.hpp: static_rooftop_overlap,
// static_cell_overlap, in unit cells with the analytic inner integral) depend on the two shapes,
// the offset, the cell's aspect η and the outer order only: not on frequency, substrate or cell
// size. They were most of a table's cost (profiled: docs/PERFORMANCE.md, "Static near
// integrals once per process"), so each is computed once per process and kept, for every
// frequency of a sweep and for its line checks; with a folder (static_near_store.hpp) they are
// kept between processes too, one file per group of one order and aspect.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pmom::mom {

class StaticNearCache {
 public:
  struct Key {
    std::uint64_t packed = 0;
    double eta = 1;  // the cells' aspect (static_cell_overlap)
    bool operator==(const Key&) const = default;
  };
  // A vector-potential (rooftop) or scalar-potential (charge) pair of kinds at an offset, on
  // cells of aspect eta.
  static Key key(bool rooftops, int obs_kind, int src_kind, int di, int dj, int outer_order,
                 double eta) {
    const auto field = [](int v, int bits) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)) & ((1ull << bits) - 1);
    };
    return {(rooftops ? 1ull : 0ull) << 63 | field(obs_kind, 6) << 57 | field(src_kind, 6) << 51 |
                field(di, 20) << 31 | field(dj, 20) << 11 | field(outer_order, kOrderBits),
            eta};
  }

  // The value for `key`, from `compute` on its first request (then `*computed` is set).
  // Threads asking for the same missing key at once may both compute it: the value is the
  // same, the first one is kept.
  template <class F> double get(const Key& key, F&& compute, bool* computed = nullptr) {
    {
      std::shared_lock lock(mutex_);
      if (const auto it = values_.find(key); it != values_.end()) return it->second;
    }
    const double value = compute();
    if (computed != nullptr) *computed = true;
    std::unique_lock lock(mutex_);
    unsaved_.insert(group_of(key));
    return values_.emplace(key, value).first->second;
  }

  // The folder of the stored groups (empty: none).
  void set_folder(std::filesystem::path folder);
  // Reads the group of this order and aspect from the folder, once per process.
  void load(int outer_order, double eta);
  // Writes every group holding parts computed since its last write.
  void save();
  std::vector<std::string> take_write_failures();

 private:
  static constexpr int kOrderBits = 11;
  using Group = std::pair<int, double>;  // outer order, aspect
  static Group group_of(const Key& k) {
    return {static_cast<int>(k.packed & ((1ull << kOrderBits) - 1)), k.eta};
  }
  [[nodiscard]] std::filesystem::path file_of(const Group& g) const;

  std::shared_mutex mutex_;
  struct Hash {
    std::size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, double, Hash> values_;
  std::filesystem::path folder_;
  std::set<Group> loaded_, unsaved_;
  std::vector<std::string> failures_;
};

// The process's cache.
inline StaticNearCache& static_near_cache() {
  static StaticNearCache cache;
  return cache;
}

}  // namespace pmom::mom
