# Every dependency is a Debian 12 package (scripts/setup-debian.sh installs them). Nothing is downloaded.
find_package(PkgConfig REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(zfp REQUIRED CONFIG)
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json REQUIRED CONFIG)
find_package(ZLIB REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(BLOSC REQUIRED IMPORTED_TARGET blosc)
pkg_check_modules(FFTW3F REQUIRED IMPORTED_TARGET fftw3f)
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)

# segyio ships neither a CMake config nor a pkg-config file on Debian.
find_path(SEGYIO_INCLUDE_DIR segyio/segy.h REQUIRED)
find_library(SEGYIO_LIBRARY segyio REQUIRED)
add_library(segyio::segyio UNKNOWN IMPORTED)
set_target_properties(segyio::segyio PROPERTIES
  IMPORTED_LOCATION ${SEGYIO_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${SEGYIO_INCLUDE_DIR})

add_library(fwi_hdf5 INTERFACE)
target_include_directories(fwi_hdf5 INTERFACE ${HDF5_INCLUDE_DIRS})
target_link_libraries(fwi_hdf5 INTERFACE ${HDF5_C_LIBRARIES})
target_compile_definitions(fwi_hdf5 INTERFACE ${HDF5_DEFINITIONS})
