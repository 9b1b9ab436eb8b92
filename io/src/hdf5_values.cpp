// Typed HDF5 reads and writes; every failure names the dataset or attribute involved.
#include "hdf5_values.hpp"

#include <algorithm>
#include <string_view>

#include "message_text.hpp"

namespace pmom::io::h5 {

namespace {

// Joins message parts by appending (chains of "literal" + std::string trip a false -Wrestrict
// in GCC 12, PR 105329).
template <class... Parts> std::string cat(const Parts&... parts) {
  std::string text;
  ((text += std::string_view(parts)), ...);
  return text;
}

// Rows of this many bytes per chunk keep small sweeps small on disk and large ones in few
// chunks; a row larger than that (P above 32) gets a chunk of its own.
constexpr hsize_t kChunkBytes = 16384;

constexpr std::string_view kNotOurs =
    " (not the kind of planarmom file expected, or a damaged one)";

Space dataspace_of(hid_t dataset) {
  return Space(check(H5Dget_space(dataset), dataset, "cannot read a dataset's shape"));
}

std::vector<hsize_t> shape_of(hid_t space) {
  const int rank = check(H5Sget_simple_extent_ndims(space), space, "cannot read a shape");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), space, "cannot read a shape");
  return dims;
}

}  // namespace

std::vector<hsize_t> dataset_shape(hid_t dataset) {
  return shape_of(dataspace_of(dataset).get());
}

namespace {

PropertyList creating_parent_groups() {
  PropertyList links(check(H5Pcreate(H5P_LINK_CREATE), H5P_DEFAULT, "cannot create properties"));
  check(H5Pset_create_intermediate_group(links.get(), 1), links.get(),
        "cannot create properties");
  return links;
}

// Selects rows [first, first + rows) of `space` (shape [R, row...]) and returns a memory space
// of the same shape as the selection.
Space select_rows(hid_t space, hsize_t first, hsize_t rows) {
  std::vector<hsize_t> count = shape_of(space);
  std::vector<hsize_t> start(count.size(), 0);
  start[0] = first;
  count[0] = rows;
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        space, "cannot select rows");
  return Space(check(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
                     space, "cannot create a dataspace"));
}

}  // namespace

Type complex_type(hid_t part) {
  constexpr auto size = sizeof(double);
  Type type(check(H5Tcreate(H5T_COMPOUND, 2 * size), part, "cannot create the complex type"));
  check(H5Tinsert(type.get(), "r", 0, part), part, "cannot create the complex type");
  check(H5Tinsert(type.get(), "i", size, part), part, "cannot create the complex type");
  return type;
}

Type string_type() {
  Type type(check(H5Tcopy(H5T_C_S1), H5T_C_S1, "cannot create the string type"));
  check(H5Tset_size(type.get(), H5T_VARIABLE), type.get(), "cannot create the string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), type.get(), "cannot create the string type");
  return type;
}

Dataset open_dataset(hid_t file, const char* path) {
  return Dataset(check(H5Dopen2(file, path, H5P_DEFAULT), file,
                       cat("no dataset '/", path, "'", kNotOurs)));
}

namespace {

// A new scalar attribute: one of that name is replaced, whatever its type and shape (writing
// one value into an array attribute would read past the value).
Attribute create_attribute(hid_t object, const char* name, hid_t file_type,
                           const std::string& what) {
  if (check(H5Aexists(object, name), object, what) > 0)
    check(H5Adelete(object, name), object, what);
  const Space scalar(check(H5Screate(H5S_SCALAR), object, what));
  return Attribute(check(
      H5Acreate2(object, name, file_type, scalar.get(), H5P_DEFAULT, H5P_DEFAULT), object, what));
}

}  // namespace

void write_attribute(hid_t object, const char* name, const std::string& value) {
  const std::string what = cat("cannot write attribute '", name, "'");
  const Type type = string_type();
  const Attribute attribute = create_attribute(object, name, type.get(), what);
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), object, what);
}

void write_attribute(hid_t object, const char* name, int value) {
  const std::string what = cat("cannot write attribute '", name, "'");
  const Attribute attribute = create_attribute(object, name, H5T_STD_I32LE, what);
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT, &value), object, what);
}

