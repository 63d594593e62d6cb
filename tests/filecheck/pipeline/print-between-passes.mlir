// `xdsl-opt --print-between-passes` prints the IR after every one of the 21
// passes inside `onnx-to-hip` (the last one is the output), in the seed's order.
// RUN: rm -rf %t && mkdir -p %t
// RUN: xdsl-opt %inputs/attention.onnx.mlir -p 'onnx-to-hip-pipeline{externalize-output-dir="%t"}' --print-between-passes | filecheck %s

// CHECK:      IR after hip-add-context-arg:
// CHECK:      "onnx.MatMul"
// CHECK:      IR after convert-onnx-to-hip:
// CHECK:      tensor.empty
// CHECK:      IR after one-shot-bufferize:
// CHECK:      IR after buffer-results-to-out-params:
// CHECK:      IR after expand-realloc:
// CHECK:      IR after canonicalize:
// CHECK:      IR after ownership-based-buffer-deallocation:
// CHECK:      IR after canonicalize:
// CHECK:      IR after buffer-deallocation-simplification:
// CHECK:      IR after bufferization-lower-deallocations:
// CHECK:      IR after cse:
// CHECK:      IR after canonicalize:
// CHECK:      IR after cse:
// CHECK:      IR after canonicalize:
// CHECK:      IR after hip-optimize-memrefs:
// CHECK:      IR after hip-pool-allocs:
// CHECK:      IR after convert-bufferization-to-memref:
// CHECK:      IR after cse:
// CHECK:      IR after canonicalize:
// CHECK:      IR after hip-lower-allocs:
// CHECK:      hip.alloc
// CHECK-NOT:  IR after
// CHECK:      func.func @main_graph({{.*}}, %arg3: memref<?xi8>)
