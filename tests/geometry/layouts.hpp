// Small layouts the geometry tests share, and a helper to check an error message.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry::test {

inline Layout layout_of(std::vector<Rect> rects, std::vector<Port> ports = {}) {
  Layout layout;
  layout.substrate = {3.38, 0.8, 0.0027};
  layout.rects = std::move(rects);
  layout.ports = std::move(ports);
  return layout;
}

inline Port port(std::string name, double x, double y, Direction d, double feed_mm,
                 double reference_mm = 0) {
  Port p;
  p.name = std::move(name);
  p.x_mm = x;
  p.y_mm = y;
  p.direction = d;
  p.feed_length_mm = feed_mm;
  p.reference_plane_mm = reference_mm;
  return p;
}

// Runs `f`, expecting an exception of type E whose message contains `part`.
template <class E, class F> void expect_error(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one saying: " << part;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << part;
  }
}

}  // namespace pmom::geometry::test