void write_attribute(hid_t object, const char* name, double value) {
  const std::string what = cat("cannot write attribute '", name, "'");
  const Attribute attribute = create_attribute(object, name, H5T_IEEE_F64LE, what);
  check(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value), object, what);
}

namespace {

// An attribute that holds one value: reading an array into one would overrun it.
Attribute open_attribute(hid_t object, const char* name) {
  Attribute attribute(check(H5Aopen(object, name, H5P_DEFAULT), object,
                            cat("no attribute '", name, "'", kNotOurs)));
  const Space space(check(H5Aget_space(attribute.get()), object, "cannot read an attribute shape"));
  const hssize_t values = H5Sget_simple_extent_npoints(space.get());
  if (values != 1)
    fail(object, cat("attribute '", name, "' holds ", std::to_string(values), " values, not one",
                     kNotOurs));
  return attribute;
}

}  // namespace

std::string read_string_attribute(hid_t object, const char* name) {
  const Attribute attribute = open_attribute(object, name);
  const Type stored(check(H5Aget_type(attribute.get()), object, "cannot read an attribute type"));
  if (H5Tis_variable_str(stored.get()) <= 0)
    fail(object, cat("attribute '", name, "' is not a variable-length string"));
  const Type type = string_type();
  char* text = nullptr;
  check(H5Aread(attribute.get(), type.get(), &text), object,
        cat("cannot read attribute '", name, "'"));
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  return value;
}

int read_int_attribute(hid_t object, const char* name) {
  const Attribute attribute = open_attribute(object, name);
  int value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_INT, &value), object,
        cat("cannot read attribute '", name, "' as an integer"));
  return value;
}

double read_double_attribute(hid_t object, const char* name) {
  const Attribute attribute = open_attribute(object, name);
  double value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), object,
        cat("cannot read attribute '", name, "' as a number"));
  return value;
}

void write_array(hid_t file, const char* path, hid_t file_type, hid_t memory_type,
                 hsize_t count, const void* data) {
  write_array(file, path, file_type, memory_type, std::vector<hsize_t>{count}, data);
}

void write_array(hid_t file, const char* path, hid_t file_type, hid_t memory_type,
                 const std::vector<hsize_t>& shape, const void* data) {
  const std::string what = cat("cannot write dataset '/", path, "'");
  const Space space(check(
      H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), file, what));
  const PropertyList links = creating_parent_groups();
  const Dataset dataset(check(H5Dcreate2(file, path, file_type, space.get(), links.get(),
                                         H5P_DEFAULT, H5P_DEFAULT),
                              file, what));
  check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), file, what);
}

void write_strings(hid_t file, const char* path, const std::vector<std::string>& values) {
  std::vector<const char*> texts;
  for (const auto& value : values) texts.push_back(value.c_str());
  const Type type = string_type();
  write_array(file, path, type.get(), type.get(), texts.size(), texts.data());
}

std::vector<std::string> read_strings(hid_t file, const char* path) {
  const Dataset dataset = open_dataset(file, path);
  const Type stored(check(H5Dget_type(dataset.get()), file, "cannot read a dataset type"));
  if (H5Tis_variable_str(stored.get()) <= 0)
    fail(file, cat("dataset '/", path, "' does not hold variable-length strings"));
  const auto count = static_cast<std::size_t>(length(dataset.get()));
  std::vector<char*> texts(count, nullptr);
  const Type type = string_type();
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()), file,
        cat("cannot read dataset '/", path, "'"));
  std::vector<std::string> values;
  for (char* text : texts) {
    values.emplace_back(text != nullptr ? text : "");
    H5free_memory(text);
  }
  return values;
}

