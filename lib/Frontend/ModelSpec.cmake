# The JSON model parser: plain C++ (no MLIR), so it can be unit tested alone.
# include()d from lib/Frontend/CMakeLists.txt.
add_library(MLCFrontendSpec STATIC
  ${CMAKE_CURRENT_LIST_DIR}/ModelSpec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Safetensors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/JSONUtil.cpp
  )
target_include_directories(MLCFrontendSpec PUBLIC
  ${CMAKE_CURRENT_LIST_DIR}/../../include)
# nlohmann::json reports errors by throwing and LLVM's flags may disable
# exceptions, so turn them back on for these two files (target options come
# after the global flags, so this wins). No exception crosses the API.
target_compile_options(MLCFrontendSpec PRIVATE -fexceptions)
target_link_libraries(MLCFrontendSpec PUBLIC nlohmann_json::nlohmann_json)
