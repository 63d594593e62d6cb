// `xdsl-opt model.onnx`: the `onnx` frontend (xhip/frontend/xdsl_frontend.py),
// picked by the file's extension, imports the model as `xhip import` does, and
// `onnx-to-hip` on it gives the seed's final IR (compared with the seed's stage
// 21 by value in tests/pytest/frontend/test_xdsl_frontend.py). A file that is
// no ONNX model is a parse error of one line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python %S/../../../examples/attention.py -o %t/attention.onnx
// RUN: xdsl-opt %t/attention.onnx | filecheck %s --check-prefix=IMPORT
// RUN: xdsl-opt -f onnx < %t/attention.onnx | filecheck %s --check-prefix=IMPORT
// RUN: xdsl-opt %t/attention.onnx -p 'onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir="%t"}' | filecheck %s
// RUN: wc -c %t/model.constants.bin | filecheck %s --check-prefix=FILE
// RUN: printf 'not a model' > %t/bad.onnx
// RUN: xdsl-opt %t/bad.onnx --parsing-diagnostics | filecheck %s --check-prefix=BAD

// IMPORT:      builtin.module attributes {{{.*}}"onnx-mlir.symbol-postfix" = "attention_dynamic"} {
// IMPORT:        func.func @main_graph(%{{.*}}: tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x64xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
// IMPORT-COUNT-3: "onnx.Constant"() {value = dense<"0x{{[0-9A-F]+}}"> : tensor<64x64xf32>}
// IMPORT:        "onnx.Softmax"
// IMPORT:        "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()

// CHECK:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<?x?x64xf32>, %arg3: memref<?xi8>)
// CHECK:        memref.view %arg3[%{{.+}}][] : memref<?xi8> to memref<64x64xf32>
// CHECK:        hip.alloc(%arg0, %{{.+}}) : memref<?xi8>
// CHECK:        hip.miopen.softmax
// CHECK:        hip.free(%arg0, %{{.+}}) : memref<?xi8>

// FILE: 49152

// BAD: bad.onnx: not an ONNX model (protobuf parse failed: {{.*}}; is the file truncated or corrupt?)
