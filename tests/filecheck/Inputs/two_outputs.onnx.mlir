// Two outputs: the attention probabilities and the scores they come from.
module {
  func.func @main_graph(%arg0: tensor<?x?x64xf32> {onnx.name = "Q"}, %arg1: tensor<?x64x?xf32> {onnx.name = "Kt"}) -> (tensor<?x?x?xf32> {onnx.name = "probs"}, tensor<?x?x?xf32> {onnx.name = "scores"}) {
    %0 = "onnx.MatMul"(%arg0, %arg1) {onnx_node_name = "qk"} : (tensor<?x?x64xf32>, tensor<?x64x?xf32>) -> tensor<?x?x?xf32>
    %1 = "onnx.Softmax"(%0) <{axis = 2 : si64}> {onnx_node_name = "softmax"} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    return %1, %0 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
