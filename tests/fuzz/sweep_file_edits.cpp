// Decoding fuzz bytes into edits of a sweep file, each one HDF5 C API call or a few.
#include "sweep_file_edits.hpp"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hdf5_values.hpp"
#include "sweep_layout.hpp"

namespace pmom::fuzz {

namespace {

using namespace io;
using namespace io::sweep_layout;

constexpr int kMaxEdits = 6;
constexpr hsize_t kMaxExtent = 4;  // small shapes: P and N of the written sweep are 1..3

std::vector<std::string> object_paths() {
  std::vector<std::string> paths;
  for_each_row_dataset([&](const char* path) { paths.emplace_back(path); });
  for (const char* path : {kPortNames, kImpedances, kPlanes, "ports", "solver", "timing"})
    paths.emplace_back(path);
  return paths;
}

std::string pick_path(FuzzBytes& in) {
  static const std::vector<std::string> paths = object_paths();
  return paths[in.below(paths.size())];
}

const char* pick_attribute(FuzzBytes& in) {
  static constexpr std::array names = {kVersionAttribute, kUnitsAttribute, kConfigAttribute,
                                       kBackendAttribute, kCompleteAttribute};
  return names[in.below(names.size())];
}

std::string pick_text(FuzzBytes& in) {
  static constexpr std::array texts = {"", "config", "0.1.0", "cpu", "1", "other\ntext"};
  return texts[in.below(texts.size())];
}

h5::Type compound(std::initializer_list<std::pair<const char*, hid_t>> members) {
  std::size_t size = 0;
  for (const auto& m : members) size += H5Tget_size(m.second);
  h5::Type type(H5Tcreate(H5T_COMPOUND, size));
  std::size_t offset = 0;
  for (const auto& [name, part] : members) {
    H5Tinsert(type.get(), name, offset, part);
    offset += H5Tget_size(part);
  }
  return type;
}

// The types a damaged or foreign file might hold where planarmom expects its own.
h5::Type pick_type(FuzzBytes& in) {
  switch (in.below(12)) {
    case 0: return h5::Type(H5Tcopy(H5T_IEEE_F64LE));
    case 1: return h5::Type(H5Tcopy(H5T_IEEE_F32BE));
    case 2: return h5::Type(H5Tcopy(H5T_STD_I32LE));
    case 3: return h5::Type(H5Tcopy(H5T_STD_I64BE));
    case 4: return h5::Type(H5Tcopy(H5T_STD_U8LE));
    case 5: return h5::complex_type(H5T_IEEE_F64LE);
    case 6: return compound({{"r", H5T_IEEE_F64LE}});
    case 7: return compound({{"i", H5T_IEEE_F64LE}, {"r", H5T_IEEE_F32LE}});
    case 8: return compound({{"re", H5T_IEEE_F64LE}, {"im", H5T_IEEE_F64LE}});
    case 9: return h5::string_type();
    case 10: {
      h5::Type fixed(H5Tcopy(H5T_C_S1));
      H5Tset_size(fixed.get(), 8);
      return fixed;
    }
    default: return h5::Type(H5Tvlen_create(H5T_IEEE_F64LE));
  }
}

// A null, scalar or simple dataspace of rank 1 to 3 with small extents; `growable` gives the
// first dimension no limit (which needs a chunked layout).
h5::Space pick_space(FuzzBytes& in, bool& growable) {
  growable = false;
  const std::size_t rank = in.below(5);
  if (rank == 4) return h5::Space(H5Screate(H5S_NULL));
  if (rank == 0) return h5::Space(H5Screate(H5S_SCALAR));
  std::vector<hsize_t> dims(rank), max_dims(rank);
  for (std::size_t d = 0; d < rank; ++d) dims[d] = max_dims[d] = in.below(kMaxExtent);
  growable = in.flag();
  if (growable) max_dims[0] = H5S_UNLIMITED;
  return h5::Space(H5Screate_simple(static_cast<int>(rank), dims.data(), max_dims.data()));
}

void remove(hid_t file, const std::string& path) {
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file, path.c_str(), H5P_DEFAULT);
}

// Fills a new dataset: raw input bytes for fixed-size types, short texts for variable-length
// strings; variable-length sequences keep their empty fill value.
void fill(hid_t dataset, hid_t type, hid_t space, FuzzBytes& in) {
  const hssize_t points = H5Sget_select_npoints(space);
  if (points <= 0 || H5Tget_class(type) == H5T_VLEN) return;
  const auto count = static_cast<std::size_t>(points);
  if (H5Tis_variable_str(type) > 0) {
    std::vector<std::string> texts(count);
    std::vector<const char*> pointers(count);
    for (std::size_t k = 0; k < count; ++k) {
      texts[k] = pick_text(in);
      pointers[k] = texts[k].c_str();
    }
    H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data());
    return;
  }
  std::vector<std::uint8_t> bytes(count * H5Tget_size(type));
  for (auto& b : bytes) b = in.byte();
  H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
}

