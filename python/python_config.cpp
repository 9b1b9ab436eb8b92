// Python objects to YAML nodes, then text (python_config.hpp).
#include "python_config.hpp"

#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace pmom::python {
namespace {

namespace py = pybind11;

// Mappings and sequences of scalars in flow style, one line each, as the examples write them:
// {eps_r: 3.38, height_mm: 0.508} and [2.0e9, 3.0e9].
void flow_if_flat(YAML::Node& node) {
  for (const auto item : node)
    if (const YAML::Node v = node.IsMap() ? item.second : item; !v.IsScalar() && !v.IsNull())
      return;
  node.SetStyle(YAML::EmitterStyle::Flow);
}

YAML::Node scalar(const py::handle& text) { return YAML::Node(py::str(text).cast<std::string>()); }

YAML::Node node_of(py::handle given, const std::string& path) {
  auto value = py::reinterpret_borrow<py::object>(given);
  // NumPy's arrays and scalars as Python's lists, ints, floats and bools.
  if (py::hasattr(value, "tolist") && py::hasattr(value, "dtype")) value = value.attr("tolist")();
  const auto shown = [&path] { return path.empty() ? std::string("/") : path; };
  if (value.is_none()) return YAML::Node(YAML::NodeType::Null);
  // bool before the integers: Python's bool is one.
  if (py::isinstance<py::bool_>(value)) return YAML::Node(value.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::str>(value)) return scalar(value);
  if (py::isinstance<py::int_>(value)) return scalar(value);
  if (py::isinstance<py::float_>(value)) return scalar(py::repr(py::float_(value)));
  if (py::isinstance(value, py::module_::import("collections.abc").attr("Mapping"))) {
    YAML::Node map(YAML::NodeType::Map);
    for (const auto item : value.attr("items")()) {
      const auto pair = item.cast<py::tuple>();
      if (!py::isinstance<py::str>(pair[0]))
        throw py::type_error(shown() + ": keys must be strings, got " +
                             py::repr(pair[0]).cast<std::string>());
      const auto key = pair[0].cast<std::string>();
      map[key] = node_of(pair[1], path + "/" + key);
    }
    flow_if_flat(map);
    return map;
  }
  if (PySequence_Check(value.ptr()) != 0 && !py::isinstance<py::bytes>(value)) {
    YAML::Node list(YAML::NodeType::Sequence);
    std::size_t i = 0;
    for (const auto item : value) list.push_back(node_of(item, path + "/" + std::to_string(i++)));
    flow_if_flat(list);
    return list;
  }
  if (py::hasattr(value, "__fspath__"))
    return scalar(py::module_::import("os").attr("fspath")(value));
  if (PyIndex_Check(value.ptr()) != 0) return scalar(py::int_(value));
  if (py::hasattr(value, "__float__"))  // fractions, decimals
    return scalar(py::repr(py::float_(value)));
  throw py::type_error(shown() + ": cannot be written as YAML: " +
                       py::repr(value).cast<std::string>() + " of type " +
                       py::type::handle_of(value).attr("__name__").cast<std::string>());
}

}  // namespace

std::string config_yaml(py::handle config) {
  YAML::Emitter out;
  out << node_of(config, "");
  if (!out.good()) throw std::logic_error("config_yaml: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

}  // namespace pmom::python
