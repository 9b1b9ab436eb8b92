// The one exception type of the geometry module; it remembers which input item (and which of
// its fields, by config key) was wrong so that a config reader can point at that line.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace pmom::geometry {

// The kind of input item an error is about; `index` numbers rectangles, polygons, ports, lumped
// elements and vias (each in its own list).
enum class Item { layout, substrate, metal, rectangle, polygon, port, lumped, via, mesh };

class GeometryError : public std::invalid_argument {
 public:
  explicit GeometryError(const std::string& message, Item item = Item::layout, int index = -1,
                         std::string field = {})
      : std::invalid_argument(message), item_(item), index_(index), field_(std::move(field)) {}

  [[nodiscard]] Item item() const { return item_; }
  [[nodiscard]] int index() const { return index_; }
  // The config key of the offending field ("height_mm", "x1", ...), empty for the whole item.
  [[nodiscard]] const std::string& field() const { return field_; }

 private:
  Item item_;
  int index_;
  std::string field_;
};

}  // namespace pmom::geometry
