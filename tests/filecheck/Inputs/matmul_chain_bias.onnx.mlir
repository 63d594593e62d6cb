// Two linear layers, MatMul + Add bias each, dynamic batch.
module {
  func.func @main_graph(%arg0: tensor<?x32xf32> {onnx.dim_params = "0:batch", onnx.name = "X"}) -> (tensor<?x16xf32> {onnx.dim_params = "0:batch", onnx.name = "Y"}) {
    %0 = "onnx.Constant"() {value = dense<0.5> : tensor<32x64xf32>} : () -> tensor<32x64xf32>
    %1 = "onnx.Constant"() {value = dense<0.25> : tensor<64xf32>} : () -> tensor<64xf32>
    %2 = "onnx.Constant"() {value = dense<-0.5> : tensor<64x16xf32>} : () -> tensor<64x16xf32>
    %3 = "onnx.Constant"() {value = dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : tensor<16xf32>} : () -> tensor<16xf32>
    %4 = "onnx.MatMul"(%arg0, %0) {onnx_node_name = "fc1"} : (tensor<?x32xf32>, tensor<32x64xf32>) -> tensor<?x64xf32>
    %5 = "onnx.Add"(%4, %1) {onnx_node_name = "fc1_bias"} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
    %6 = "onnx.MatMul"(%5, %2) {onnx_node_name = "fc2"} : (tensor<?x64xf32>, tensor<64x16xf32>) -> tensor<?x16xf32>
    %7 = "onnx.Add"(%6, %3) {onnx_node_name = "fc2_bias"} : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
    return %7 : tensor<?x16xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
