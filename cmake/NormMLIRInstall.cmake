# Install rules and the exported CMake package: `cmake --install` lays out
# include/, lib/, bin/ and lib/cmake/NormMLIR, and a consumer does
# find_package(NormMLIR CONFIG). Included from the top level after every
# target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NORM_MLIR_VERSION 0.1.0)
# AddMLIR installs libraries to lib${LLVM_LIBDIR_SUFFIX}; keep everything
# there rather than GNUInstallDirs' multiarch lib/<triple>.
set(NORM_MLIR_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(NORM_MLIR_INSTALL_CMAKEDIR ${NORM_MLIR_INSTALL_LIBDIR}/cmake/NormMLIR)

# add_mlir_library already installs each library into the export set
# MLIRTargets (LLVMDistributionSupport's get_target_export_arg, project
# MLIR, no distributions). The project's other installed targets join that
# set, and the set is installed as NormMLIRTargets.cmake, so there is one
# coherent export set and no target is exported twice.
set(NORM_MLIR_EXPORT_SET MLIRTargets)

# The add_mlir_library targets of this project (MLIRConfig.cmake does not
# fill MLIR_EXPORTS, so it holds ours only), plus the C API.
get_property(norm_mlir_libraries GLOBAL PROPERTY MLIR_EXPORTS)
list(APPEND norm_mlir_libraries NormCAPI)

# The build uses directory-wide include_directories; installed targets carry
# the installed include directory instead.
foreach(target ${norm_mlir_libraries}
    norm_cuda_runtime norm_cuda_runtime_static norm_harness_static)
  target_include_directories(${target}
    INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# Headers: the public ones and the .td files, then what tablegen generated
# (ops, enums, passes and their C API), in the same layout.
install(DIRECTORY
  ${PROJECT_SOURCE_DIR}/dialect/norm
  ${PROJECT_SOURCE_DIR}/dialect/norm-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/dialect/norm
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# What add_mlir_library does not install: the C API, the MLIR-free runtime
# and harness libraries, and the tools.
install(TARGETS
  NormCAPI
  norm_cuda_runtime
  norm_cuda_runtime_static
  norm_harness_static
  EXPORT ${NORM_MLIR_EXPORT_SET}
  LIBRARY DESTINATION ${NORM_MLIR_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${NORM_MLIR_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(norm_mlir_tools norm-opt norm-runner norm-compile)
# llvm_setup_rpath's install RPATH is $ORIGIN/../lib only; libMLIR.so and
# libLLVM.so stay where the build found them.
set_target_properties(${norm_mlir_tools} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../${NORM_MLIR_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
install(TARGETS ${norm_mlir_tools}
  EXPORT ${NORM_MLIR_EXPORT_SET}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT ${NORM_MLIR_EXPORT_SET}
  FILE NormMLIRTargets.cmake
  NAMESPACE NormMLIR::
  DESTINATION ${NORM_MLIR_INSTALL_CMAKEDIR})

# The package config: finds the MLIR this was built against, then the
# targets.
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/NormMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/NormMLIRConfig.cmake
  INSTALL_DESTINATION ${NORM_MLIR_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR NORM_MLIR_INSTALL_LIBDIR
    CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/NormMLIRConfigVersion.cmake
  VERSION ${NORM_MLIR_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/NormMLIRConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/NormMLIRConfigVersion.cmake
  DESTINATION ${NORM_MLIR_INSTALL_CMAKEDIR})
