builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 1.000000e-01, 1.000000e-02, 1.000000e-03]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<2.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<1.000000e-06> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32_0 : memref<1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32 : memref<1xf32> = dense<0xff800000> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x128xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %0 = memref.get_global @__constant_1xf32 : memref<1xf32>
    %1 = memref.get_global @__constant_1xf32_0 : memref<1xf32>
    %2 = memref.get_global @__constant_xf32 : memref<f32>
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %3 = memref.get_global @__constant_xf32_0 : memref<f32>
    %4 = memref.get_global @__constant_xf32_1 : memref<f32>
    %5 = memref.get_global @__constant_xf32_2 : memref<f32>
    %6 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %c3 = arith.constant 3 : index
    %7 = memref.get_global @__constant_xi1 : memref<i1>
    %c2 = arith.constant 2 : index
    %8 = memref.get_global @__constant_xi64 : memref<i64>
    %9 = memref.get_global @__constant_xi64_0 : memref<i64>
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %10 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg4[%c0_1][] : memref<?xi8> to memref<128x32xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg4[%c16384][] : memref<?xi8> to memref<32x32xf32>
    %c20480 = arith.constant 20480 : index
    %view_2 = memref.view %arg4[%c20480][] : memref<?xi8> to memref<32x16xf32>
    %c22528 = arith.constant 22528 : index
    %view_3 = memref.view %arg4[%c22528][] : memref<?xi8> to memref<32x16xf32>
    %c24576 = arith.constant 24576 : index
    %view_4 = memref.view %arg4[%c24576][] : memref<?xi8> to memref<32x32xf32>
    %c28672 = arith.constant 28672 : index
    %view_5 = memref.view %arg4[%c28672][] : memref<?xi8> to memref<32x64xf32>
    %c36864 = arith.constant 36864 : index
    %view_6 = memref.view %arg4[%c36864][] : memref<?xi8> to memref<32x64xf32>
    %c45056 = arith.constant 45056 : index
    %view_7 = memref.view %arg4[%c45056][] : memref<?xi8> to memref<64x32xf32>
    %c53248 = arith.constant 53248 : index
    %view_8 = memref.view %arg4[%c53248][] : memref<?xi8> to memref<32x32xf32>
    %c57344 = arith.constant 57344 : index
    %view_9 = memref.view %arg4[%c57344][] : memref<?xi8> to memref<32x16xf32>
    %c59392 = arith.constant 59392 : index
    %view_10 = memref.view %arg4[%c59392][] : memref<?xi8> to memref<32x16xf32>
    %c61440 = arith.constant 61440 : index
    %view_11 = memref.view %arg4[%c61440][] : memref<?xi8> to memref<32x32xf32>
    %c65536 = arith.constant 65536 : index
    %view_12 = memref.view %arg4[%c65536][] : memref<?xi8> to memref<32x64xf32>
    %c73728 = arith.constant 73728 : index
    %view_13 = memref.view %arg4[%c73728][] : memref<?xi8> to memref<32x64xf32>
    %c81920 = arith.constant 81920 : index
    %view_14 = memref.view %arg4[%c81920][] : memref<?xi8> to memref<64x32xf32>
    %c90112 = arith.constant 90112 : index
    %view_15 = memref.view %arg4[%c90112][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_2 = arith.maxsi %dim, %dim : index
    %dim_3 = arith.maxsi %dim_1, %dim_1 : index
    %11 = arith.muli %dim, %dim_1 : index
    %12 = arith.constant 32 : index
    %dim_4 = arith.muli %11, %12 : index
    %13 = arith.muli %11, %c8 : index
    %dim_5 = arith.divui %dim_4, %13 : index
    %14 = arith.constant 16 : index
    %dim_6 = arith.muli %11, %14 : index
    %dim_7 = arith.divui %dim_6, %13 : index
    %15 = arith.maxsi %dim_7, %dim_7 : index
    %dim_8 = arith.muli %dim_7, %c2 : index
    %16 = arith.muli %dim, %dim_5 : index
    %17 = arith.muli %16, %dim_1 : index
    %dim_9 = arith.muli %17, %c8 : index
    %dim_10 = arith.divui %dim_9, %13 : index
    %c768 = arith.constant 768 : index
    %18 = arith.muli %11, %c768 : index
    %c128 = arith.constant 128 : index
    %19 = arith.muli %11, %c128 : index
    %c255 = arith.constant 255 : index
    %20 = arith.addi %19, %c255 : index
    %c256 = arith.constant 256 : index
    %21 = arith.divui %20, %c256 : index
    %22 = arith.muli %21, %c768 : index
    %23 = arith.addi %18, %22 : index
    %24 = arith.muli %dim_1, %c8 : index
    %25 = arith.addi %24, %c255 : index
    %26 = arith.divui %25, %c256 : index
    %c512 = arith.constant 512 : index
    %27 = arith.muli %26, %c512 : index
    %28 = arith.addi %23, %27 : index
    %29 = arith.addi %11, %c255 : index
    %30 = arith.divui %29, %c256 : index
    %31 = arith.muli %30, %c512 : index
    %32 = arith.addi %28, %31 : index
    %33 = arith.muli %dim, %c8 : index
    %34 = arith.addi %33, %c255 : index
    %35 = arith.divui %34, %c256 : index
    %36 = arith.muli %35, %c512 : index
    %37 = arith.addi %32, %36 : index
    %38 = arith.muli %dim_1, %dim_1 : index
    %39 = arith.addi %38, %c255 : index
    %40 = arith.divui %39, %c256 : index
    %41 = arith.muli %40, %c512 : index
    %42 = arith.addi %37, %41 : index
    %43 = arith.addi %13, %c255 : index
    %44 = arith.divui %43, %c256 : index
    %45 = arith.muli %44, %c256 : index
    %46 = arith.addi %42, %45 : index
    %47 = arith.muli %11, %dim_1 : index
    %48 = arith.addi %47, %c255 : index
    %49 = arith.divui %48, %c256 : index
    %50 = arith.muli %49, %c256 : index
    %51 = arith.addi %46, %50 : index
    %52 = arith.muli %dim_2, %dim_3 : index
    %53 = arith.muli %52, %dim_3 : index
    %54 = arith.addi %53, %c255 : index
    %55 = arith.divui %54, %c256 : index
    %56 = arith.muli %55, %c256 : index
    %57 = arith.addi %51, %56 : index
    %58 = arith.muli %dim_1, %c4 : index
    %59 = arith.addi %58, %c255 : index
    %60 = arith.divui %59, %c256 : index
    %61 = arith.muli %60, %c256 : index
    %62 = arith.addi %57, %61 : index
    %63 = arith.muli %dim_1, %14 : index
    %64 = arith.addi %63, %c255 : index
    %65 = arith.divui %64, %c256 : index
    %66 = arith.muli %65, %c256 : index
    %67 = arith.addi %62, %66 : index
    %68 = arith.muli %dim_1, %12 : index
    %69 = arith.addi %68, %c255 : index
    %70 = arith.divui %69, %c256 : index
    %71 = arith.muli %70, %c768 : index
    %72 = arith.addi %67, %71 : index
    %73 = arith.muli %11, %c4 : index
    %74 = arith.addi %73, %c255 : index
    %75 = arith.divui %74, %c256 : index
    %76 = arith.muli %75, %c512 : index
    %77 = arith.addi %72, %76 : index
    %78 = arith.muli %11, %dim_5 : index
    %79 = arith.muli %78, %12 : index
    %80 = arith.addi %79, %c255 : index
    %81 = arith.divui %80, %c256 : index
    %82 = arith.muli %81, %c768 : index
    %83 = arith.addi %77, %82 : index
    %c64 = arith.constant 64 : index
    %84 = arith.muli %11, %c64 : index
    %85 = arith.addi %84, %c255 : index
    %86 = arith.divui %85, %c256 : index
    %87 = arith.muli %86, %c256 : index
    %88 = arith.addi %83, %87 : index
    %89 = arith.muli %11, %dim_7 : index
    %90 = arith.muli %89, %12 : index
    %91 = arith.addi %90, %c255 : index
    %92 = arith.divui %91, %c256 : index
    %c1024 = arith.constant 1024 : index
    %93 = arith.muli %92, %c1024 : index
    %94 = arith.addi %88, %93 : index
    %95 = arith.muli %78, %c4 : index
    %96 = arith.muli %95, %c4 : index
    %97 = arith.addi %96, %c255 : index
    %98 = arith.divui %97, %c256 : index
    %99 = arith.muli %98, %c768 : index
    %100 = arith.addi %94, %99 : index
    %101 = arith.muli %78, %c8 : index
    %102 = arith.muli %101, %c4 : index
    %103 = arith.addi %102, %c255 : index
    %104 = arith.divui %103, %c256 : index
    %105 = arith.muli %104, %c256 : index
    %106 = arith.addi %100, %105 : index
    %107 = arith.muli %89, %c4 : index
    %108 = arith.muli %107, %c4 : index
    %109 = arith.addi %108, %c255 : index
    %110 = arith.divui %109, %c256 : index
    %111 = arith.muli %110, %c768 : index
    %112 = arith.addi %106, %111 : index
    %113 = arith.muli %89, %c8 : index
    %114 = arith.muli %113, %c4 : index
    %115 = arith.addi %114, %c255 : index
    %116 = arith.divui %115, %c256 : index
    %117 = arith.muli %116, %c256 : index
    %118 = arith.addi %112, %117 : index
    %119 = arith.muli %dim_2, %dim_3 : index
    %120 = arith.muli %119, %15 : index
    %121 = arith.muli %120, %c2 : index
    %122 = arith.muli %121, %12 : index
    %123 = arith.addi %122, %c255 : index
    %124 = arith.divui %123, %c256 : index
    %125 = arith.muli %124, %c512 : index
    %126 = arith.addi %118, %125 : index
    %127 = arith.muli %11, %dim_8 : index
    %128 = arith.muli %127, %12 : index
    %129 = arith.addi %128, %c255 : index
    %130 = arith.divui %129, %c256 : index
    %131 = arith.muli %130, %c512 : index
    %132 = arith.addi %126, %131 : index
    %133 = arith.muli %47, %dim_5 : index
    %134 = arith.muli %133, %c4 : index
    %135 = arith.addi %134, %c255 : index
    %136 = arith.divui %135, %c256 : index
    %137 = arith.muli %136, %c512 : index
    %138 = arith.addi %132, %137 : index
    %139 = arith.muli %53, %c4 : index
    %140 = arith.addi %139, %c255 : index
    %141 = arith.divui %140, %c256 : index
    %142 = arith.muli %141, %c256 : index
    %143 = arith.addi %138, %142 : index
    %144 = arith.addi %133, %c255 : index
    %145 = arith.divui %144, %c256 : index
    %146 = arith.muli %145, %c256 : index
    %147 = arith.addi %143, %146 : index
    %148 = arith.muli %11, %dim_10 : index
    %149 = arith.muli %148, %12 : index
    %150 = arith.addi %149, %c255 : index
    %151 = arith.divui %150, %c256 : index
    %152 = arith.muli %151, %c256 : index
    %153 = arith.addi %147, %152 : index
    %154 = arith.addi %153, %c256 : index
    %alloc = hip.alloc(%arg0, %154) : memref<?xi8>
    %155 = arith.muli %21, %c256 : index
    %156 = arith.muli %26, %c256 : index
    %157 = arith.addi %155, %156 : index
    %158 = arith.muli %30, %c256 : index
    %159 = arith.addi %157, %158 : index
    %160 = arith.muli %35, %c256 : index
    %161 = arith.addi %159, %160 : index
    %162 = arith.addi %155, %27 : index
    %163 = arith.addi %162, %158 : index
    %164 = arith.addi %163, %160 : index
    %165 = arith.muli %40, %c256 : index
    %166 = arith.addi %164, %165 : index
    %167 = arith.addi %164, %41 : index
    %168 = arith.addi %167, %c256 : index
    %169 = arith.addi %163, %36 : index
    %170 = arith.addi %169, %41 : index
    %171 = arith.addi %170, %c256 : index
    %172 = arith.addi %170, %45 : index
    %173 = arith.addi %172, %c256 : index
    %174 = arith.addi %162, %31 : index
    %175 = arith.addi %174, %36 : index
    %176 = arith.addi %175, %41 : index
    %177 = arith.addi %176, %45 : index
    %178 = arith.addi %177, %c256 : index
    %179 = arith.addi %177, %50 : index
    %180 = arith.addi %179, %c256 : index
    %181 = arith.addi %179, %56 : index
    %182 = arith.addi %181, %c256 : index
    %183 = arith.addi %181, %61 : index
    %184 = arith.addi %183, %c256 : index
    %185 = arith.addi %183, %66 : index
    %186 = arith.addi %185, %c256 : index
    %187 = arith.muli %70, %c256 : index
    %188 = arith.addi %185, %187 : index
    %189 = arith.addi %188, %c256 : index
    %190 = arith.muli %70, %c512 : index
    %191 = arith.addi %185, %190 : index
    %192 = arith.addi %191, %c256 : index
    %193 = arith.addi %185, %71 : index
    %194 = arith.addi %193, %c256 : index
    %195 = arith.muli %21, %c512 : index
    %196 = arith.addi %195, %27 : index
    %197 = arith.addi %196, %31 : index
    %198 = arith.addi %197, %36 : index
    %199 = arith.addi %198, %41 : index
    %200 = arith.addi %199, %45 : index
    %201 = arith.addi %200, %50 : index
    %202 = arith.addi %201, %56 : index
    %203 = arith.addi %202, %61 : index
    %204 = arith.addi %203, %66 : index
    %205 = arith.addi %204, %71 : index
    %206 = arith.addi %205, %c256 : index
    %207 = arith.muli %75, %c256 : index
    %208 = arith.addi %205, %207 : index
    %209 = arith.addi %208, %c256 : index
    %210 = arith.addi %205, %76 : index
    %211 = arith.addi %210, %c256 : index
    %212 = arith.addi %22, %27 : index
    %213 = arith.addi %212, %31 : index
    %214 = arith.addi %213, %36 : index
    %215 = arith.addi %214, %41 : index
    %216 = arith.addi %215, %45 : index
    %217 = arith.addi %216, %50 : index
    %218 = arith.addi %217, %56 : index
    %219 = arith.addi %218, %61 : index
    %220 = arith.addi %219, %66 : index
    %221 = arith.addi %220, %71 : index
    %222 = arith.addi %221, %76 : index
    %223 = arith.addi %222, %c256 : index
    %224 = arith.muli %81, %c256 : index
    %225 = arith.addi %222, %224 : index
    %226 = arith.addi %225, %c256 : index
    %227 = arith.addi %225, %87 : index
    %228 = arith.addi %227, %c256 : index
    %229 = arith.muli %92, %c256 : index
    %230 = arith.addi %227, %229 : index
    %231 = arith.addi %230, %c256 : index
    %232 = arith.muli %92, %c512 : index
    %233 = arith.addi %227, %232 : index
    %234 = arith.addi %233, %c256 : index
    %235 = arith.muli %81, %c512 : index
    %236 = arith.addi %222, %235 : index
    %237 = arith.addi %236, %87 : index
    %238 = arith.addi %237, %232 : index
    %239 = arith.addi %238, %c256 : index
    %240 = arith.muli %98, %c256 : index
    %241 = arith.addi %238, %240 : index
    %242 = arith.addi %241, %c256 : index
    %243 = arith.muli %98, %c512 : index
    %244 = arith.addi %238, %243 : index
    %245 = arith.addi %244, %c256 : index
    %246 = arith.addi %238, %99 : index
    %247 = arith.addi %246, %c256 : index
    %248 = arith.addi %246, %105 : index
    %249 = arith.addi %248, %c256 : index
    %250 = arith.addi %222, %82 : index
    %251 = arith.addi %250, %87 : index
    %252 = arith.addi %251, %232 : index
    %253 = arith.addi %252, %99 : index
    %254 = arith.addi %253, %105 : index
    %255 = arith.addi %254, %c256 : index
    %256 = arith.muli %92, %c768 : index
    %257 = arith.addi %251, %256 : index
    %258 = arith.addi %257, %99 : index
    %259 = arith.addi %258, %105 : index
    %260 = arith.addi %259, %c256 : index
    %261 = arith.muli %110, %c256 : index
    %262 = arith.addi %259, %261 : index
    %263 = arith.addi %262, %c256 : index
    %264 = arith.muli %110, %c512 : index
    %265 = arith.addi %259, %264 : index
    %266 = arith.addi %265, %c256 : index
    %267 = arith.addi %259, %111 : index
    %268 = arith.addi %267, %c256 : index
    %269 = arith.addi %267, %117 : index
    %270 = arith.addi %269, %c256 : index
    %271 = arith.addi %251, %93 : index
    %272 = arith.addi %271, %99 : index
    %273 = arith.addi %272, %105 : index
    %274 = arith.addi %273, %111 : index
    %275 = arith.addi %274, %117 : index
    %276 = arith.addi %275, %c256 : index
    %277 = arith.muli %124, %c256 : index
    %278 = arith.addi %275, %277 : index
    %279 = arith.addi %278, %c256 : index
    %280 = arith.addi %275, %125 : index
    %281 = arith.addi %280, %c256 : index
    %282 = arith.muli %130, %c256 : index
    %283 = arith.addi %280, %282 : index
    %284 = arith.addi %283, %c256 : index
    %285 = arith.addi %280, %131 : index
    %286 = arith.addi %285, %c256 : index
    %287 = arith.muli %136, %c256 : index
    %288 = arith.addi %285, %287 : index
    %289 = arith.addi %288, %c256 : index
    %290 = arith.addi %288, %142 : index
    %291 = arith.addi %290, %c256 : index
    %292 = arith.addi %285, %137 : index
    %293 = arith.addi %292, %142 : index
    %294 = arith.addi %293, %c256 : index
    %295 = arith.addi %293, %146 : index
    %296 = arith.addi %295, %c256 : index
    %297 = arith.addi %295, %152 : index
    %298 = arith.addi %297, %c256 : index
    %299 = arith.muli %11, %c256 : index
    %300 = arith.addi %299, %22 : index
    %301 = arith.addi %300, %27 : index
    %302 = arith.addi %301, %31 : index
    %303 = arith.addi %302, %36 : index
    %304 = arith.addi %303, %41 : index
    %305 = arith.addi %304, %45 : index
    %306 = arith.addi %305, %50 : index
    %307 = arith.addi %306, %56 : index
    %308 = arith.addi %307, %61 : index
    %309 = arith.addi %308, %66 : index
    %310 = arith.addi %309, %71 : index
    %311 = arith.addi %310, %76 : index
    %312 = arith.addi %311, %82 : index
    %313 = arith.addi %312, %87 : index
    %314 = arith.addi %313, %93 : index
    %315 = arith.addi %314, %99 : index
    %316 = arith.addi %315, %105 : index
    %317 = arith.addi %316, %111 : index
    %318 = arith.addi %317, %117 : index
    %319 = arith.addi %318, %125 : index
    %320 = arith.addi %319, %131 : index
    %321 = arith.addi %320, %137 : index
    %322 = arith.addi %321, %142 : index
    %323 = arith.addi %322, %146 : index
    %324 = arith.addi %323, %152 : index
    %325 = arith.addi %324, %c256 : index
    %326 = arith.muli %11, %c512 : index
    %327 = arith.addi %326, %22 : index
    %328 = arith.addi %327, %27 : index
    %329 = arith.addi %328, %31 : index
    %330 = arith.addi %329, %36 : index
    %331 = arith.addi %330, %41 : index
    %332 = arith.addi %331, %45 : index
    %333 = arith.addi %332, %50 : index
    %334 = arith.addi %333, %56 : index
    %335 = arith.addi %334, %61 : index
    %336 = arith.addi %335, %66 : index
    %337 = arith.addi %336, %71 : index
    %338 = arith.addi %337, %76 : index
    %339 = arith.addi %338, %82 : index
    %340 = arith.addi %339, %87 : index
    %341 = arith.addi %340, %93 : index
    %342 = arith.addi %341, %99 : index
    %343 = arith.addi %342, %105 : index
    %344 = arith.addi %343, %111 : index
    %345 = arith.addi %344, %117 : index
    %346 = arith.addi %345, %125 : index
    %347 = arith.addi %346, %131 : index
    %348 = arith.addi %347, %137 : index
    %349 = arith.addi %348, %142 : index
    %350 = arith.addi %349, %146 : index
    %351 = arith.addi %350, %152 : index
    %352 = arith.addi %351, %c256 : index
    %view_16 = memref.view %alloc[%c0][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_16 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_17 = memref.view %alloc[%155][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%9, %8 : memref<i64>, memref<i64>) outs(%view_17 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_17 [[0 : i64, 1 : i64]] output_shape [1, %dim_1] : memref<?xi64> into memref<1x?xi64>
    %view_18 = memref.view %alloc[%157][%dim, %dim_1] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%arg2 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_18 : memref<?x?xi1>)
    %view_19 = memref.view %alloc[%159][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%9, %8 : memref<i64>, memref<i64>) outs(%view_19 : memref<?xi64>)
    %view_20 = memref.view %alloc[%161][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%9, %8 : memref<i64>, memref<i64>) outs(%view_20 : memref<?xi64>)
    %expand_shape_1 = memref.expand_shape %view_19 [[0 : i64, 1 : i64]] output_shape [%dim, 1] : memref<?xi64> into memref<?x1xi64>
    %expand_shape_2 = memref.expand_shape %expand_shape_1 [[0 : i64], [1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?x1xi64> into memref<?x1x1xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_6 = memref.expand_shape %view_20 [[0 : i64, 1 : i64]] output_shape [1, %dim_1] : memref<?xi64> into memref<1x?xi64>
    %expand_shape_7 = memref.expand_shape %expand_shape_6 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_8 = memref.expand_shape %expand_shape_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_1] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_21 = memref.view %alloc[%164][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_8, %expand_shape_5 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_21 : memref<1x1x?x?xi1>)
    %view_22 = memref.view %alloc[%166][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%7, %view_21 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_22 : memref<1x1x?x?xi1>)
    %view_23 = memref.view %alloc[%167][] : memref<?xi8> to memref<1xi64>
    hip.from_elements(%arg0, %dim_1) ins() outs(%view_23 : memref<1xi64>)
    %collapse_shape = memref.collapse_shape %view_18 [[0 : i64, 1 : i64]] : memref<?x?xi1> into memref<?xi1>
    %expand_shape_9 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%11, 1] : memref<?xi1> into memref<?x1xi1>
    %view_24 = memref.view %alloc[%168][%dim] : memref<?xi8> to memref<?x1x1x1xi64>
    hip.miopen.mul(%arg0) ins(%expand_shape_3, %view_23 : memref<?x1x1x1xi64>, memref<1xi64>) outs(%view_24 : memref<?x1x1x1xi64>)
    %view_25 = memref.view %alloc[%171][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.add(%arg0) ins(%expand_shape_8, %view_24 : memref<1x1x1x?xi64>, memref<?x1x1x1xi64>) outs(%view_25 : memref<?x1x1x?xi64>)
    %view_26 = memref.view %alloc[%173][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?x1xi1>
    hip.gather(%arg0) ins(%expand_shape_9, %view_25 : memref<?x1xi1>, memref<?x1x1x?xi64>) outs(%view_26 : memref<?x1x1x?x1xi1>) {axis = 0 : i64}
    %collapse_shape_1 = memref.collapse_shape %view_26 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x1x1x?x1xi1> into memref<?xi1>
    %expand_shape_10 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 1, 1, %dim_1] : memref<?xi1> into memref<?x1x1x?xi1>
    %view_27 = memref.view %alloc[%178][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_22, %expand_shape_10 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_27 : memref<?x1x?x?xi1>)
    %view_28 = memref.view %alloc[%180][%dim_2, %c1, %dim_3, %dim_3] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.expand(%arg0) ins(%view_27 : memref<?x1x?x?xi1>) outs(%view_28 : memref<?x?x?x?xi1>)
    %expand_shape_11 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, %dim_1, 1] : memref<1x?xi64> into memref<1x?x1xi64>
    %view_29 = memref.view %alloc[%182][%dim_1] : memref<?xi8> to memref<1x?x1xf32>
    hip.cast(%arg0) ins(%expand_shape_11 : memref<1x?x1xi64>) outs(%view_29 : memref<1x?x1xf32>)
    %view_30 = memref.view %alloc[%184][%dim_1] : memref<?xi8> to memref<1x?x4xf32>
    hip.miopen.mul(%arg0) ins(%view_29, %6 : memref<1x?x1xf32>, memref<4xf32>) outs(%view_30 : memref<1x?x4xf32>)
    %view_31 = memref.view %alloc[%186][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.concat(%arg0) ins(%view_30, %view_30 : memref<1x?x4xf32>, memref<1x?x4xf32>) outs(%view_31 : memref<1x?x8xf32>) {axis = 2 : i64}
    %view_32 = memref.view %alloc[%189][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.miopen.cos(%arg0) ins(%view_31 : memref<1x?x8xf32>) outs(%view_32 : memref<1x?x8xf32>)
    %view_33 = memref.view %alloc[%192][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_32, %5 : memref<1x?x8xf32>, memref<f32>) outs(%view_33 : memref<1x?x8xf32>)
    hip.miopen.sin(%arg0) ins(%view_31 : memref<1x?x8xf32>) outs(%view_32 : memref<1x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_32, %5 : memref<1x?x8xf32>, memref<f32>) outs(%view_31 : memref<1x?x8xf32>)
    %view_34 = memref.view %alloc[%194][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.pow(%arg0) ins(%view_16, %4 : memref<?x?x32xf32>, memref<f32>) outs(%view_34 : memref<?x?x32xf32>)
    %view_35 = memref.view %alloc[%206][%dim, %dim_1] : memref<?xi8> to memref<?x?x1xf32>
    hip.miopen.reduce_mean(%arg0) ins(%view_34 : memref<?x?x32xf32>) outs(%view_35 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    %view_36 = memref.view %alloc[%209][%dim, %dim_1] : memref<?xi8> to memref<?x?x1xf32>
    hip.miopen.add(%arg0) ins(%view_35, %3 : memref<?x?x1xf32>, memref<f32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_36 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.div(%arg0) ins(%5, %view_35 : memref<f32>, memref<?x?x1xf32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_36 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_34 : memref<?x?x32xf32>)
    %view_37 = memref.view %alloc[%211][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.mul(%arg0) ins(%10, %view_34 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_1 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_34 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %dim_5, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_38 = memref.view %alloc[%223][%dim, %dim_5, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_12 : memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    %view_39 = memref.view %alloc[%226][%dim, %dim_1] : memref<?xi8> to memref<?x?x16xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_2 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_39 : memref<?x?x16xf32>)
    %collapse_shape_3 = memref.collapse_shape %view_39 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x16xf32> into memref<?xf32>
    %expand_shape_13 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %dim_7, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_40 = memref.view %alloc[%228][%dim, %dim_7, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_40 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_3 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_39 : memref<?x?x16xf32>)
    %view_41 = memref.view %alloc[%231][%dim, %dim_7, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_41 : memref<?x?x?x8xf32>)
    %expand_shape_14 = memref.expand_shape %view_33 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, %dim_1, 8] : memref<1x?x8xf32> into memref<1x1x?x8xf32>
    %expand_shape_15 = memref.expand_shape %view_31 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, %dim_1, 8] : memref<1x?x8xf32> into memref<1x1x?x8xf32>
    %view_42 = memref.view %alloc[%234][%dim, %dim_5, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_38, %expand_shape_14 : memref<?x?x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_42 : memref<?x?x?x8xf32>)
    %view_43 = memref.view %alloc[%239][%dim, %dim_5, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_38 : memref<?x?x?x8xf32>) outs(%view_43 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_44 = memref.view %alloc[%242][%dim, %dim_5, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_38 : memref<?x?x?x8xf32>) outs(%view_44 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_45 = memref.view %alloc[%245][%dim, %dim_5, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.neg(%arg0) ins(%view_44 : memref<?x?x?x?xf32>) outs(%view_45 : memref<?x?x?x?xf32>)
    %view_46 = memref.view %alloc[%247][%dim, %dim_5, %dim_1, %c8] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.concat(%arg0) ins(%view_45, %view_43 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_46 : memref<?x?x?x?xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_46, %expand_shape_15 : memref<?x?x?x?xf32>, memref<1x1x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    %view_47 = memref.view %alloc[%249][%dim, %dim_5, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.add(%arg0) ins(%view_42, %view_38 : memref<?x?x?x8xf32>, memref<?x?x?x8xf32>) outs(%view_47 : memref<?x?x?x8xf32>)
    %view_48 = memref.view %alloc[%255][%dim, %dim_7, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_40, %expand_shape_14 : memref<?x?x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_48 : memref<?x?x?x8xf32>)
    %view_49 = memref.view %alloc[%260][%dim, %dim_7, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_40 : memref<?x?x?x8xf32>) outs(%view_49 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_50 = memref.view %alloc[%263][%dim, %dim_7, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_40 : memref<?x?x?x8xf32>) outs(%view_50 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_51 = memref.view %alloc[%266][%dim, %dim_7, %dim_1, %c4] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.neg(%arg0) ins(%view_50 : memref<?x?x?x?xf32>) outs(%view_51 : memref<?x?x?x?xf32>)
    %view_52 = memref.view %alloc[%268][%dim, %dim_7, %dim_1, %c8] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.concat(%arg0) ins(%view_51, %view_49 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_52 : memref<?x?x?x?xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_52, %expand_shape_15 : memref<?x?x?x?xf32>, memref<1x1x?x8xf32>) outs(%view_40 : memref<?x?x?x8xf32>)
    %view_53 = memref.view %alloc[%270][%dim, %dim_7, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.add(%arg0) ins(%view_48, %view_40 : memref<?x?x?x8xf32>, memref<?x?x?x8xf32>) outs(%view_53 : memref<?x?x?x8xf32>)
    %expand_shape_16 = memref.expand_shape %view_53 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim, %dim_7, 1, %dim_1, 8] : memref<?x?x?x8xf32> into memref<?x?x1x?x8xf32>
    %view_54 = memref.view %alloc[%276][%dim_2, %15, %c2, %dim_3] : memref<?xi8> to memref<?x?x?x?x8xf32>
    hip.expand(%arg0) ins(%expand_shape_16 : memref<?x?x1x?x8xf32>) outs(%view_54 : memref<?x?x?x?x8xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_54 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x?x?x?x8xf32> into memref<?xf32>
    %expand_shape_17 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_8, %dim_1, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %expand_shape_18 = memref.expand_shape %view_41 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim, %dim_7, 1, %dim_1, 8] : memref<?x?x?x8xf32> into memref<?x?x1x?x8xf32>
    %view_55 = memref.view %alloc[%279][%dim_2, %15, %c2, %dim_3] : memref<?xi8> to memref<?x?x?x?x8xf32>
    hip.expand(%arg0) ins(%expand_shape_18 : memref<?x?x1x?x8xf32>) outs(%view_55 : memref<?x?x?x?x8xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_55 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x?x?x?x8xf32> into memref<?xf32>
    %expand_shape_19 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_8, %dim_1, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_56 = memref.view %alloc[%281][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.transpose(%arg0, %c2, %c3) ins(%expand_shape_17 : memref<?x?x?x8xf32>) outs(%view_56 : memref<?x?x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_47, %2 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_38 : memref<?x?x?x8xf32>)
    %view_57 = memref.view %alloc[%284][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_56, %2 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_57 : memref<?x?x8x?xf32>)
    %view_58 = memref.view %alloc[%286][%dim, %dim_5, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_38, %view_57 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_58 : memref<?x?x?x?xf32>)
    %view_59 = memref.view %alloc[%289][%dim_2, %c1, %dim_3, %dim_3] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_28, %1, %0 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_59 : memref<?x?x?x?xf32>)
    %view_60 = memref.view %alloc[%291][%dim, %dim_5, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_58, %view_59 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_60 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_60 : memref<?x?x?x?xf32>) outs(%view_58 : memref<?x?x?x?xf32>)
    %view_61 = memref.view %alloc[%294][%dim, %dim_5, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_58 : memref<?x?x?x?xf32>) outs(%view_61 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_61, %1, %view_58 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_60 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_60, %expand_shape_19 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_38 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %expand_shape_20 = memref.expand_shape %collapse_shape_6 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_10, %dim_1, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_62 = memref.view %alloc[%296][%dim, %dim_1, %dim_10] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_20 : memref<?x?x?x8xf32>) outs(%view_62 : memref<?x?x?x8xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_62 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %dim_11 = arith.muli %148, %c8 : index
    %353 = arith.divui %dim_11, %11 : index
    %expand_shape_21 = memref.expand_shape %collapse_shape_7 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, %353] : memref<?xf32> into memref<?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_21, %view_4 : memref<?x?x?xf32>, memref<32x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_16, %view_37 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_34, %4 : memref<?x?x32xf32>, memref<f32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_16 : memref<?x?x32xf32>) outs(%view_36 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_36, %3 : memref<?x?x1xf32>, memref<f32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.div(%arg0) ins(%5, %view_36 : memref<f32>, memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_34, %view_35 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%10, %view_16 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    %view_63 = memref.view %alloc[%298][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_5 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_63 : memref<?x?x64xf32>)
    %view_64 = memref.view %alloc[%325][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.sigmoid(%arg0) ins(%view_63 : memref<?x?x64xf32>) outs(%view_64 : memref<?x?x64xf32>)
    %view_65 = memref.view %alloc[%352][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.mul(%arg0) ins(%view_63, %view_64 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_65 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_6 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_63 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_65, %view_63 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_64 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_64, %view_7 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_34, %view_37 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_16, %4 : memref<?x?x32xf32>, memref<f32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_34 : memref<?x?x32xf32>) outs(%view_35 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_35, %3 : memref<?x?x1xf32>, memref<f32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_36 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.div(%arg0) ins(%5, %view_35 : memref<f32>, memref<?x?x1xf32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_36 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%10, %view_34 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_8 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_12 : memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_9 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_39 : memref<?x?x16xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_41 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_10 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_39 : memref<?x?x16xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_53 : memref<?x?x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_38, %expand_shape_14 : memref<?x?x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_47 : memref<?x?x?x8xf32>)
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_38 : memref<?x?x?x8xf32>) outs(%view_43 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_38 : memref<?x?x?x8xf32>) outs(%view_45 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.miopen.neg(%arg0) ins(%view_45 : memref<?x?x?x?xf32>) outs(%view_44 : memref<?x?x?x?xf32>)
    hip.concat(%arg0) ins(%view_44, %view_43 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_46 : memref<?x?x?x?xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_46, %expand_shape_15 : memref<?x?x?x?xf32>, memref<1x1x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_47, %view_38 : memref<?x?x?x8xf32>, memref<?x?x?x8xf32>) outs(%view_42 : memref<?x?x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %expand_shape_14 : memref<?x?x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_40 : memref<?x?x?x8xf32>)
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_41 : memref<?x?x?x8xf32>) outs(%view_49 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_41 : memref<?x?x?x8xf32>) outs(%view_51 : memref<?x?x?x?xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.miopen.neg(%arg0) ins(%view_51 : memref<?x?x?x?xf32>) outs(%view_50 : memref<?x?x?x?xf32>)
    hip.concat(%arg0) ins(%view_50, %view_49 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_52 : memref<?x?x?x?xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_52, %expand_shape_15 : memref<?x?x?x?xf32>, memref<1x1x?x8xf32>) outs(%view_41 : memref<?x?x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_40, %view_41 : memref<?x?x?x8xf32>, memref<?x?x?x8xf32>) outs(%view_48 : memref<?x?x?x8xf32>)
    %expand_shape_22 = memref.expand_shape %view_48 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim, %dim_7, 1, %dim_1, 8] : memref<?x?x?x8xf32> into memref<?x?x1x?x8xf32>
    hip.expand(%arg0) ins(%expand_shape_22 : memref<?x?x1x?x8xf32>) outs(%view_55 : memref<?x?x?x?x8xf32>)
    hip.expand(%arg0) ins(%expand_shape_16 : memref<?x?x1x?x8xf32>) outs(%view_54 : memref<?x?x?x?x8xf32>)
    hip.transpose(%arg0, %c2, %c3) ins(%expand_shape_19 : memref<?x?x?x8xf32>) outs(%view_57 : memref<?x?x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_42, %2 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_38 : memref<?x?x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_57, %2 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_56 : memref<?x?x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_38, %view_56 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_60 : memref<?x?x?x?xf32>)
    hip.miopen.where(%arg0) ins(%view_28, %1, %0 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_59 : memref<?x?x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_60, %view_59 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_58 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_58 : memref<?x?x?x?xf32>) outs(%view_60 : memref<?x?x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_60 : memref<?x?x?x?xf32>) outs(%view_61 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_61, %1, %view_60 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_58 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_58, %expand_shape_17 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_20 : memref<?x?x?x8xf32>) outs(%view_62 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_21, %view_11 : memref<?x?x?xf32>, memref<32x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_16, %view_37 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_34, %4 : memref<?x?x32xf32>, memref<f32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_16 : memref<?x?x32xf32>) outs(%view_36 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_36, %3 : memref<?x?x1xf32>, memref<f32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.div(%arg0) ins(%5, %view_36 : memref<f32>, memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_34, %view_35 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%10, %view_16 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_12 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_64 : memref<?x?x64xf32>)
    hip.miopen.sigmoid(%arg0) ins(%view_64 : memref<?x?x64xf32>) outs(%view_63 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_64, %view_63 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_65 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_13 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_63 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_65, %view_63 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_64 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_64, %view_14 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_37 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_34, %view_37 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_16, %4 : memref<?x?x32xf32>, memref<f32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_34 : memref<?x?x32xf32>) outs(%view_35 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_35, %3 : memref<?x?x1xf32>, memref<f32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_36 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.div(%arg0) ins(%5, %view_35 : memref<f32>, memref<?x?x1xf32>) outs(%view_36 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_36 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%10, %view_34 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_16, %view_15 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg3 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
