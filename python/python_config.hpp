// A sweep config given to the Python module as a dict (the structure of the YAML files), turned
// into the YAML text that pmom::sweep::load_sweep_text reads and the HDF5 file stores.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace pmom::python {

// YAML text of `config`: mappings with string keys, sequences (lists, tuples, NumPy arrays),
// strings, paths (os.PathLike), bools, integers and floats (NumPy's scalars too; floats as
// Python's repr, which reads back to the same double), None. Anything else throws TypeError
// naming its place ("/layout/0/x0: cannot be written as YAML: ...").
[[nodiscard]] std::string config_yaml(pybind11::handle config);

}  // namespace pmom::python
