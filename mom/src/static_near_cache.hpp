// The 1/R parts of the near table entries (assembly.hpp: static_rooftop_overlap,
// static_cell_overlap, in unit cells with the analytic inner integral) depend on the two shapes,
// the offset, the cell's aspect η and the outer order only: not on frequency, substrate or cell
// size. They were most of a table's cost (profiled: docs/PERFORMANCE.md, "Static near
// integrals once per process"), so each is computed once per process and kept, for every
// frequency of a sweep and for its line checks.
#pragma once

#include <bit>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

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
                field(di, 20) << 31 | field(dj, 20) << 11 | field(outer_order, 11),
            eta};
  }

  // The value for `key`, from `compute` on its first request. Threads asking for the same
  // missing key at once may both compute it: the value is the same, the first one is kept.
  template <class F> double get(const Key& key, F&& compute) {
    {
      std::shared_lock lock(mutex_);
      if (const auto it = values_.find(key); it != values_.end()) return it->second;
    }
    const double value = compute();
    std::unique_lock lock(mutex_);
    return values_.emplace(key, value).first->second;
  }

 private:
  std::shared_mutex mutex_;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>{}(k.packed ^ (std::bit_cast<std::uint64_t>(k.eta) * 0x9e3779b97f4a7c15ull));
    }
  };
  std::unordered_map<Key, double, Hash> values_;
};

// The process's cache.
inline StaticNearCache& static_near_cache() {
  static StaticNearCache cache;
  return cache;
}

}  // namespace pmom::mom
