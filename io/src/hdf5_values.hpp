// Typed reading and writing of HDF5 attributes and datasets as the sweep file uses them: UTF-8
// strings, complex numbers as h5py's {r, i} compound, and datasets that grow one row at a time.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hdf5_handle.hpp"

namespace pmom::io::h5 {

template <class T> hid_t memory_type() {
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, int>) return H5T_NATIVE_INT;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
  else {
    static_assert(std::is_same_v<T, long long>);
    return H5T_NATIVE_LLONG;
  }
}

// Fixed little-endian types in the file, so that it reads the same on any machine.
template <class T> hid_t file_type() {
  if constexpr (std::is_same_v<T, double>) return H5T_IEEE_F64LE;
  else if constexpr (std::is_same_v<T, int>) return H5T_STD_I32LE;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_STD_U64LE;
  else {
    static_assert(std::is_same_v<T, long long>);
    return H5T_STD_I64LE;
  }
}

// std::complex<double> as the compound {double r; double i;} that h5py reads as complex128;
// `part` is the type of each half (native in memory, IEEE little-endian in the file).
Type complex_type(hid_t part);
Type string_type();  // variable-length UTF-8

Dataset open_dataset(hid_t file, const char* path);

// Each replaces the value of an existing attribute of that name. The readers refuse an attribute
// that does not hold exactly one value.
void write_attribute(hid_t object, const char* name, const std::string& value);
void write_attribute(hid_t object, const char* name, int value);
void write_attribute(hid_t object, const char* name, double value);
std::string read_string_attribute(hid_t object, const char* name);
int read_int_attribute(hid_t object, const char* name);
double read_double_attribute(hid_t object, const char* name);

// A fixed dataset of the given shape (row-major data); parent groups are created as needed.
void write_array(hid_t file, const char* path, hid_t file_type, hid_t memory_type,
                 const std::vector<hsize_t>& shape, const void* data);
// The one-dimensional case.
void write_array(hid_t file, const char* path, hid_t file_type, hid_t memory_type,
                 hsize_t count, const void* data);
void write_strings(hid_t file, const char* path, const std::vector<std::string>& values);
std::vector<std::string> read_strings(hid_t file, const char* path);

// A dataset of shape [0, row_shape...] that grows along its first dimension without limit.
void create_rows(hid_t file, const char* path, hid_t file_type,
                 const std::vector<hsize_t>& row_shape);
std::vector<hsize_t> dataset_shape(hid_t dataset);
hsize_t row_count(hid_t dataset);
// The length of a one-dimensional dataset; fail() for any other shape.
hsize_t length(hid_t dataset);
// How many names (hard links) the object has in its file: 1 unless two paths lead to it.
unsigned link_count(hid_t object);
// The bytes one chunk of a chunked dataset takes in the file.
hsize_t chunk_bytes(hid_t dataset);
void set_row_count(hid_t dataset, hsize_t rows);
// Writes row `row`, growing or shrinking the dataset to row + 1 rows: a retried write after a
// failed one lands in the same place.
void write_row(hid_t dataset, hsize_t row, hid_t memory_type, const void* data);
// Writes a row of zero bytes after the last row.
void write_zero_row(hid_t dataset);
// Reads the first `rows` rows into `data`, which holds rows times the row size.
void read_rows(hid_t dataset, hsize_t rows, hid_t memory_type, void* data);
// Reads row `row` alone into `data`, which holds one row.
void read_row(hid_t dataset, hsize_t row, hid_t memory_type, void* data);

template <class T> std::vector<T> read_column(hid_t file, const char* path, hsize_t rows) {
  std::vector<T> values(rows);
  read_rows(open_dataset(file, path).get(), rows, memory_type<T>(), values.data());
  return values;
}

}  // namespace pmom::io::h5
