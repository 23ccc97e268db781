# Reports read as the program reads: arrays by the names the program gave them.
if(NOT SIMT_SANITIZE)
  simt_add_executable(reports_two_mallocs_one_line SOURCES reports/two_mallocs_one_line.cu)
  simt_robustness_test("Of two cudaMallocs on one line, a report names the one whose array was read past"
    PROGRAM reports_two_mallocs_one_line STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_src'\\[32\\] \\(float, 32 elements, allocated at two_mallocs_one_line.cu:11\\)[^\n]*\n  read by thread \\(31,0,0\\) block \\(0,0,0\\) at two_mallocs_one_line.cu:6")
endif()
if(NOT SIMT_SANITIZE)
  simt_add_executable(reports_void_cast_malloc SOURCES reports/void_cast_malloc.cu)
  simt_robustness_test("An array allocated with cudaMalloc((void**)&d_x, ...) is counted in its own type in reports"
    PROGRAM reports_void_cast_malloc STATUS 0
    EXPECT "simt: out-of-bounds read of global memory 'd_x'\\[1000\\] \\(float, 1000 elements, allocated at void_cast_malloc.cu:13\\)[^\n]*\n  read by thread \\(232,0,0\\) block \\(3,0,0\\) at void_cast_malloc.cu:7")
endif()

# An allocation has one name in every report: the variable the program gave cudaMalloc, wherever
# that call is (a helper function, an error-check macro, a loop, cudaMallocManaged), in a race as
# in an out-of-bounds access through a raw pointer.
if(NOT SIMT_SANITIZE)
  simt_add_executable(reports_name_through_helper SOURCES reports/name_through_helper.cu)
  simt_robustness_test("An array allocated by a helper's cudaMalloc(p, ...) is named p in a race and in an out-of-bounds read alike"
    PROGRAM reports_name_through_helper STATUS 0
    EXPECT "simt: data race \\(write after write\\) on global memory 'p'\\[0\\] \\(float, 64 elements, allocated at name_through_helper.cu:9\\)[^\n]*\n  write by thread \\(1,0,0\\) block \\(0,0,0\\) at name_through_helper.cu:14\n.*simt: out-of-bounds read of global memory 'p'\\[64\\] \\(float, 64 elements, allocated at name_through_helper.cu:9\\)[^\n]*\n  read by thread \\(63,0,0\\) block \\(0,0,0\\) at name_through_helper.cu:19")
  simt_add_executable(reports_name_in_macro_and_loop SOURCES reports/name_in_macro_and_loop.cu)
  foreach(case IN ITEMS "macro|d_C|25|inside CHECK(cudaMalloc(&d_C, ...)) is named d_C"
                        "loop|d_buf\\[k\\]|27|in a loop, cudaMalloc(&d_buf[k], ...), is named d_buf[k]"
                        "managed|counts|29|by cudaMallocManaged(&counts, ...) is named counts"
                        "split|d_split|31|by a cudaMalloc call over three lines, its variable on the second, is named d_split")
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 how)
    list(GET case 1 name)
    list(GET case 2 line)
    list(GET case 3 said)
    simt_robustness_test("An array allocated ${said} in a race and in an out-of-bounds write alike"
      PROGRAM reports_name_in_macro_and_loop ARGS ${how} STATUS 0
      EXPECT "simt: data race \\(read after write\\) on global memory '${name}'\\[0\\] \\(int, 32 elements, allocated at name_in_macro_and_loop.cu:${line}\\)[^\n]*\n  read by thread \\(1,0,0\\) block \\(0,0,0\\) at name_in_macro_and_loop.cu:12\n.*simt: out-of-bounds write of global memory '${name}'\\[32\\] \\(int, 32 elements, allocated at name_in_macro_and_loop.cu:${line}\\)[^\n]*\n  write by thread \\(32,0,0\\) block \\(0,0,0\\) at name_in_macro_and_loop.cu:17")
  endforeach()

  # Runs PROGRAM with SIMT_REPORT=json: its output must match EXPECT and its JSON report REPORT.
  function(simt_report_test name)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PROGRAM;EXPECT;REPORT" "")
    add_test(NAME "${name}"
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${ARG_PROGRAM}> -DSTATUS=0 -DSECONDS=20
              -DREPORT_FILE=${CMAKE_CURRENT_BINARY_DIR}/${ARG_PROGRAM}.json
              "-DEXPECT=${ARG_EXPECT}" "-DREPORT=${ARG_REPORT}"
              -P ${CMAKE_CURRENT_SOURCE_DIR}/faults/expect_report.cmake)
  endfunction()

  # Dynamic shared memory is counted in the type of the access, with the byte offset beside it.
  simt_add_executable(reports_dynamic_shared_index SOURCES reports/dynamic_shared_index.cu)
  simt_report_test("Dynamic shared memory is indexed in the access's own type, with its byte offset, in the text and the JSON report"
    PROGRAM reports_dynamic_shared_index
    EXPECT "simt: out-of-bounds read of shared memory '[^']*'\\[36\\], byte offset 144 \\(dynamic shared memory, 144 bytes given at the launch\\)\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at dynamic_shared_index.cu:13\n[^\n]*valid indices are 0..35:.*simt: data race \\([a-z ]*\\) on shared memory '[^']*'\\[5\\], byte offset 20 \\(dynamic shared memory, 144 bytes"
    REPORT "\"kind\":\"out-of-bounds\",\"space\":\"shared\",\"array\":\"[^\"]*\",\"index\":\"36\",\"byte_offset\":144,\"extent\":\"36\".*\"kind\":\"data-race\"[^\n]*\"index\":\"5\",\"byte_offset\":20")

  # The JSON report is ASCII: a name in UTF-8 is escaped, as any JSON reader takes it.
  simt_add_executable(reports_utf8_name SOURCES reports/utf8_name.cu)
  simt_report_test("An array named in UTF-8 keeps its name in the text and is escaped in the JSON report"
    PROGRAM reports_utf8_name
    EXPECT "simt: out-of-bounds write of global memory 'd_größe'\\[32\\] \\(float, 32 elements, allocated at utf8_name.cu:15\\)"
    REPORT "\"array\":\"d_gr\\\\u00f6\\\\u00dfe\",\"index\":\"32\"")
endif()
