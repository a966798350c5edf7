# The ONNX protobuf reader: plain C++ with RTTI and exceptions as protobuf
# expects (LLVM's flags turn both off), no MLIR. mlc-run links it too, to
# read ONNX test data (.pb tensors). include()d from CMakeLists.txt.
find_package(ONNX CONFIG REQUIRED)
find_package(Protobuf REQUIRED)
add_library(MLCONNXModel STATIC ${CMAKE_CURRENT_LIST_DIR}/ONNXModel.cpp)
target_include_directories(MLCONNXModel PUBLIC
  ${CMAKE_CURRENT_LIST_DIR}/../../include)
target_compile_options(MLCONNXModel PRIVATE -fexceptions -frtti)
target_link_libraries(MLCONNXModel PRIVATE onnx_proto protobuf::libprotobuf)
target_compile_definitions(MLCONNXModel PRIVATE ONNX_NAMESPACE=onnx ONNX_ML=1)
