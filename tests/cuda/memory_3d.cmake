# Bad arguments to the 3-D memory calls (`cuda_memory_3d bad`): CUDA's error code, which the
# program prints, and simt's line saying why, with the call's file:line.
simt_robustness_test("cudaMemcpy3D and cudaMemset3D with an extent past the allocation return cudaErrorInvalidValue and name the caller's line"
  PROGRAM cuda_memory_3d ARGS bad STATUS 0
  EXPECT "simt: cudaMemcpy3D at memory_3d.cu:135: 9 slices of 16 rows of 400 bytes \\(rows 512 bytes apart, 73616 bytes from the first to the last\\) from byte 0 of the destination run 8080 bytes past the end of its allocation of 65536 bytes made at memory_3d.cu:128\ncudaMemcpy3D\\(&past_end\\): cudaErrorInvalidValue\n.*simt: cudaMemset3D at memory_3d.cu:144: 9 slices [^\n]* run 8080 bytes past the end of its allocation of 65536 bytes made at memory_3d.cu:128\ncudaMemset3D\\([^\n]*\\): cudaErrorInvalidValue\n")
simt_robustness_test("cudaMemcpy3D with a pitch below the row's width is cudaErrorInvalidPitchValue, and with a row past the pitch cudaErrorInvalidValue"
  PROGRAM cuda_memory_3d ARGS bad STATUS 0
  EXPECT "simt: cudaMemcpy3D at memory_3d.cu:139: the width is larger than a pitch: rows of 400 bytes, and the source's pitch [^\n]* is 100 \\(cudaErrorInvalidPitchValue\\)\ncudaMemcpy3D\\(&narrow_pitch\\): cudaErrorInvalidPitchValue\nsimt: cudaMemcpy3D at memory_3d.cu:143: the destination's rows are 512 bytes \\(its pitch\\), and 400 bytes from x = 504 run past a row's end \\(cudaErrorInvalidValue\\)\ncudaMemcpy3D\\(&past_row\\): cudaErrorInvalidValue\n")
simt_robustness_test("cudaMalloc3D with a null cudaPitchedPtr pointer is cudaErrorInvalidValue"
  PROGRAM cuda_memory_3d ARGS bad STATUS 0
  EXPECT "simt: cudaMalloc3D at memory_3d.cu:145: the pointer to store the cudaPitchedPtr in is null\ncudaMalloc3D\\(nullptr, extent\\): cudaErrorInvalidValue\n")
