# CMake package for libmldsa: find_package(mldsa CONFIG) gives the imported target mldsa::mldsa
# (the shared library; headers mldsa.h, mldsa.hpp). Installed as
# <prefix>/lib/cmake/mldsa/mldsa-config.cmake, so the prefix is three levels up.
get_filename_component(_mldsa_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET mldsa::mldsa)
    add_library(mldsa::mldsa SHARED IMPORTED)
    set_target_properties(mldsa::mldsa PROPERTIES
        IMPORTED_LOCATION "${_mldsa_prefix}/lib/libmldsa.so.0"
        IMPORTED_SONAME "libmldsa.so.0"
        INTERFACE_INCLUDE_DIRECTORIES "${_mldsa_prefix}/include")
endif()
unset(_mldsa_prefix)
