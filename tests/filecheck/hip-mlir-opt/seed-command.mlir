// The seed's command line, flags verbatim (the constants go to %t, not /tmp):
// the final IR on stdout, the IR after each of the 21 passes on stderr, each
// headed as `mlir-opt --mlir-print-ir-after-all` heads it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hip-mlir-opt %inputs/attention.onnx.mlir --allow-unregistered-dialect --onnx-to-hip-pipeline='externalize-min-num-elements=256 externalize-output-dir=%t' --mlir-elide-elementsattrs-if-larger=4 --mlir-print-ir-after-all 2>%t/dumps | filecheck %s
// RUN: filecheck %s --check-prefix=DUMP < %t/dumps
// RUN: test -s %t/model.constants.bin

// CHECK:      func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<?x?x64xf32>, %arg3: memref<?xi8>)
// CHECK-SAME: attributes {hipdnn.buffer_offsets = [0
// CHECK-NOT:  IR Dump

// DUMP:      // -----// IR Dump After HipAddContextArgPass (hip-add-context-arg) //----- //
// DUMP-NEXT: builtin.module attributes
// DUMP:      "onnx.Constant"() {value = dense_resource<__elided__> : tensor<64x64xf32>}
// DUMP:      "onnx.Constant"() {value = dense<1.250000e-01> : tensor<f32>}
// DUMP:      // -----// IR Dump After ConvertOnnxToHipPass (convert-onnx-to-hip) //----- //
// DUMP:      memref.global "private" @hip_ext_constant_2 : memref<64x64xf32> {alignment = 64 : i64, hip.external_data = {offset = 32768 : i64, size = 16384 : i64}}
// DUMP:      // -----// IR Dump After OneShotBufferizePass (one-shot-bufferize) //----- //
// DUMP:      // -----// IR Dump After BufferResultsToOutParamsPass (buffer-results-to-out-params) //----- //
// DUMP:      // -----// IR Dump After ExpandReallocPass (expand-realloc) //----- //
// DUMP:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// DUMP:      // -----// IR Dump After OwnershipBasedBufferDeallocationPass (ownership-based-buffer-deallocation) //----- //
// DUMP:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// DUMP:      // -----// IR Dump After BufferDeallocationSimplificationPass (buffer-deallocation-simplification) //----- //
// DUMP:      // -----// IR Dump After BufferizationLowerDeallocationsPass (bufferization-lower-deallocations) //----- //
// DUMP:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// DUMP:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// DUMP:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// DUMP:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// Function passes print the function alone, as in the seed.
// DUMP:      // -----// IR Dump After HipOptimizeMemrefsPass (hip-optimize-memrefs) //----- //
// DUMP-NEXT: func.func @main_graph(
// DUMP:      // -----// IR Dump After HipPoolAllocsPass (hip-pool-allocs) //----- //
// DUMP-NEXT: func.func @main_graph(
// DUMP:      // -----// IR Dump After ConvertBufferizationToMemrefPass (convert-bufferization-to-memref) //----- //
// DUMP-NEXT: builtin.module attributes
// DUMP:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// DUMP:      // -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// DUMP:      // -----// IR Dump After HipLowerAllocsPass (hip-lower-allocs) //----- //
// DUMP-NEXT: func.func @main_graph(
// DUMP:      hip.alloc
// DUMP:      // -----// IR Dump After HipResolveExternConstantsPass (hip-resolve-extern-constants) //----- //
// DUMP-NEXT: builtin.module attributes {llvm.data_layout
// DUMP:      %arg3: memref<?xi8>
// DUMP-NOT:  IR Dump