void replace_dataset(hid_t file, const std::string& path, FuzzBytes& in) {
  const h5::Type type = pick_type(in);
  bool growable = false;
  const h5::Space space = pick_space(in, growable);
  const h5::PropertyList layout(H5Pcreate(H5P_DATASET_CREATE));
  if (growable) {
    const int rank = H5Sget_simple_extent_ndims(space.get());
    const std::vector<hsize_t> chunk(static_cast<std::size_t>(rank), 1);
    H5Pset_chunk(layout.get(), rank, chunk.data());
  }
  const h5::PropertyList links(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(links.get(), 1);
  remove(file, path);
  const h5::Dataset dataset(H5Dcreate2(file, path.c_str(), type.get(), space.get(), links.get(),
                                       layout.get(), H5P_DEFAULT));
  if (dataset.is_open()) fill(dataset.get(), type.get(), space.get(), in);
}

void set_rows(hid_t file, const std::string& path, FuzzBytes& in) {
  const h5::Dataset dataset(H5Dopen2(file, path.c_str(), H5P_DEFAULT));
  if (!dataset.is_open()) return;
  const h5::Space space(H5Dget_space(dataset.get()));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1) return;
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  dims[0] = in.below(6);
  H5Dset_extent(dataset.get(), dims.data());
}

// One element of a row overwritten: a NaN or a repeated frequency, say.
void overwrite(hid_t file, const std::string& path, FuzzBytes& in) {
  const h5::Dataset dataset(H5Dopen2(file, path.c_str(), H5P_DEFAULT));
  if (!dataset.is_open()) return;
  const h5::Space space(H5Dget_space(dataset.get()));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1) return;
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  std::vector<hsize_t> at(dims.size(), 0);
  at[0] = in.below(kMaxExtent);
  // An element outside the extent is the caller's error, but HDF5 1.10 crashes on it (a null
  // memcpy in its metadata accumulator) instead of refusing it: the reproducers in
  // crashes/sweep_file/hdf5_write_outside_extent_*.
  const bool inside = at[0] < dims[0] && std::find(dims.begin(), dims.end(), 0) == dims.end();
  if (!inside || H5Sselect_elements(space.get(), H5S_SELECT_SET, 1, at.data()) < 0) return;
  const hsize_t one = 1;
  const h5::Space memory(H5Screate_simple(1, &one, nullptr));
  const h5::Type stored(H5Dget_type(dataset.get()));
  const std::array<double, 2> value = {in.number(), in.number()};
  const h5::Type complex = h5::complex_type(H5T_NATIVE_DOUBLE);
  const hid_t type = H5Tget_class(stored.get()) == H5T_COMPOUND ? complex.get()
                                                                 : H5T_NATIVE_DOUBLE;
  H5Dwrite(dataset.get(), type, memory.get(), space.get(), H5P_DEFAULT, value.data());
}

