# What `cmake --install <build> --prefix P` puts under P (docs/install.md):
#   bin/                 mlc-compile, mlc-run, mlc-opt
#   lib/                 libmlc_runtime.a (what mlc-compile links into every
#                        model.so, found as ../lib next to bin/),
#                        libmlc_runtime.so, libmlc_compiler.so (the
#                        compiler's C API)
#   include/mlc/         runtime.h, model_abi.h, compiler.h
#   lib/cmake/mlc/       find_package(mlc): mlc::runtime (shared),
#                        mlc::runtime_static, mlc::compiler
#   lib/pkgconfig/       mlc-runtime.pc, mlc-compiler.pc
#   MLC_PYTHON_INSTALL_DIR/mlc
#                        the Python package (default
#                        lib/python3/dist-packages)
# The library dir is always `lib`, not a multiarch one: mlc-compile finds
# the runtime archive relative to itself.
include(CMakePackageConfigHelpers)

set(MLC_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING
  "Where cmake --install puts the Python package, relative to the prefix")

# The tools link LLVM's shared libMLIR/libLLVM, which live outside the
# prefix (Debian: /usr/lib/llvm-22/lib).
set_target_properties(mlc-compile mlc-opt mlc_compiler PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS mlc-compile mlc-run mlc-opt RUNTIME DESTINATION bin)
install(TARGETS mlc_runtime mlc_runtime_shared mlc_compiler EXPORT mlcTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib
  INCLUDES DESTINATION include)
install(DIRECTORY runtime/include/mlc DESTINATION include
  FILES_MATCHING PATTERN "*.h")
install(FILES include/mlc/compiler.h DESTINATION include/mlc)
install(DIRECTORY runtime/python/mlc DESTINATION ${MLC_PYTHON_INSTALL_DIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
# mlc.compile finds libmlc_compiler.so through the package's mlc/_install.py:
# lib/ relative to the package directory.
if(IS_ABSOLUTE "${MLC_PYTHON_INSTALL_DIR}")
  message(FATAL_ERROR "MLC_PYTHON_INSTALL_DIR must be relative to the "
    "prefix (mlc.compile finds the compiler library from the package)")
endif()
file(RELATIVE_PATH MLC_PYTHON_TO_LIB "/p/${MLC_PYTHON_INSTALL_DIR}/mlc"
  "/p/lib")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/python-install/_install.py
  "# Written by cmake --install: where libmlc_compiler.so is, relative to\n"
  "# this package.\nLIBDIR = \"${MLC_PYTHON_TO_LIB}\"\n")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/python-install/_install.py
  DESTINATION ${MLC_PYTHON_INSTALL_DIR}/mlc)

# mlc::runtime and mlc::runtime_static (the targets' export names).
set_target_properties(mlc_runtime_shared PROPERTIES EXPORT_NAME runtime)
set_target_properties(mlc_runtime PROPERTIES EXPORT_NAME runtime_static)
set_target_properties(mlc_compiler PROPERTIES EXPORT_NAME compiler)
install(EXPORT mlcTargets NAMESPACE mlc:: DESTINATION lib/cmake/mlc)
configure_package_config_file(cmake/mlcConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mlcConfig.cmake
  INSTALL_DESTINATION lib/cmake/mlc
  PATH_VARS MLC_PYTHON_INSTALL_DIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/mlcConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mlcConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/mlcConfigVersion.cmake
  DESTINATION lib/cmake/mlc)

foreach(pc mlc-runtime mlc-compiler)
  configure_file(cmake/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc
    DESTINATION lib/pkgconfig)
endforeach()
