builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32_0 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_96xf32 : memref<96xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_128xf32 : memref<128xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_4 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32_0 : memref<1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32 : memref<1xf32> = dense<0xff800000> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<3.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<4.471500e-02> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<0.797884583> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg4: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg5: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg6: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg7: memref<?x?x128xf32>, %arg8: memref<?x4x?x8xf32>, %arg9: memref<?x4x?x8xf32>, %arg10: memref<?x4x?x8xf32>, %arg11: memref<?x4x?x8xf32>, %arg12: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xf32_2 : memref<f32>
    %4 = memref.get_global @__constant_xf32_3 : memref<f32>
    %5 = memref.get_global @__constant_1xf32 : memref<1xf32>
    %6 = memref.get_global @__constant_1xf32_0 : memref<1xf32>
    %7 = memref.get_global @__constant_xf32_4 : memref<f32>
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %c3 = arith.constant 3 : index
    %8 = memref.get_global @__constant_xi1 : memref<i1>
    %9 = memref.get_global @__constant_xi64 : memref<i64>
    %10 = memref.get_global @__constant_xi64_0 : memref<i64>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %11 = memref.get_global @__constant_128xf32 : memref<128xf32>
    %12 = memref.get_global @__constant_96xf32 : memref<96xf32>
    %13 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %14 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg12[%c0_1][] : memref<?xi8> to memref<128x32xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg12[%c16384][] : memref<?xi8> to memref<64x32xf32>
    %c24576 = arith.constant 24576 : index
    %view_2 = memref.view %arg12[%c24576][] : memref<?xi8> to memref<32x96xf32>
    %c36864 = arith.constant 36864 : index
    %view_3 = memref.view %arg12[%c36864][] : memref<?xi8> to memref<32x32xf32>
    %c40960 = arith.constant 40960 : index
    %view_4 = memref.view %arg12[%c40960][] : memref<?xi8> to memref<32x128xf32>
    %c57344 = arith.constant 57344 : index
    %view_5 = memref.view %arg12[%c57344][] : memref<?xi8> to memref<128x32xf32>
    %c73728 = arith.constant 73728 : index
    %view_6 = memref.view %arg12[%c73728][] : memref<?xi8> to memref<32x96xf32>
    %c86016 = arith.constant 86016 : index
    %view_7 = memref.view %arg12[%c86016][] : memref<?xi8> to memref<32x32xf32>
    %c90112 = arith.constant 90112 : index
    %view_8 = memref.view %arg12[%c90112][] : memref<?xi8> to memref<32x128xf32>
    %c106496 = arith.constant 106496 : index
    %view_9 = memref.view %arg12[%c106496][] : memref<?xi8> to memref<128x32xf32>
    %c122880 = arith.constant 122880 : index
    %view_10 = memref.view %arg12[%c122880][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg3, %c2 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>
    %dim_2 = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %15 = memref.dim %arg2, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %16 = memref.dim %arg2, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_3 = arith.muli %15, %16 : index
    %dim_4 = arith.divui %dim_3, %dim : index
    %dim_5 = arith.addi %dim_1, %dim_2 : index
    %dim_6 = arith.maxsi %dim, %dim : index
    %dim_7 = arith.maxsi %dim_2, %dim_2 : index
    %dim_8 = arith.maxsi %dim_5, %dim_5 : index
    %dim_9 = arith.muli %dim, %dim_2 : index
    %dim_10 = arith.constant 4 : index
    %dim_11 = arith.muli %dim_9, %c32 : index
    %17 = arith.muli %dim_9, %c8 : index
    %dim_12 = arith.divui %dim_11, %17 : index
    %dim_13 = memref.dim %arg8, %c0 : memref<?x4x?x8xf32>
    %dim_14 = memref.dim %arg8, %c2 : memref<?x4x?x8xf32>
    %18 = arith.muli %dim, %dim_10 : index
    %19 = arith.muli %18, %dim_2 : index
    %dim_15 = arith.muli %19, %c8 : index
    %dim_16 = arith.divui %dim_15, %17 : index
    %dim_17 = memref.dim %arg10, %c0 : memref<?x4x?x8xf32>
    %dim_18 = memref.dim %arg10, %c2 : memref<?x4x?x8xf32>
    %c1536 = arith.constant 1536 : index
    %20 = arith.muli %dim_9, %c1536 : index
    %c512 = arith.constant 512 : index
    %21 = arith.muli %dim_9, %c512 : index
    %22 = arith.addi %20, %21 : index
    %23 = arith.muli %dim, %dim_1 : index
    %c128 = arith.constant 128 : index
    %24 = arith.muli %23, %c128 : index
    %c255 = arith.constant 255 : index
    %25 = arith.addi %24, %c255 : index
    %c256 = arith.constant 256 : index
    %26 = arith.divui %25, %c256 : index
    %27 = arith.muli %26, %c256 : index
    %28 = arith.addi %22, %27 : index
    %29 = arith.muli %dim_9, %c128 : index
    %30 = arith.addi %29, %c255 : index
    %31 = arith.divui %30, %c256 : index
    %c1280 = arith.constant 1280 : index
    %32 = arith.muli %31, %c1280 : index
    %33 = arith.addi %28, %32 : index
    %34 = arith.muli %dim_2, %c8 : index
    %35 = arith.addi %34, %c255 : index
    %36 = arith.divui %35, %c256 : index
    %37 = arith.muli %36, %c512 : index
    %38 = arith.addi %33, %37 : index
    %39 = arith.muli %dim_2, %c128 : index
    %40 = arith.addi %39, %c255 : index
    %41 = arith.divui %40, %c256 : index
    %42 = arith.muli %41, %c256 : index
    %43 = arith.addi %38, %42 : index
    %44 = arith.muli %dim, %dim_4 : index
    %45 = arith.addi %44, %c255 : index
    %46 = arith.divui %45, %c256 : index
    %47 = arith.muli %46, %c256 : index
    %48 = arith.addi %43, %47 : index
    %49 = arith.muli %dim, %c8 : index
    %50 = arith.addi %49, %c255 : index
    %51 = arith.divui %50, %c256 : index
    %52 = arith.muli %51, %c512 : index
    %53 = arith.addi %48, %52 : index
    %54 = arith.muli %dim_5, %c8 : index
    %55 = arith.addi %54, %c255 : index
    %56 = arith.divui %55, %c256 : index
    %57 = arith.muli %56, %c256 : index
    %58 = arith.addi %53, %57 : index
    %59 = arith.muli %dim_2, %dim_5 : index
    %60 = arith.addi %59, %c255 : index
    %61 = arith.divui %60, %c256 : index
    %62 = arith.muli %61, %c512 : index
    %63 = arith.addi %58, %62 : index
    %64 = arith.muli %dim, %dim_5 : index
    %65 = arith.muli %64, %c8 : index
    %66 = arith.addi %65, %c255 : index
    %67 = arith.divui %66, %c256 : index
    %68 = arith.muli %67, %c256 : index
    %69 = arith.addi %63, %68 : index
    %70 = arith.addi %64, %c255 : index
    %71 = arith.divui %70, %c256 : index
    %72 = arith.muli %71, %c256 : index
    %73 = arith.addi %69, %72 : index
    %74 = arith.muli %dim_9, %dim_5 : index
    %75 = arith.addi %74, %c255 : index
    %76 = arith.divui %75, %c256 : index
    %77 = arith.muli %76, %c256 : index
    %78 = arith.addi %73, %77 : index
    %79 = arith.muli %dim_6, %dim_7 : index
    %80 = arith.muli %79, %dim_8 : index
    %81 = arith.addi %80, %c255 : index
    %82 = arith.divui %81, %c256 : index
    %83 = arith.muli %82, %c256 : index
    %84 = arith.addi %78, %83 : index
    %c384 = arith.constant 384 : index
    %85 = arith.muli %dim_9, %c384 : index
    %86 = arith.addi %85, %c255 : index
    %87 = arith.divui %86, %c256 : index
    %88 = arith.muli %87, %c256 : index
    %89 = arith.addi %84, %88 : index
    %90 = arith.muli %dim_9, %dim_10 : index
    %91 = arith.muli %90, %c32 : index
    %92 = arith.addi %91, %c255 : index
    %93 = arith.divui %92, %c256 : index
    %94 = arith.muli %93, %c512 : index
    %95 = arith.addi %89, %94 : index
    %96 = arith.muli %dim_9, %dim_12 : index
    %97 = arith.muli %96, %c32 : index
    %98 = arith.addi %97, %c255 : index
    %99 = arith.divui %98, %c256 : index
    %100 = arith.muli %99, %c256 : index
    %101 = arith.addi %95, %100 : index
    %102 = arith.muli %dim_13, %dim_14 : index
    %103 = arith.muli %102, %c128 : index
    %104 = arith.addi %103, %c255 : index
    %105 = arith.divui %104, %c256 : index
    %106 = arith.muli %105, %c512 : index
    %107 = arith.addi %101, %106 : index
    %108 = arith.muli %dim_9, %dim_14 : index
    %c16 = arith.constant 16 : index
    %109 = arith.muli %108, %c16 : index
    %110 = arith.addi %109, %c255 : index
    %111 = arith.divui %110, %c256 : index
    %112 = arith.muli %111, %c512 : index
    %113 = arith.addi %107, %112 : index
    %114 = arith.muli %80, %dim_10 : index
    %115 = arith.addi %114, %c255 : index
    %116 = arith.divui %115, %c256 : index
    %117 = arith.muli %116, %c256 : index
    %118 = arith.addi %113, %117 : index
    %119 = arith.muli %108, %dim_10 : index
    %120 = arith.addi %119, %c255 : index
    %121 = arith.divui %120, %c256 : index
    %122 = arith.muli %121, %c256 : index
    %123 = arith.addi %118, %122 : index
    %124 = arith.muli %dim_9, %dim_16 : index
    %125 = arith.muli %124, %c32 : index
    %126 = arith.addi %125, %c255 : index
    %127 = arith.divui %126, %c256 : index
    %128 = arith.muli %127, %c256 : index
    %129 = arith.addi %123, %128 : index
    %130 = arith.muli %31, %c256 : index
    %131 = arith.addi %129, %130 : index
    %132 = arith.muli %dim_17, %dim_18 : index
    %133 = arith.muli %132, %c128 : index
    %134 = arith.addi %133, %c255 : index
    %135 = arith.divui %134, %c256 : index
    %136 = arith.muli %135, %c512 : index
    %137 = arith.addi %131, %136 : index
    %138 = arith.muli %dim_9, %dim_18 : index
    %139 = arith.muli %138, %c16 : index
    %140 = arith.addi %139, %c255 : index
    %141 = arith.divui %140, %c256 : index
    %142 = arith.muli %141, %c512 : index
    %143 = arith.addi %137, %142 : index
    %144 = arith.muli %138, %dim_10 : index
    %145 = arith.addi %144, %c255 : index
    %146 = arith.divui %145, %c256 : index
    %147 = arith.muli %146, %c256 : index
    %148 = arith.addi %143, %147 : index
    %149 = arith.addi %148, %c512 : index
    %alloc = hip.alloc(%arg0, %149) : memref<?xi8>
    %150 = arith.addi %27, %130 : index
    %151 = arith.addi %150, %c256 : index
    %152 = arith.muli %36, %c256 : index
    %153 = arith.addi %150, %152 : index
    %154 = arith.addi %153, %c256 : index
    %155 = arith.addi %150, %37 : index
    %156 = arith.addi %155, %c256 : index
    %157 = arith.addi %155, %42 : index
    %158 = arith.addi %157, %c256 : index
    %159 = arith.muli %31, %c512 : index
    %160 = arith.addi %27, %159 : index
    %161 = arith.addi %160, %37 : index
    %162 = arith.addi %161, %42 : index
    %163 = arith.addi %162, %c256 : index
    %164 = arith.addi %162, %47 : index
    %165 = arith.addi %164, %c256 : index
    %166 = arith.muli %51, %c256 : index
    %167 = arith.addi %164, %166 : index
    %168 = arith.addi %167, %c256 : index
    %169 = arith.addi %167, %57 : index
    %170 = arith.addi %169, %c256 : index
    %171 = arith.muli %61, %c256 : index
    %172 = arith.addi %169, %171 : index
    %173 = arith.addi %172, %c256 : index
    %174 = arith.addi %169, %62 : index
    %175 = arith.addi %174, %c256 : index
    %176 = arith.addi %174, %c512 : index
    %177 = arith.addi %164, %52 : index
    %178 = arith.addi %177, %57 : index
    %179 = arith.addi %178, %62 : index
    %180 = arith.addi %179, %c512 : index
    %181 = arith.addi %179, %68 : index
    %182 = arith.addi %181, %c512 : index
    %183 = arith.addi %181, %72 : index
    %184 = arith.addi %183, %c512 : index
    %185 = arith.addi %183, %77 : index
    %186 = arith.addi %185, %c512 : index
    %187 = arith.addi %185, %83 : index
    %188 = arith.addi %187, %c512 : index
    %189 = arith.addi %187, %88 : index
    %190 = arith.addi %189, %c512 : index
    %c768 = arith.constant 768 : index
    %191 = arith.muli %31, %c768 : index
    %192 = arith.addi %27, %191 : index
    %193 = arith.addi %192, %37 : index
    %194 = arith.addi %193, %42 : index
    %195 = arith.addi %194, %47 : index
    %196 = arith.addi %195, %52 : index
    %197 = arith.addi %196, %57 : index
    %198 = arith.addi %197, %62 : index
    %199 = arith.addi %198, %68 : index
    %200 = arith.addi %199, %72 : index
    %201 = arith.addi %200, %77 : index
    %202 = arith.addi %201, %83 : index
    %203 = arith.addi %202, %88 : index
    %204 = arith.addi %203, %c512 : index
    %c1024 = arith.constant 1024 : index
    %205 = arith.muli %31, %c1024 : index
    %206 = arith.addi %27, %205 : index
    %207 = arith.addi %206, %37 : index
    %208 = arith.addi %207, %42 : index
    %209 = arith.addi %208, %47 : index
    %210 = arith.addi %209, %52 : index
    %211 = arith.addi %210, %57 : index
    %212 = arith.addi %211, %62 : index
    %213 = arith.addi %212, %68 : index
    %214 = arith.addi %213, %72 : index
    %215 = arith.addi %214, %77 : index
    %216 = arith.addi %215, %83 : index
    %217 = arith.addi %216, %88 : index
    %218 = arith.addi %217, %c512 : index
    %219 = arith.muli %93, %c256 : index
    %220 = arith.addi %217, %219 : index
    %221 = arith.addi %220, %c512 : index
    %222 = arith.addi %220, %100 : index
    %223 = arith.addi %222, %c512 : index
    %224 = arith.addi %217, %94 : index
    %225 = arith.addi %224, %100 : index
    %226 = arith.addi %225, %c512 : index
    %227 = arith.muli %105, %c256 : index
    %228 = arith.addi %225, %227 : index
    %229 = arith.addi %228, %c512 : index
    %230 = arith.addi %225, %106 : index
    %231 = arith.addi %230, %c512 : index
    %232 = arith.muli %111, %c256 : index
    %233 = arith.addi %230, %232 : index
    %234 = arith.addi %233, %c512 : index
    %235 = arith.addi %233, %117 : index
    %236 = arith.addi %235, %c512 : index
    %237 = arith.addi %230, %112 : index
    %238 = arith.addi %237, %117 : index
    %239 = arith.addi %238, %c512 : index
    %240 = arith.addi %238, %122 : index
    %241 = arith.addi %240, %c512 : index
    %242 = arith.addi %27, %32 : index
    %243 = arith.addi %242, %37 : index
    %244 = arith.addi %243, %42 : index
    %245 = arith.addi %244, %47 : index
    %246 = arith.addi %245, %52 : index
    %247 = arith.addi %246, %57 : index
    %248 = arith.addi %247, %62 : index
    %249 = arith.addi %248, %68 : index
    %250 = arith.addi %249, %72 : index
    %251 = arith.addi %250, %77 : index
    %252 = arith.addi %251, %83 : index
    %253 = arith.addi %252, %88 : index
    %254 = arith.addi %253, %94 : index
    %255 = arith.addi %254, %100 : index
    %256 = arith.addi %255, %106 : index
    %257 = arith.addi %256, %112 : index
    %258 = arith.addi %257, %117 : index
    %259 = arith.addi %258, %122 : index
    %260 = arith.addi %259, %c512 : index
    %261 = arith.addi %259, %128 : index
    %262 = arith.addi %261, %c512 : index
    %263 = arith.addi %261, %130 : index
    %264 = arith.addi %263, %c512 : index
    %265 = arith.addi %21, %27 : index
    %266 = arith.addi %265, %32 : index
    %267 = arith.addi %266, %37 : index
    %268 = arith.addi %267, %42 : index
    %269 = arith.addi %268, %47 : index
    %270 = arith.addi %269, %52 : index
    %271 = arith.addi %270, %57 : index
    %272 = arith.addi %271, %62 : index
    %273 = arith.addi %272, %68 : index
    %274 = arith.addi %273, %72 : index
    %275 = arith.addi %274, %77 : index
    %276 = arith.addi %275, %83 : index
    %277 = arith.addi %276, %88 : index
    %278 = arith.addi %277, %94 : index
    %279 = arith.addi %278, %100 : index
    %280 = arith.addi %279, %106 : index
    %281 = arith.addi %280, %112 : index
    %282 = arith.addi %281, %117 : index
    %283 = arith.addi %282, %122 : index
    %284 = arith.addi %283, %128 : index
    %285 = arith.addi %284, %130 : index
    %286 = arith.addi %285, %c512 : index
    %287 = arith.addi %21, %21 : index
    %288 = arith.addi %287, %27 : index
    %289 = arith.addi %288, %32 : index
    %290 = arith.addi %289, %37 : index
    %291 = arith.addi %290, %42 : index
    %292 = arith.addi %291, %47 : index
    %293 = arith.addi %292, %52 : index
    %294 = arith.addi %293, %57 : index
    %295 = arith.addi %294, %62 : index
    %296 = arith.addi %295, %68 : index
    %297 = arith.addi %296, %72 : index
    %298 = arith.addi %297, %77 : index
    %299 = arith.addi %298, %83 : index
    %300 = arith.addi %299, %88 : index
    %301 = arith.addi %300, %94 : index
    %302 = arith.addi %301, %100 : index
    %303 = arith.addi %302, %106 : index
    %304 = arith.addi %303, %112 : index
    %305 = arith.addi %304, %117 : index
    %306 = arith.addi %305, %122 : index
    %307 = arith.addi %306, %128 : index
    %308 = arith.addi %307, %130 : index
    %309 = arith.addi %308, %c512 : index
    %310 = arith.muli %dim_9, %c1024 : index
    %311 = arith.addi %310, %21 : index
    %312 = arith.addi %311, %27 : index
    %313 = arith.addi %312, %32 : index
    %314 = arith.addi %313, %37 : index
    %315 = arith.addi %314, %42 : index
    %316 = arith.addi %315, %47 : index
    %317 = arith.addi %316, %52 : index
    %318 = arith.addi %317, %57 : index
    %319 = arith.addi %318, %62 : index
    %320 = arith.addi %319, %68 : index
    %321 = arith.addi %320, %72 : index
    %322 = arith.addi %321, %77 : index
    %323 = arith.addi %322, %83 : index
    %324 = arith.addi %323, %88 : index
    %325 = arith.addi %324, %94 : index
    %326 = arith.addi %325, %100 : index
    %327 = arith.addi %326, %106 : index
    %328 = arith.addi %327, %112 : index
    %329 = arith.addi %328, %117 : index
    %330 = arith.addi %329, %122 : index
    %331 = arith.addi %330, %128 : index
    %332 = arith.addi %331, %130 : index
    %333 = arith.addi %332, %c512 : index
    %334 = arith.addi %131, %c512 : index
    %335 = arith.muli %135, %c256 : index
    %336 = arith.addi %131, %335 : index
    %337 = arith.addi %336, %c512 : index
    %338 = arith.addi %137, %c512 : index
    %339 = arith.muli %141, %c256 : index
    %340 = arith.addi %137, %339 : index
    %341 = arith.addi %340, %c512 : index
    %342 = arith.addi %143, %c512 : index
    %view_11 = memref.view %alloc[%c0][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.concat(%arg0) ins(%arg3 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>) outs(%view_11 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    %view_12 = memref.view %alloc[%27][%dim, %dim_2] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_12 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_13 = memref.view %alloc[%150][] : memref<?xi8> to memref<i64>
    hip.from_elements(%arg0, %dim_1) ins() outs(%view_13 : memref<i64>)
    %view_14 = memref.view %alloc[%151][%dim_2] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_14 : memref<?xi64>)
    %view_15 = memref.view %alloc[%154][%dim_2] : memref<?xi8> to memref<?xi64>
    hip.miopen.add(%arg0) ins(%view_14, %view_13 : memref<?xi64>, memref<i64>) outs(%view_15 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_15 [[0 : i64, 1 : i64]] output_shape [1, %dim_2] : memref<?xi64> into memref<1x?xi64>
    %view_16 = memref.view %alloc[%156][%dim_2] : memref<?xi8> to memref<1x?x32xf32>
    hip.gather(%arg0) ins(%view_1, %expand_shape : memref<64x32xf32>, memref<1x?xi64>) outs(%view_16 : memref<1x?x32xf32>) {axis = 0 : i64}
    %view_17 = memref.view %alloc[%158][%dim, %dim_2] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_12, %view_16 : memref<?x?x32xf32>, memref<1x?x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %arg2 [[0 : i64, 1 : i64]] : memref<?x?xi64, strided<[?, ?], offset: ?>> into memref<?xi64, strided<[?], offset: ?>>
    %expand_shape_1 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%dim, %dim_4] : memref<?xi64, strided<[?], offset: ?>> into memref<?x?xi64, strided<[?, ?], offset: ?>>
    %view_18 = memref.view %alloc[%163][%dim, %dim_4] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%expand_shape_1 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_18 : memref<?x?xi1>)
    hip.from_elements(%arg0, %dim_1) ins() outs(%view_13 : memref<i64>)
    %view_19 = memref.view %alloc[%165][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_19 : memref<?xi64>)
    hip.miopen.add(%arg0) ins(%view_14, %view_13 : memref<?xi64>, memref<i64>) outs(%view_15 : memref<?xi64>)
    %view_20 = memref.view %alloc[%168][%dim_5] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_20 : memref<?xi64>)
    %expand_shape_2 = memref.expand_shape %view_19 [[0 : i64, 1 : i64]] output_shape [%dim, 1] : memref<?xi64> into memref<?x1xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?x1xi64> into memref<?x1x1xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_2] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_6 = memref.expand_shape %expand_shape_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_2, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_7 = memref.expand_shape %view_20 [[0 : i64, 1 : i64]] output_shape [1, %dim_5] : memref<?xi64> into memref<1x?xi64>
    %expand_shape_8 = memref.expand_shape %expand_shape_7 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_5] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_9 = memref.expand_shape %expand_shape_8 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_5] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_21 = memref.view %alloc[%170][%dim_2, %dim_5] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_9, %expand_shape_6 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_21 : memref<1x1x?x?xi1>)
    %view_22 = memref.view %alloc[%173][%dim_2, %dim_5] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%8, %view_21 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_22 : memref<1x1x?x?xi1>)
    %view_23 = memref.view %alloc[%175][] : memref<?xi8> to memref<1xi64>
    hip.from_elements(%arg0, %dim_4) ins() outs(%view_23 : memref<1xi64>)
    %collapse_shape_1 = memref.collapse_shape %view_18 [[0 : i64, 1 : i64]] : memref<?x?xi1> into memref<?xi1>
    %expand_shape_10 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64]] output_shape [%44, 1] : memref<?xi1> into memref<?x1xi1>
    %view_24 = memref.view %alloc[%176][%dim] : memref<?xi8> to memref<?x1x1x1xi64>
    hip.miopen.mul(%arg0) ins(%expand_shape_4, %view_23 : memref<?x1x1x1xi64>, memref<1xi64>) outs(%view_24 : memref<?x1x1x1xi64>)
    %view_25 = memref.view %alloc[%180][%dim, %dim_5] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.add(%arg0) ins(%expand_shape_9, %view_24 : memref<1x1x1x?xi64>, memref<?x1x1x1xi64>) outs(%view_25 : memref<?x1x1x?xi64>)
    %view_26 = memref.view %alloc[%182][%dim, %dim_5] : memref<?xi8> to memref<?x1x1x?x1xi1>
    hip.gather(%arg0) ins(%expand_shape_10, %view_25 : memref<?x1xi1>, memref<?x1x1x?xi64>) outs(%view_26 : memref<?x1x1x?x1xi1>) {axis = 0 : i64}
    %collapse_shape_2 = memref.collapse_shape %view_26 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x1x1x?x1xi1> into memref<?xi1>
    %expand_shape_11 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 1, 1, %dim_5] : memref<?xi1> into memref<?x1x1x?xi1>
    %view_27 = memref.view %alloc[%184][%dim, %dim_2, %dim_5] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_22, %expand_shape_11 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_27 : memref<?x1x?x?xi1>)
    %view_28 = memref.view %alloc[%186][%dim_6, %c1, %dim_7, %dim_8] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.expand(%arg0) ins(%view_27 : memref<?x1x?x?xi1>) outs(%view_28 : memref<?x?x?x?xi1>)
    hip.miopen.layer_norm(%arg0) ins(%view_17, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_3 = memref.collapse_shape %view_12 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_29 = memref.view %alloc[%188][%dim_9] : memref<?xi8> to memref<?x96xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_3, %view_2, %12 : memref<?x32xf32>, memref<32x96xf32>, memref<96xf32>) outs(%view_29 : memref<?x96xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_29 [[0 : i64, 1 : i64]] : memref<?x96xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_2, 96] : memref<?xf32> into memref<?x?x96xf32>
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_12 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_30 = memref.view %alloc[%190][%dim, %dim_2] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_30 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_31 = memref.view %alloc[%204][%dim, %dim_2] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_31 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %expand_shape_13 = memref.expand_shape %view_30 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_2, 4, 8] : memref<?x?x32xf32> into memref<?x?x4x8xf32>
    %cast = memref.cast %expand_shape_13 : memref<?x?x4x8xf32> to memref<?x?x?x8xf32>
    %view_32 = memref.view %alloc[%218][%dim, %dim_10, %dim_2] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x?x8xf32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_31 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_14 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_2, %dim_12, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_33 = memref.view %alloc[%221][%dim, %dim_12, %dim_2] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_14 : memref<?x?x?x8xf32>) outs(%view_33 : memref<?x?x?x8xf32>)
    %expand_shape_15 = memref.expand_shape %view_12 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_2, 4, 8] : memref<?x?x32xf32> into memref<?x?x4x8xf32>
    %cast_1 = memref.cast %expand_shape_15 : memref<?x?x4x8xf32> to memref<?x?x?x8xf32>
    %view_34 = memref.view %alloc[%223][%dim, %dim_10, %dim_2] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x?x8xf32>) outs(%view_34 : memref<?x?x?x8xf32>)
    hip.concat(%arg0) ins(%view_11, %view_32 : memref<?x4x?x8xf32>, memref<?x?x?x8xf32>) outs(%arg8 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    hip.concat(%arg0) ins(%arg4, %view_33 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x8xf32>) outs(%arg9 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    %view_35 = memref.view %alloc[%226][%dim_13, %dim_14] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.transpose(%arg0, %c2, %c3) ins(%arg8 : memref<?x4x?x8xf32>) outs(%view_35 : memref<?x4x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_34, %7 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %view_36 = memref.view %alloc[%229][%dim_13, %dim_14] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_35, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_36 : memref<?x4x8x?xf32>)
    %view_37 = memref.view %alloc[%231][%dim, %dim_2, %dim_14] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_32, %view_36 : memref<?x?x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_37 : memref<?x4x?x?xf32>)
    %view_38 = memref.view %alloc[%234][%dim_6, %c1, %dim_7, %dim_8] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_28, %6, %5 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_38 : memref<?x?x?x?xf32>)
    %view_39 = memref.view %alloc[%236][%dim, %dim_2, %dim_14] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_37, %view_38 : memref<?x4x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_39 : memref<?x4x?x?xf32>) outs(%view_37 : memref<?x4x?x?xf32>)
    %view_40 = memref.view %alloc[%239][%dim, %dim_2, %dim_14] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_37 : memref<?x4x?x?xf32>) outs(%view_40 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_40, %6, %view_37 : memref<?x4x?x?xi1>, memref<1xf32>, memref<?x4x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    %view_41 = memref.view %alloc[%241][%dim, %dim_2] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_39, %arg9 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_41 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x4x?x8xf32> into memref<?xf32>
    %expand_shape_16 = memref.expand_shape %collapse_shape_6 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_16, %dim_2, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_42 = memref.view %alloc[%260][%dim, %dim_2, %dim_16] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_16 : memref<?x?x?x8xf32>) outs(%view_42 : memref<?x?x?x8xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_42 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?x?x?xf32>
    %collapse_shape_8 = memref.collapse_shape %collapse_shape_7 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x?xf32> into memref<?x?xf32>
    %view_43 = memref.view %alloc[%262][%dim_9] : memref<?xi8> to memref<?x32xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_3, %13 : memref<?x?xf32>, memref<32x32xf32>, memref<32xf32>) outs(%view_43 : memref<?x32xf32>)
    %collapse_shape_9 = memref.collapse_shape %view_43 [[0 : i64, 1 : i64]] : memref<?x32xf32> into memref<?xf32>
    %expand_shape_17 = memref.expand_shape %collapse_shape_9 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_2, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%expand_shape_17, %view_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_12 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_12, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_10 = memref.collapse_shape %view_17 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_44 = memref.view %alloc[%264][%dim_9] : memref<?xi8> to memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_4, %11 : memref<?x32xf32>, memref<32x128xf32>, memref<128xf32>) outs(%view_44 : memref<?x128xf32>)
    %collapse_shape_11 = memref.collapse_shape %view_44 [[0 : i64, 1 : i64]] : memref<?x128xf32> into memref<?xf32>
    %expand_shape_18 = memref.expand_shape %collapse_shape_11 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_2, 128] : memref<?xf32> into memref<?x?x128xf32>
    %view_45 = memref.view %alloc[%286][%dim, %dim_2] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_18, %4 : memref<?x?x128xf32>, memref<f32>) outs(%view_45 : memref<?x?x128xf32>)
    %view_46 = memref.view %alloc[%309][%dim, %dim_2] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.pow(%arg0) ins(%expand_shape_18, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    %view_47 = memref.view %alloc[%333][%dim, %dim_2] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%view_46, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_18, %view_47 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_46, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_47 : memref<?x?x128xf32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_46, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_45, %view_47 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_46 : memref<?x?x128xf32>)
    %collapse_shape_12 = memref.collapse_shape %view_46 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_12, %view_5, %13 : memref<?x128xf32>, memref<128x32xf32>, memref<32xf32>) outs(%view_43 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_12, %expand_shape_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_17, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_3, %view_6, %12 : memref<?x32xf32>, memref<32x96xf32>, memref<96xf32>) outs(%view_29 : memref<?x96xf32>)
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_12 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_31 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_30 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %expand_shape_19 = memref.expand_shape %view_31 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, %dim_2, 4, 8] : memref<?x?x32xf32> into memref<?x?x4x8xf32>
    %cast_2 = memref.cast %expand_shape_19 : memref<?x?x4x8xf32> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_2 : memref<?x?x?x8xf32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %collapse_shape_13 = memref.collapse_shape %view_30 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_20 = memref.expand_shape %collapse_shape_13 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_2, %dim_12, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_20 : memref<?x?x?x8xf32>) outs(%view_33 : memref<?x?x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x?x8xf32>) outs(%view_34 : memref<?x?x?x8xf32>)
    hip.concat(%arg0) ins(%arg5, %view_32 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x8xf32>) outs(%arg10 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    hip.concat(%arg0) ins(%arg6, %view_33 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x8xf32>) outs(%arg11 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    %view_48 = memref.view %alloc[%334][%dim_17, %dim_18] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.transpose(%arg0, %c2, %c3) ins(%arg10 : memref<?x4x?x8xf32>) outs(%view_48 : memref<?x4x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_34, %7 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %view_49 = memref.view %alloc[%337][%dim_17, %dim_18] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_48, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_49 : memref<?x4x8x?xf32>)
    %view_50 = memref.view %alloc[%338][%dim, %dim_2, %dim_18] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_32, %view_49 : memref<?x?x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_50 : memref<?x4x?x?xf32>)
    hip.miopen.where(%arg0) ins(%view_28, %6, %5 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_38 : memref<?x?x?x?xf32>)
    %view_51 = memref.view %alloc[%341][%dim, %dim_2, %dim_18] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_50, %view_38 : memref<?x4x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_51 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_51 : memref<?x4x?x?xf32>) outs(%view_50 : memref<?x4x?x?xf32>)
    %view_52 = memref.view %alloc[%342][%dim, %dim_2, %dim_18] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_50 : memref<?x4x?x?xf32>) outs(%view_52 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_52, %6, %view_50 : memref<?x4x?x?xi1>, memref<1xf32>, memref<?x4x?x?xf32>) outs(%view_51 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_51, %arg11 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_16 : memref<?x?x?x8xf32>) outs(%view_42 : memref<?x?x?x8xf32>)
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_7, %13 : memref<?x?xf32>, memref<32x32xf32>, memref<32xf32>) outs(%view_43 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_17, %view_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_12 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_12, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_8, %11 : memref<?x32xf32>, memref<32x128xf32>, memref<128xf32>) outs(%view_44 : memref<?x128xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_18, %4 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.pow(%arg0) ins(%expand_shape_18, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_45, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_18, %view_47 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_45, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_47 : memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_45, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_47 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_46, %view_47 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    %collapse_shape_14 = memref.collapse_shape %view_45 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_14, %view_9, %13 : memref<?x128xf32>, memref<128x32xf32>, memref<32xf32>) outs(%view_43 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_12, %expand_shape_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_17, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_15 = memref.collapse_shape %view_12 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %343 = arith.muli %dim_2, %c32 : index
    %344 = arith.divui %dim_11, %343 : index
    %expand_shape_21 = memref.expand_shape %collapse_shape_15 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%344, %dim_2, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_21, %view_10 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg7 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