void create_rows(hid_t file, const char* path, hid_t file_type,
                 const std::vector<hsize_t>& row_shape) {
  const std::string what = cat("cannot create dataset '/", path, "'");
  std::vector<hsize_t> dims{0};
  dims.insert(dims.end(), row_shape.begin(), row_shape.end());
  std::vector<hsize_t> max_dims = dims;
  max_dims[0] = H5S_UNLIMITED;
  std::vector<hsize_t> chunk = dims;
  hsize_t row_bytes = H5Tget_size(file_type);
  for (const hsize_t extent : row_shape) row_bytes *= extent;
  chunk[0] = std::max<hsize_t>(1, kChunkBytes / std::max<hsize_t>(1, row_bytes));

  const auto rank = static_cast<int>(dims.size());
  const Space space(check(H5Screate_simple(rank, dims.data(), max_dims.data()), file, what));
  const PropertyList layout(check(H5Pcreate(H5P_DATASET_CREATE), file, what));
  check(H5Pset_chunk(layout.get(), rank, chunk.data()), file, what);
  const PropertyList links = creating_parent_groups();
  const Dataset dataset(check(
      H5Dcreate2(file, path, file_type, space.get(), links.get(), layout.get(), H5P_DEFAULT),
      file, what));
}

hsize_t row_count(hid_t dataset) {
  const std::vector<hsize_t> dims = dataset_shape(dataset);
  if (dims.empty()) fail(dataset, "a dataset expected to have rows is a scalar");
  return dims[0];
}

hsize_t length(hid_t dataset) {
  const std::vector<hsize_t> dims = dataset_shape(dataset);
  if (dims.size() != 1) fail(dataset, cat("is not one-dimensional", kNotOurs));
  return dims[0];
}

unsigned link_count(hid_t object) {
#if H5_VERSION_GE(1, 12, 0)
  H5O_info2_t info;
  check(H5Oget_info3(object, &info, H5O_INFO_BASIC), object, "cannot read an object's links");
#else
  H5O_info_t info;
  check(H5Oget_info2(object, &info, H5O_INFO_BASIC), object, "cannot read an object's links");
#endif
  return info.rc;
}

namespace {

// The bytes that elements of the dataset's type take in a block of the given extents.
hsize_t block_bytes(hid_t dataset, const std::vector<hsize_t>& extents) {
  const Type type(check(H5Dget_type(dataset), dataset, "cannot read a dataset type"));
  hsize_t bytes = H5Tget_size(type.get());
  for (const hsize_t extent : extents) bytes *= extent;
  return bytes;
}

}  // namespace

hsize_t chunk_bytes(hid_t dataset) {
  const PropertyList layout(
      check(H5Dget_create_plist(dataset), dataset, "cannot read a dataset's layout"));
  std::vector<hsize_t> chunk(dataset_shape(dataset).size());
  check(H5Pget_chunk(layout.get(), static_cast<int>(chunk.size()), chunk.data()), dataset,
        "cannot read a dataset's chunk shape");
  return block_bytes(dataset, chunk);
}

void set_row_count(hid_t dataset, hsize_t rows) {
  std::vector<hsize_t> dims = dataset_shape(dataset);
  dims[0] = rows;
  check(H5Dset_extent(dataset, dims.data()), dataset, "cannot resize a dataset");
}

void write_row(hid_t dataset, hsize_t row, hid_t memory_type, const void* data) {
  set_row_count(dataset, row + 1);
  const Space file_space = dataspace_of(dataset);
  const Space memory_space = select_rows(file_space.get(), row, 1);
  check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        dataset, "cannot write a row");
}

void write_zero_row(hid_t dataset) {
  std::vector<hsize_t> row = dataset_shape(dataset);
  const hsize_t rows = row.at(0);
  row[0] = 1;
  const std::vector<unsigned char> zeros(block_bytes(dataset, row), 0);
  const Type type(check(H5Dget_type(dataset), dataset, "cannot read a dataset type"));
  write_row(dataset, rows, type.get(), zeros.data());
}

void read_rows(hid_t dataset, hsize_t rows, hid_t memory_type, void* data) {
  const Space file_space = dataspace_of(dataset);
  const Space memory_space = select_rows(file_space.get(), 0, rows);
  check(H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        dataset, "cannot read rows");
}

void read_row(hid_t dataset, hsize_t row, hid_t memory_type, void* data) {
  const Space file_space = dataspace_of(dataset);
  const Space memory_space = select_rows(file_space.get(), row, 1);
  check(H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        dataset, "cannot read a row");
}

}  // namespace pmom::io::h5