// Another object linked in its place: /s where /frequency should be, a group for a dataset.
void relink(hid_t file, const std::string& path, FuzzBytes& in) {
  const std::string source = pick_path(in);
  if (source == path || H5Lexists(file, source.c_str(), H5P_DEFAULT) <= 0) return;
  remove(file, path);
  H5Lcreate_hard(file, source.c_str(), file, path.c_str(), H5P_DEFAULT, H5P_DEFAULT);
}

void replace_by_group(hid_t file, const std::string& path) {
  remove(file, path);
  const h5::PropertyList links(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(links.get(), 1);
  const hid_t group = H5Gcreate2(file, path.c_str(), links.get(), H5P_DEFAULT, H5P_DEFAULT);
  if (group >= 0) H5Gclose(group);
}

// A root attribute removed, or rewritten as another type or shape.
void edit_attribute(hid_t file, FuzzBytes& in) {
  const char* name = pick_attribute(in);
  if (H5Aexists(file, name) > 0 && H5Adelete(file, name) < 0) return;
  const std::size_t kind = in.below(5);
  if (kind == 0) return;  // removed
  const hsize_t count = in.flag() ? 1 + in.below(3) : 0;  // 0: a scalar, as planarmom writes
  const h5::Space space(count > 0 ? H5Screate_simple(1, &count, nullptr)
                                  : H5Screate(H5S_SCALAR));
  const std::string text = pick_text(in);
  const std::array<const char*, 3> texts = {text.c_str(), text.c_str(), text.c_str()};
  const std::array<int, 3> integers = {in.byte(), in.byte(), in.byte()};
  const std::array<double, 3> reals = {in.number(), in.number(), in.number()};
  const std::string fixed = text + '\0' + text + '\0' + text + '\0';
  h5::Type type;
  hid_t memory = H5I_INVALID_HID;
  const void* data = nullptr;
  switch (kind) {
    case 1:
      type = h5::string_type();
      memory = type.get();
      data = texts.data();
      break;
    case 2:
      type = h5::Type(H5Tcopy(H5T_STD_I32LE));
      memory = H5T_NATIVE_INT;
      data = integers.data();
      break;
    case 3:
      type = h5::Type(H5Tcopy(H5T_IEEE_F64LE));
      memory = H5T_NATIVE_DOUBLE;
      data = reals.data();
      break;
    default:  // a fixed-length string
      type = h5::Type(H5Tcopy(H5T_C_S1));
      H5Tset_size(type.get(), text.size() + 1);
      memory = type.get();
      data = fixed.data();
  }
  const h5::Attribute attribute(
      H5Acreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (attribute.is_open()) H5Awrite(attribute.get(), memory, data);
}

}  // namespace

int edit_sweep_file(const std::filesystem::path& file, FuzzBytes& in) {
  const int edits = static_cast<int>(in.below(kMaxEdits + 1));
  if (edits == 0) return 0;
  const h5::File handle(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  if (!handle.is_open()) return 0;
  const hid_t id = handle.get();
  // To see what a reproducer does: PLANARMOM_FUZZ_TRACE=1 fuzz_replay_sweep_file FILE.
  static const bool trace = std::getenv("PLANARMOM_FUZZ_TRACE") != nullptr;
  for (int e = 0; e < edits; ++e) {
    const std::string path = pick_path(in);
    const std::size_t kind = in.below(7);
    if (trace) std::fprintf(stderr, "edit %d: kind %zu on /%s\n", e, kind, path.c_str());
    switch (kind) {
      case 0: remove(id, path); break;
      case 1: replace_dataset(id, path, in); break;
      case 2: set_rows(id, path, in); break;
      case 3: overwrite(id, path, in); break;
      case 4: relink(id, path, in); break;
      case 5: replace_by_group(id, path); break;
      default: edit_attribute(id, in); break;
    }
  }
  return edits;
}

}  // namespace pmom::fuzz
