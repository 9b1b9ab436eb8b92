// A setting's name in a config file beside its enum value: the tables that readers turn names
// into types with (YamlReader::choice) and that messages and writers name values by.
#pragma once

#include <string_view>

namespace pmom::geometry {

template <class E> struct Named {
  std::string_view name;
  E value;
};

}  // namespace pmom::geometry
