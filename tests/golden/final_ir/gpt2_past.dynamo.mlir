builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32_0 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_6 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_5 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_4 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<-3.40282347e+38> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<3.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<4.471500e-02> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.797884583> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg4: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg5: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg6: memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %arg7: memref<?x?x128xf32>, %arg8: memref<?x4x?x8xf32>, %arg9: memref<?x4x?x8xf32>, %arg10: memref<?x4x?x8xf32>, %arg11: memref<?x4x?x8xf32>, %arg12: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, 256 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xf32_2 : memref<f32>
    %4 = memref.get_global @__constant_xf32_3 : memref<f32>
    %5 = memref.get_global @__constant_xf32_4 : memref<f32>
    %6 = memref.get_global @__constant_xf32_5 : memref<f32>
    %7 = memref.get_global @__constant_xf32_6 : memref<f32>
    %8 = memref.get_global @__constant_xi1 : memref<i1>
    %9 = memref.get_global @__constant_xi64 : memref<i64>
    %10 = memref.get_global @__constant_xi64_0 : memref<i64>
    %11 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %12 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg12[%c0_1][] : memref<?xi8> to memref<64x32xf32>
    %c8192 = arith.constant 8192 : index
    %view_1 = memref.view %arg12[%c8192][] : memref<?xi8> to memref<32x96xf32>
    %c20480 = arith.constant 20480 : index
    %view_2 = memref.view %arg12[%c20480][] : memref<?xi8> to memref<32x32xf32>
    %c24576 = arith.constant 24576 : index
    %view_3 = memref.view %arg12[%c24576][] : memref<?xi8> to memref<32x128xf32>
    %c40960 = arith.constant 40960 : index
    %view_4 = memref.view %arg12[%c40960][] : memref<?xi8> to memref<128x32xf32>
    %c57344 = arith.constant 57344 : index
    %view_5 = memref.view %arg12[%c57344][] : memref<?xi8> to memref<32x96xf32>
    %c69632 = arith.constant 69632 : index
    %view_6 = memref.view %arg12[%c69632][] : memref<?xi8> to memref<32x32xf32>
    %c73728 = arith.constant 73728 : index
    %view_7 = memref.view %arg12[%c73728][] : memref<?xi8> to memref<32x128xf32>
    %c90112 = arith.constant 90112 : index
    %view_8 = memref.view %arg12[%c90112][] : memref<?xi8> to memref<128x32xf32>
    %c106496 = arith.constant 106496 : index
    %view_9 = memref.view %arg12[%c106496][] : memref<?xi8> to memref<128x32xf32>
    %c122880 = arith.constant 122880 : index
    %view_10 = memref.view %arg12[%c122880][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_2 = memref.dim %arg3, %c2 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>
    %13 = memref.dim %arg2, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %14 = memref.dim %arg2, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_3 = arith.muli %13, %14 : index
    %dim_4 = arith.divui %dim_3, %dim_1 : index
    %dim_5 = arith.addi %dim_2, %dim : index
    %dim_6 = arith.maxsi %dim_1, %dim_1 : index
    %dim_7 = arith.maxsi %dim_5, %dim_5 : index
    %dim_8 = arith.maxsi %dim_6, %dim_1 : index
    %dim_9 = arith.maxsi %dim, %dim : index
    %dim_10 = arith.muli %dim_1, %dim : index
    %dim_11 = memref.dim %arg8, %c0 : memref<?x4x?x8xf32>
    %15 = arith.constant 4 : index
    %dim_12 = arith.muli %dim_11, %15 : index
    %dim_13 = memref.dim %arg8, %c2 : memref<?x4x?x8xf32>
    %dim_14 = memref.dim %arg10, %c0 : memref<?x4x?x8xf32>
    %dim_15 = arith.muli %dim_14, %15 : index
    %dim_16 = memref.dim %arg10, %c2 : memref<?x4x?x8xf32>
    %c1536 = arith.constant 1536 : index
    %16 = arith.muli %dim_10, %c1536 : index
    %c512 = arith.constant 512 : index
    %17 = arith.muli %dim_10, %c512 : index
    %18 = arith.addi %16, %17 : index
    %c128 = arith.constant 128 : index
    %19 = arith.muli %dim_10, %c128 : index
    %c255 = arith.constant 255 : index
    %20 = arith.addi %19, %c255 : index
    %c256 = arith.constant 256 : index
    %21 = arith.divui %20, %c256 : index
    %c2048 = arith.constant 2048 : index
    %22 = arith.muli %21, %c2048 : index
    %23 = arith.addi %18, %22 : index
    %24 = arith.muli %dim, %c8 : index
    %25 = arith.addi %24, %c255 : index
    %26 = arith.divui %25, %c256 : index
    %27 = arith.muli %26, %c512 : index
    %28 = arith.addi %23, %27 : index
    %29 = arith.muli %dim, %c128 : index
    %30 = arith.addi %29, %c255 : index
    %31 = arith.divui %30, %c256 : index
    %32 = arith.muli %31, %c256 : index
    %33 = arith.addi %28, %32 : index
    %34 = arith.muli %dim_1, %dim_4 : index
    %35 = arith.addi %34, %c255 : index
    %36 = arith.divui %35, %c256 : index
    %37 = arith.muli %36, %c256 : index
    %38 = arith.addi %33, %37 : index
    %39 = arith.muli %dim_1, %c8 : index
    %40 = arith.addi %39, %c255 : index
    %41 = arith.divui %40, %c256 : index
    %42 = arith.muli %41, %c256 : index
    %43 = arith.addi %38, %42 : index
    %44 = arith.muli %dim_5, %c8 : index
    %45 = arith.addi %44, %c255 : index
    %46 = arith.divui %45, %c256 : index
    %47 = arith.muli %46, %c256 : index
    %48 = arith.addi %43, %47 : index
    %49 = arith.muli %dim, %dim_5 : index
    %50 = arith.addi %49, %c255 : index
    %51 = arith.divui %50, %c256 : index
    %52 = arith.muli %51, %c512 : index
    %53 = arith.addi %48, %52 : index
    %54 = arith.muli %dim_1, %dim_5 : index
    %55 = arith.muli %54, %c8 : index
    %56 = arith.addi %55, %c255 : index
    %57 = arith.divui %56, %c256 : index
    %58 = arith.muli %57, %c256 : index
    %59 = arith.addi %53, %58 : index
    %60 = arith.muli %dim_5, %dim_6 : index
    %61 = arith.muli %60, %c8 : index
    %62 = arith.addi %61, %c255 : index
    %63 = arith.divui %62, %c256 : index
    %64 = arith.muli %63, %c256 : index
    %65 = arith.addi %59, %64 : index
    %66 = arith.muli %dim_1, %dim_7 : index
    %67 = arith.muli %66, %c8 : index
    %68 = arith.addi %67, %c255 : index
    %69 = arith.divui %68, %c256 : index
    %70 = arith.muli %69, %c256 : index
    %71 = arith.addi %65, %70 : index
    %c16 = arith.constant 16 : index
    %72 = arith.muli %60, %c16 : index
    %73 = arith.addi %72, %c255 : index
    %74 = arith.divui %73, %c256 : index
    %75 = arith.muli %74, %c256 : index
    %76 = arith.addi %71, %75 : index
    %77 = arith.addi %60, %c255 : index
    %78 = arith.divui %77, %c256 : index
    %79 = arith.muli %78, %c256 : index
    %80 = arith.addi %76, %79 : index
    %81 = arith.muli %49, %dim_6 : index
    %82 = arith.addi %81, %c255 : index
    %83 = arith.divui %82, %c256 : index
    %84 = arith.muli %83, %c256 : index
    %85 = arith.addi %80, %84 : index
    %86 = arith.muli %dim_7, %dim_8 : index
    %87 = arith.muli %86, %dim_9 : index
    %88 = arith.addi %87, %c255 : index
    %89 = arith.divui %88, %c256 : index
    %90 = arith.muli %89, %c256 : index
    %91 = arith.addi %85, %90 : index
    %c384 = arith.constant 384 : index
    %92 = arith.muli %dim_10, %c384 : index
    %93 = arith.addi %92, %c255 : index
    %94 = arith.divui %93, %c256 : index
    %95 = arith.muli %94, %c256 : index
    %96 = arith.addi %91, %95 : index
    %97 = arith.muli %dim_12, %dim_13 : index
    %98 = arith.muli %97, %c32 : index
    %99 = arith.addi %98, %c255 : index
    %100 = arith.divui %99, %c256 : index
    %101 = arith.muli %100, %c256 : index
    %102 = arith.addi %96, %101 : index
    %103 = arith.muli %dim_13, %dim_11 : index
    %104 = arith.muli %103, %c128 : index
    %105 = arith.addi %104, %c255 : index
    %106 = arith.divui %105, %c256 : index
    %107 = arith.muli %106, %c256 : index
    %108 = arith.addi %102, %107 : index
    %109 = arith.muli %87, %15 : index
    %110 = arith.addi %109, %c255 : index
    %111 = arith.divui %110, %c256 : index
    %112 = arith.muli %111, %c256 : index
    %113 = arith.addi %108, %112 : index
    %114 = arith.muli %dim_10, %dim_13 : index
    %115 = arith.muli %114, %c16 : index
    %116 = arith.addi %115, %c255 : index
    %117 = arith.divui %116, %c256 : index
    %118 = arith.muli %117, %c512 : index
    %119 = arith.addi %113, %118 : index
    %120 = arith.muli %114, %15 : index
    %121 = arith.addi %120, %c255 : index
    %122 = arith.divui %121, %c256 : index
    %123 = arith.muli %122, %c256 : index
    %124 = arith.addi %119, %123 : index
    %125 = arith.muli %21, %c256 : index
    %126 = arith.addi %124, %125 : index
    %127 = arith.muli %dim_15, %dim_16 : index
    %128 = arith.muli %127, %c32 : index
    %129 = arith.addi %128, %c255 : index
    %130 = arith.divui %129, %c256 : index
    %131 = arith.muli %130, %c256 : index
    %132 = arith.addi %126, %131 : index
    %133 = arith.muli %dim_16, %dim_14 : index
    %134 = arith.muli %133, %c128 : index
    %135 = arith.addi %134, %c255 : index
    %136 = arith.divui %135, %c256 : index
    %137 = arith.muli %136, %c256 : index
    %138 = arith.addi %132, %137 : index
    %139 = arith.muli %dim_10, %dim_16 : index
    %140 = arith.muli %139, %c16 : index
    %141 = arith.addi %140, %c255 : index
    %142 = arith.divui %141, %c256 : index
    %143 = arith.muli %142, %c512 : index
    %144 = arith.addi %138, %143 : index
    %145 = arith.muli %139, %15 : index
    %146 = arith.addi %145, %c255 : index
    %147 = arith.divui %146, %c256 : index
    %148 = arith.muli %147, %c256 : index
    %149 = arith.addi %144, %148 : index
    %150 = arith.addi %149, %c256 : index
    %alloc = hip.alloc(%arg0, %150) : memref<?xi8>
    %151 = arith.addi %125, %c256 : index
    %152 = arith.muli %26, %c256 : index
    %153 = arith.addi %125, %152 : index
    %154 = arith.addi %153, %c256 : index
    %155 = arith.addi %125, %27 : index
    %156 = arith.addi %155, %c256 : index
    %157 = arith.addi %155, %32 : index
    %158 = arith.addi %157, %c256 : index
    %159 = arith.muli %21, %c512 : index
    %160 = arith.addi %159, %27 : index
    %161 = arith.addi %160, %32 : index
    %162 = arith.addi %161, %c256 : index
    %163 = arith.addi %161, %37 : index
    %164 = arith.addi %163, %c256 : index
    %165 = arith.addi %163, %42 : index
    %166 = arith.addi %165, %c256 : index
    %167 = arith.addi %165, %47 : index
    %168 = arith.addi %167, %c256 : index
    %169 = arith.muli %51, %c256 : index
    %170 = arith.addi %167, %169 : index
    %171 = arith.addi %170, %c256 : index
    %172 = arith.addi %167, %52 : index
    %173 = arith.addi %172, %c256 : index
    %174 = arith.addi %172, %58 : index
    %175 = arith.addi %174, %c256 : index
    %176 = arith.addi %174, %64 : index
    %177 = arith.addi %176, %c256 : index
    %178 = arith.addi %176, %70 : index
    %179 = arith.addi %178, %c256 : index
    %180 = arith.addi %178, %75 : index
    %181 = arith.addi %180, %c256 : index
    %182 = arith.addi %180, %79 : index
    %183 = arith.addi %182, %c256 : index
    %184 = arith.addi %182, %84 : index
    %185 = arith.addi %184, %c256 : index
    %186 = arith.addi %184, %90 : index
    %187 = arith.addi %186, %c256 : index
    %188 = arith.addi %186, %95 : index
    %189 = arith.addi %188, %c256 : index
    %c768 = arith.constant 768 : index
    %190 = arith.muli %21, %c768 : index
    %191 = arith.addi %190, %27 : index
    %192 = arith.addi %191, %32 : index
    %193 = arith.addi %192, %37 : index
    %194 = arith.addi %193, %42 : index
    %195 = arith.addi %194, %47 : index
    %196 = arith.addi %195, %52 : index
    %197 = arith.addi %196, %58 : index
    %198 = arith.addi %197, %64 : index
    %199 = arith.addi %198, %70 : index
    %200 = arith.addi %199, %75 : index
    %201 = arith.addi %200, %79 : index
    %202 = arith.addi %201, %84 : index
    %203 = arith.addi %202, %90 : index
    %204 = arith.addi %203, %95 : index
    %205 = arith.addi %204, %c256 : index
    %c1024 = arith.constant 1024 : index
    %206 = arith.muli %21, %c1024 : index
    %207 = arith.addi %206, %27 : index
    %208 = arith.addi %207, %32 : index
    %209 = arith.addi %208, %37 : index
    %210 = arith.addi %209, %42 : index
    %211 = arith.addi %210, %47 : index
    %212 = arith.addi %211, %52 : index
    %213 = arith.addi %212, %58 : index
    %214 = arith.addi %213, %64 : index
    %215 = arith.addi %214, %70 : index
    %216 = arith.addi %215, %75 : index
    %217 = arith.addi %216, %79 : index
    %218 = arith.addi %217, %84 : index
    %219 = arith.addi %218, %90 : index
    %220 = arith.addi %219, %95 : index
    %221 = arith.addi %220, %c256 : index
    %c1280 = arith.constant 1280 : index
    %222 = arith.muli %21, %c1280 : index
    %223 = arith.addi %222, %27 : index
    %224 = arith.addi %223, %32 : index
    %225 = arith.addi %224, %37 : index
    %226 = arith.addi %225, %42 : index
    %227 = arith.addi %226, %47 : index
    %228 = arith.addi %227, %52 : index
    %229 = arith.addi %228, %58 : index
    %230 = arith.addi %229, %64 : index
    %231 = arith.addi %230, %70 : index
    %232 = arith.addi %231, %75 : index
    %233 = arith.addi %232, %79 : index
    %234 = arith.addi %233, %84 : index
    %235 = arith.addi %234, %90 : index
    %236 = arith.addi %235, %95 : index
    %237 = arith.addi %236, %c256 : index
    %238 = arith.muli %21, %c1536 : index
    %239 = arith.addi %238, %27 : index
    %240 = arith.addi %239, %32 : index
    %241 = arith.addi %240, %37 : index
    %242 = arith.addi %241, %42 : index
    %243 = arith.addi %242, %47 : index
    %244 = arith.addi %243, %52 : index
    %245 = arith.addi %244, %58 : index
    %246 = arith.addi %245, %64 : index
    %247 = arith.addi %246, %70 : index
    %248 = arith.addi %247, %75 : index
    %249 = arith.addi %248, %79 : index
    %250 = arith.addi %249, %84 : index
    %251 = arith.addi %250, %90 : index
    %252 = arith.addi %251, %95 : index
    %253 = arith.addi %252, %c256 : index
    %c1792 = arith.constant 1792 : index
    %254 = arith.muli %21, %c1792 : index
    %255 = arith.addi %254, %27 : index
    %256 = arith.addi %255, %32 : index
    %257 = arith.addi %256, %37 : index
    %258 = arith.addi %257, %42 : index
    %259 = arith.addi %258, %47 : index
    %260 = arith.addi %259, %52 : index
    %261 = arith.addi %260, %58 : index
    %262 = arith.addi %261, %64 : index
    %263 = arith.addi %262, %70 : index
    %264 = arith.addi %263, %75 : index
    %265 = arith.addi %264, %79 : index
    %266 = arith.addi %265, %84 : index
    %267 = arith.addi %266, %90 : index
    %268 = arith.addi %267, %95 : index
    %269 = arith.addi %268, %c256 : index
    %270 = arith.addi %268, %101 : index
    %271 = arith.addi %270, %c256 : index
    %272 = arith.addi %270, %107 : index
    %273 = arith.addi %272, %c256 : index
    %274 = arith.addi %272, %112 : index
    %275 = arith.addi %274, %c256 : index
    %276 = arith.muli %117, %c256 : index
    %277 = arith.addi %274, %276 : index
    %278 = arith.addi %277, %c256 : index
    %279 = arith.addi %274, %118 : index
    %280 = arith.addi %279, %c256 : index
    %281 = arith.addi %279, %123 : index
    %282 = arith.addi %281, %c256 : index
    %283 = arith.addi %22, %27 : index
    %284 = arith.addi %283, %32 : index
    %285 = arith.addi %284, %37 : index
    %286 = arith.addi %285, %42 : index
    %287 = arith.addi %286, %47 : index
    %288 = arith.addi %287, %52 : index
    %289 = arith.addi %288, %58 : index
    %290 = arith.addi %289, %64 : index
    %291 = arith.addi %290, %70 : index
    %292 = arith.addi %291, %75 : index
    %293 = arith.addi %292, %79 : index
    %294 = arith.addi %293, %84 : index
    %295 = arith.addi %294, %90 : index
    %296 = arith.addi %295, %95 : index
    %297 = arith.addi %296, %101 : index
    %298 = arith.addi %297, %107 : index
    %299 = arith.addi %298, %112 : index
    %300 = arith.addi %299, %118 : index
    %301 = arith.addi %300, %123 : index
    %302 = arith.addi %301, %c256 : index
    %303 = arith.addi %301, %125 : index
    %304 = arith.addi %303, %c256 : index
    %305 = arith.addi %17, %22 : index
    %306 = arith.addi %305, %27 : index
    %307 = arith.addi %306, %32 : index
    %308 = arith.addi %307, %37 : index
    %309 = arith.addi %308, %42 : index
    %310 = arith.addi %309, %47 : index
    %311 = arith.addi %310, %52 : index
    %312 = arith.addi %311, %58 : index
    %313 = arith.addi %312, %64 : index
    %314 = arith.addi %313, %70 : index
    %315 = arith.addi %314, %75 : index
    %316 = arith.addi %315, %79 : index
    %317 = arith.addi %316, %84 : index
    %318 = arith.addi %317, %90 : index
    %319 = arith.addi %318, %95 : index
    %320 = arith.addi %319, %101 : index
    %321 = arith.addi %320, %107 : index
    %322 = arith.addi %321, %112 : index
    %323 = arith.addi %322, %118 : index
    %324 = arith.addi %323, %123 : index
    %325 = arith.addi %324, %125 : index
    %326 = arith.addi %325, %c256 : index
    %327 = arith.addi %17, %17 : index
    %328 = arith.addi %327, %22 : index
    %329 = arith.addi %328, %27 : index
    %330 = arith.addi %329, %32 : index
    %331 = arith.addi %330, %37 : index
    %332 = arith.addi %331, %42 : index
    %333 = arith.addi %332, %47 : index
    %334 = arith.addi %333, %52 : index
    %335 = arith.addi %334, %58 : index
    %336 = arith.addi %335, %64 : index
    %337 = arith.addi %336, %70 : index
    %338 = arith.addi %337, %75 : index
    %339 = arith.addi %338, %79 : index
    %340 = arith.addi %339, %84 : index
    %341 = arith.addi %340, %90 : index
    %342 = arith.addi %341, %95 : index
    %343 = arith.addi %342, %101 : index
    %344 = arith.addi %343, %107 : index
    %345 = arith.addi %344, %112 : index
    %346 = arith.addi %345, %118 : index
    %347 = arith.addi %346, %123 : index
    %348 = arith.addi %347, %125 : index
    %349 = arith.addi %348, %c256 : index
    %350 = arith.muli %dim_10, %c1024 : index
    %351 = arith.addi %350, %17 : index
    %352 = arith.addi %351, %22 : index
    %353 = arith.addi %352, %27 : index
    %354 = arith.addi %353, %32 : index
    %355 = arith.addi %354, %37 : index
    %356 = arith.addi %355, %42 : index
    %357 = arith.addi %356, %47 : index
    %358 = arith.addi %357, %52 : index
    %359 = arith.addi %358, %58 : index
    %360 = arith.addi %359, %64 : index
    %361 = arith.addi %360, %70 : index
    %362 = arith.addi %361, %75 : index
    %363 = arith.addi %362, %79 : index
    %364 = arith.addi %363, %84 : index
    %365 = arith.addi %364, %90 : index
    %366 = arith.addi %365, %95 : index
    %367 = arith.addi %366, %101 : index
    %368 = arith.addi %367, %107 : index
    %369 = arith.addi %368, %112 : index
    %370 = arith.addi %369, %118 : index
    %371 = arith.addi %370, %123 : index
    %372 = arith.addi %371, %125 : index
    %373 = arith.addi %372, %c256 : index
    %374 = arith.addi %126, %c256 : index
    %375 = arith.addi %132, %c256 : index
    %376 = arith.addi %138, %c256 : index
    %377 = arith.muli %142, %c256 : index
    %378 = arith.addi %138, %377 : index
    %379 = arith.addi %378, %c256 : index
    %380 = arith.addi %144, %c256 : index
    %view_11 = memref.view %alloc[%c0][] : memref<?xi8> to memref<i64>
    hip.from_elements(%arg0, %dim_2) ins() outs(%view_11 : memref<i64>)
    %view_12 = memref.view %alloc[%c256][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view_9, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_12 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_13 = memref.view %alloc[%151][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_13 : memref<?xi64>)
    %view_14 = memref.view %alloc[%154][%dim] : memref<?xi8> to memref<?xi64>
    hip.miopen.add(%arg0) ins(%view_13, %view_11 : memref<?xi64>, memref<i64>) outs(%view_14 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_14 [[0 : i64, 1 : i64]] output_shape [1, %dim] : memref<?xi64> into memref<1x?xi64>
    %view_15 = memref.view %alloc[%156][%dim] : memref<?xi8> to memref<1x?x32xf32>
    hip.gather(%arg0) ins(%view, %expand_shape : memref<64x32xf32>, memref<1x?xi64>) outs(%view_15 : memref<1x?x32xf32>) {axis = 0 : i64}
    %view_16 = memref.view %alloc[%158][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_12, %view_15 : memref<?x?x32xf32>, memref<1x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %arg2 [[0 : i64, 1 : i64]] : memref<?x?xi64, strided<[?, ?], offset: ?>> into memref<?xi64, strided<[?], offset: ?>>
    %expand_shape_1 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%dim_1, %dim_4] : memref<?xi64, strided<[?], offset: ?>> into memref<?x?xi64, strided<[?, ?], offset: ?>>
    %view_17 = memref.view %alloc[%162][%dim_1, %dim_4] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%expand_shape_1 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_17 : memref<?x?xi1>)
    %view_18 = memref.view %alloc[%164][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_18 : memref<?xi64>)
    %view_19 = memref.view %alloc[%166][%dim_5] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_19 : memref<?xi64>)
    %expand_shape_2 = memref.expand_shape %view_18 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, 1, 1] : memref<?xi64> into memref<?x1x1xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_1, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_4 = memref.expand_shape %view_14 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, %dim] : memref<?xi64> into memref<1x1x?xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_6 = memref.expand_shape %view_19 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, %dim_5] : memref<?xi64> into memref<1x1x?xi64>
    %expand_shape_7 = memref.expand_shape %expand_shape_6 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_5] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_20 = memref.view %alloc[%168][%dim, %dim_5] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_7, %expand_shape_5 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_20 : memref<1x1x?x?xi1>)
    %view_21 = memref.view %alloc[%171][%dim, %dim_5] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%8, %view_20 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_21 : memref<1x1x?x?xi1>)
    %view_22 = memref.view %alloc[%173][%dim_1, %dim_5] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.max(%arg0) ins(%expand_shape_3, %expand_shape_7 : memref<?x1x1x1xi64>, memref<1x1x1x?xi64>) outs(%view_22 : memref<?x1x1x?xi64>)
    %view_23 = memref.view %alloc[%175][%dim_6, %dim_5] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_3 : memref<?x1x1x1xi64>) outs(%view_23 : memref<?x1x1x?xi64>)
    %expand_shape_8 = memref.expand_shape %view_23 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim_6, 1, 1, %dim_5, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_24 = memref.view %alloc[%177][%dim_1, %dim_7] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_7 : memref<1x1x1x?xi64>) outs(%view_24 : memref<?x1x1x?xi64>)
    %expand_shape_9 = memref.expand_shape %view_24 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim_1, 1, 1, %dim_7, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_25 = memref.view %alloc[%179][%dim_6, %dim_5] : memref<?xi8> to memref<?x1x1x?x2xi64>
    hip.concat(%arg0) ins(%expand_shape_8, %expand_shape_9 : memref<?x1x1x?x1xi64>, memref<?x1x1x?x1xi64>) outs(%view_25 : memref<?x1x1x?x2xi64>) {axis = 4 : i64}
    %view_26 = memref.view %alloc[%181][%dim_6, %dim_5] : memref<?xi8> to memref<?x1x1x?xi1>
    hip.gather_nd(%arg0) ins(%view_17, %view_25 : memref<?x?xi1>, memref<?x1x1x?x2xi64>) outs(%view_26 : memref<?x1x1x?xi1>)
    %view_27 = memref.view %alloc[%183][%dim_6, %dim, %dim_5] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_21, %view_26 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_27 : memref<?x1x?x?xi1>)
    %view_28 = memref.view %alloc[%185][%dim_8, %dim_9, %dim_7] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.expand(%arg0) ins(%view_27 : memref<?x1x?x?xi1>) outs(%view_28 : memref<?x1x?x?xi1>)
    hip.miopen.layer_norm(%arg0) ins(%view_16, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_1 = memref.collapse_shape %view_12 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_29 = memref.view %alloc[%187][%dim_10] : memref<?xi8> to memref<?x96xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_1, %view_1 : memref<?x32xf32>, memref<32x96xf32>) outs(%view_29 : memref<?x96xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_29 [[0 : i64, 1 : i64]] : memref<?x96xf32> into memref<?xf32>
    %expand_shape_10 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 96] : memref<?xf32> into memref<?x?x96xf32>
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_12 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_30 = memref.view %alloc[%189][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_30 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_31 = memref.view %alloc[%205][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_31 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %collapse_shape_3 = memref.collapse_shape %view_30 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %dim_17 = arith.muli %dim_10, %c32 : index
    %381 = arith.muli %dim_10, %c8 : index
    %382 = arith.divui %dim_17, %381 : index
    %expand_shape_11 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim, %382, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast = memref.cast %expand_shape_11 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_32 = memref.view %alloc[%221][%dim_1, %dim] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_32 : memref<?x4x?x8xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_31 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim, %382, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_1 = memref.cast %expand_shape_12 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_33 = memref.view %alloc[%237][%dim_1, %dim] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x4x8xf32>) outs(%view_33 : memref<?x4x?x8xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_12 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_13 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim, %382, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_2 = memref.cast %expand_shape_13 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_34 = memref.view %alloc[%253][%dim_1, %dim] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_2 : memref<?x?x4x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    hip.concat(%arg0) ins(%arg3, %view_32 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x4x?x8xf32>) outs(%arg8 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    hip.concat(%arg0) ins(%arg4, %view_33 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x4x?x8xf32>) outs(%arg9 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    %collapse_shape_6 = memref.collapse_shape %arg8 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    %view_35 = memref.view %alloc[%269][%dim_12, %dim_13] : memref<?xi8> to memref<?x8x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_6 : memref<?x?x8xf32>) outs(%view_35 : memref<?x8x?xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_35 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x8x?xf32> into memref<?xf32>
    %expand_shape_14 = memref.expand_shape %collapse_shape_7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_11, 4, 8, %dim_13] : memref<?xf32> into memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_34, %7 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_33 : memref<?x4x?x8xf32>)
    %view_36 = memref.view %alloc[%271][%dim_11, %dim_13] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_14, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_36 : memref<?x4x8x?xf32>)
    %view_37 = memref.view %alloc[%273][%dim_8, %dim_9, %dim_7] : memref<?xi8> to memref<?x1x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_28, %5, %4 : memref<?x1x?x?xi1>, memref<f32>, memref<f32>) outs(%view_37 : memref<?x1x?x?xf32>)
    %view_38 = memref.view %alloc[%275][%dim_1, %dim, %dim_13] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_33, %view_36 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_38 : memref<?x4x?x?xf32>)
    %view_39 = memref.view %alloc[%278][%dim_1, %dim, %dim_13] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_38, %view_37 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_39 : memref<?x4x?x?xf32>) outs(%view_38 : memref<?x4x?x?xf32>)
    %view_40 = memref.view %alloc[%280][%dim_1, %dim, %dim_13] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_38 : memref<?x4x?x?xf32>) outs(%view_40 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_40, %5, %view_38 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_39, %arg9 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_33 : memref<?x4x?x8xf32>)
    %view_41 = memref.view %alloc[%282][%dim_1, %dim] : memref<?xi8> to memref<?x?x4x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%view_33 : memref<?x4x?x8xf32>) outs(%view_41 : memref<?x?x4x8xf32>)
    %collapse_shape_8 = memref.collapse_shape %view_41 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<?x?x4x8xf32> into memref<?x32xf32>
    %view_42 = memref.view %alloc[%302][%dim_10] : memref<?xi8> to memref<?x32xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_2 : memref<?x32xf32>, memref<32x32xf32>) outs(%view_42 : memref<?x32xf32>)
    %collapse_shape_9 = memref.collapse_shape %view_42 [[0 : i64, 1 : i64]] : memref<?x32xf32> into memref<?xf32>
    %expand_shape_15 = memref.expand_shape %collapse_shape_9 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%expand_shape_15, %view_16 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_12 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_12, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_16 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_10 = memref.collapse_shape %view_16 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_43 = memref.view %alloc[%304][%dim_10] : memref<?xi8> to memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_3 : memref<?x32xf32>, memref<32x128xf32>) outs(%view_43 : memref<?x128xf32>)
    %collapse_shape_11 = memref.collapse_shape %view_43 [[0 : i64, 1 : i64]] : memref<?x128xf32> into memref<?xf32>
    %expand_shape_16 = memref.expand_shape %collapse_shape_11 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 128] : memref<?xf32> into memref<?x?x128xf32>
    %view_44 = memref.view %alloc[%326][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_16, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_44 : memref<?x?x128xf32>)
    %view_45 = memref.view %alloc[%349][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.pow(%arg0) ins(%expand_shape_16, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_45 : memref<?x?x128xf32>)
    %view_46 = memref.view %alloc[%373][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%view_45, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_16, %view_46 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_45, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_46 : memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_45, %6 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_44, %view_46 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_45 : memref<?x?x128xf32>)
    %collapse_shape_12 = memref.collapse_shape %view_45 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_12, %view_4 : memref<?x128xf32>, memref<128x32xf32>) outs(%view_42 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_12, %expand_shape_15 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_16, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_1, %view_5 : memref<?x32xf32>, memref<32x96xf32>) outs(%view_29 : memref<?x96xf32>)
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_12 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_31 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_10 : memref<?x?x96xf32>) outs(%view_30 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x4x8xf32>) outs(%view_33 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_2 : memref<?x?x4x8xf32>) outs(%view_32 : memref<?x4x?x8xf32>)
    hip.concat(%arg0) ins(%arg5, %view_33 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x4x?x8xf32>) outs(%arg10 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    hip.concat(%arg0) ins(%arg6, %view_34 : memref<?x4x?x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x4x?x8xf32>) outs(%arg11 : memref<?x4x?x8xf32>) {axis = 2 : i64}
    %collapse_shape_13 = memref.collapse_shape %arg10 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    %view_47 = memref.view %alloc[%374][%dim_15, %dim_16] : memref<?xi8> to memref<?x8x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_13 : memref<?x?x8xf32>) outs(%view_47 : memref<?x8x?xf32>)
    %collapse_shape_14 = memref.collapse_shape %view_47 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x8x?xf32> into memref<?xf32>
    %expand_shape_17 = memref.expand_shape %collapse_shape_14 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_14, 4, 8, %dim_16] : memref<?xf32> into memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_32, %7 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_34 : memref<?x4x?x8xf32>)
    %view_48 = memref.view %alloc[%375][%dim_14, %dim_16] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_17, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_48 : memref<?x4x8x?xf32>)
    %view_49 = memref.view %alloc[%376][%dim_1, %dim, %dim_16] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_34, %view_48 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_49 : memref<?x4x?x?xf32>)
    %view_50 = memref.view %alloc[%379][%dim_1, %dim, %dim_16] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_49, %view_37 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_50 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_50 : memref<?x4x?x?xf32>) outs(%view_49 : memref<?x4x?x?xf32>)
    %view_51 = memref.view %alloc[%380][%dim_1, %dim, %dim_16] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_49 : memref<?x4x?x?xf32>) outs(%view_51 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_51, %5, %view_49 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_50 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_50, %arg11 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%view_34 : memref<?x4x?x8xf32>) outs(%view_41 : memref<?x?x4x8xf32>)
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_6 : memref<?x32xf32>, memref<32x32xf32>) outs(%view_42 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_15, %view_16 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_12 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_12, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_16 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_7 : memref<?x32xf32>, memref<32x128xf32>) outs(%view_43 : memref<?x128xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_16, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_45 : memref<?x?x128xf32>)
    hip.miopen.pow(%arg0) ins(%expand_shape_16, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_44 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_44, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_16, %view_46 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_44 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_44, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_46 : memref<?x?x128xf32>) outs(%view_44 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_44, %6 : memref<?x?x128xf32>, memref<f32>) outs(%view_46 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_45, %view_46 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_44 : memref<?x?x128xf32>)
    %collapse_shape_15 = memref.collapse_shape %view_44 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_15, %view_8 : memref<?x128xf32>, memref<128x32xf32>) outs(%view_42 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_12, %expand_shape_15 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_16, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_12 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %383 = arith.muli %dim, %c32 : index
    %384 = arith.divui %dim_17, %383 : index
    %expand_shape_18 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%384, %dim, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_18, %view_10 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg7 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
