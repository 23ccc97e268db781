# Reports read as the program reads: arrays by the names the program gave them.
if(NOT SIMT_SANITIZE)
  simt_add_executable(reports_two_mallocs_one_line SOURCES reports/two_mallocs_one_line.cu)
  simt_robustness_test("Of two cudaMallocs on one line, a report names the one whose array was read past"
    PROGRAM reports_two_mallocs_one_line STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_src'\\[32\\] \\(float, 32 elements, allocated at two_mallocs_one_line.cu:11\\)\n  read by thread \\(31,0,0\\) block \\(0,0,0\\) at two_mallocs_one_line.cu:6")
endif()
if(NOT SIMT_SANITIZE)
  simt_add_executable(reports_void_cast_malloc SOURCES reports/void_cast_malloc.cu)
  simt_robustness_test("An array allocated with cudaMalloc((void**)&d_x, ...) is counted in its own type in reports"
    PROGRAM reports_void_cast_malloc STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_x'\\[1000\\] \\(float, 1000 elements, allocated at void_cast_malloc.cu:13\\)\n  read by thread \\(232,0,0\\) block \\(3,0,0\\) at void_cast_malloc.cu:7")
endif()
