# SIMT_PROFILE: Nsight Compute's memory and divergence counters, rebuilt warp by warp. Each
# program is written as a course writes CUDA; its counts are worked out by hand in its .expect
# file (check_profile.cmake reads the JSON it writes).
function(simt_profile_counts_test program what)
  add_test(NAME "SIMT_PROFILE counts the sectors, wavefronts, bank conflicts and lanes of ${what} as worked out by hand"
    COMMAND ${CMAKE_COMMAND} "-DPROGRAM=$<TARGET_FILE:profile_${program}>"
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/profile/${program}.cu
            -DEXPECT=${CMAKE_CURRENT_SOURCE_DIR}/profile/${program}.expect
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/profile_${program}.jsonl
            -P ${CMAKE_CURRENT_SOURCE_DIR}/profile/check_profile.cmake)
endfunction()
simt_add_executable(profile_view_patterns SOURCES profile/view_patterns.cu SIMULATOR_ONLY)
simt_profile_counts_test(view_patterns "span, mdspan and shared views")
simt_robustness_test("SIMT_PROFILE with checks on reports a race and the counters in one run"
  PROGRAM profile_view_patterns ARGS race ENV SIMT_PROFILE=text STATUS 0
  EXPECT "data race.*simt profile: kernel ")
simt_robustness_test("SIMT_PROFILE predicts each kernel's time on the simulated GPU and names its bound"
  PROGRAM profile_view_patterns ENV SIMT_PROFILE=text STATUS 0
  EXPECT "time: predicted on A100: [0-9.]+ (ns|µs) \\((DRAM|L2|shared memory|compute|latency|launch)-bound: ")
simt_robustness_test("SIMT_DEVICE=T4 predicts the time on a T4"
  PROGRAM profile_view_patterns ENV SIMT_PROFILE=text SIMT_DEVICE=T4 STATUS 0
  EXPECT "time: predicted on T4: ")
simt_add_executable(profile_access_patterns_unchecked SOURCES profile/access_patterns.cu SIMULATOR_ONLY UNCHECKED)
simt_robustness_test("SIMT_PROFILE says once that a program built UNCHECKED is not counted"
  PROGRAM profile_access_patterns_unchecked ENV SIMT_PROFILE=text STATUS 0
  EXPECT "^threads counted: 64\nsimt: SIMT_PROFILE: part of this program was built UNCHECKED")
simt_robustness_test("The bad setting SIMT_PROFILE=html stops the program at once with status 2"
  PROGRAM profile_view_patterns ENV SIMT_PROFILE=html STATUS 2
  EXPECT "simt: SIMT_PROFILE=html: expected off, text, json:PATH or text,json:PATH")

# Raw pointers and plain __shared__ arrays: counted through the raw-access instrumentation,
# which AddressSanitizer builds do not have.
if(SIMT_SANITIZE)
  return()
endif()
simt_add_executable(profile_access_patterns SOURCES profile/access_patterns.cu SIMULATOR_ONLY)
simt_profile_counts_test(access_patterns "raw pointers and __shared__ arrays")
simt_add_executable(profile_atomics SOURCES profile/atomics.cu SIMULATOR_ONLY)
add_test(NAME "SIMT_PROFILE counts one request per warp and atomic call, under _op_red when its result is dropped and _op_atom when it is used"
  COMMAND ${CMAKE_COMMAND} "-DPROGRAM=$<TARGET_FILE:profile_atomics>"
          -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/profile/atomics.cu
          -DEXPECT=${CMAKE_CURRENT_SOURCE_DIR}/profile/atomics.expect
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/profile_atomics.jsonl
          -P ${CMAKE_CURRENT_SOURCE_DIR}/profile/check_profile.cmake)
# The time model's count of arithmetic (docs/profiling.md, "Predicted time"), through each route
# a program reaches it by: every line's with LINEINFO, simt-nvcc -lineinfo and `./lab run` under
# SIMT_PROFILE; only the lines that access memory without them.
simt_add_executable(profile_arithmetic SOURCES profile/arithmetic.cu SIMULATOR_ONLY LINEINFO)
simt_add_executable(profile_arithmetic_memory_lines SOURCES profile/arithmetic.cu SIMULATOR_ONLY)
function(simt_arithmetic_test what expect)
  string(MD5 id "${what}")  # each its own output: ctest runs them side by side
  add_test(NAME "${what}"
    COMMAND ${CMAKE_COMMAND} ${ARGN}
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/profile/arithmetic.cu
            -DEXPECT=${CMAKE_CURRENT_SOURCE_DIR}/profile/${expect}
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/profile_arithmetic_${id}.jsonl
            -P ${CMAKE_CURRENT_SOURCE_DIR}/profile/check_profile.cmake)
endfunction()
simt_arithmetic_test("A program built with LINEINFO counts the arithmetic of lines that touch no memory, a register loop's every run"
  arithmetic.expect "-DPROGRAM=$<TARGET_FILE:profile_arithmetic>")
simt_arithmetic_test("A program built without LINEINFO counts the arithmetic of the lines that access memory only"
  arithmetic_memory_lines.expect "-DPROGRAM=$<TARGET_FILE:profile_arithmetic_memory_lines>")
simt_arithmetic_test("simt-nvcc -lineinfo counts the arithmetic of every line for SIMT_PROFILE"
  arithmetic.expect -DNVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc -DNVCC_FLAGS=-lineinfo)
if(PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
  simt_arithmetic_test("./lab run of a file under SIMT_PROFILE builds it to count the arithmetic of every line"
    arithmetic.expect -DLAB=${PROJECT_SOURCE_DIR}/lab)
  set_tests_properties("./lab run of a file under SIMT_PROFILE builds it to count the arithmetic of every line"
    PROPERTIES RESOURCE_LOCK simt_build_tree)
endif()
simt_robustness_test("SIMT_PROFILE=text says that a program built without LINEINFO has only its memory lines' arithmetic counted, and how to count every line"
  PROGRAM profile_arithmetic_memory_lines ENV SIMT_PROFILE=text STATUS 0
  EXPECT "simt: SIMT_PROFILE: the compute term counts the arithmetic of lines that access memory only; build with -lineinfo")

# The line of access_patterns.cu marked `// @MARK`, for the text reports' expectations.
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/profile/access_patterns.cu simt_profile_source)
function(simt_profile_line mark result)
  string(FIND "${simt_profile_source}" "// @${mark}\n" at)
  string(SUBSTRING "${simt_profile_source}" 0 ${at} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines n)
  math(EXPR n "${n} + 1")
  set(${result} ${n} PARENT_SCOPE)
endfunction()
simt_profile_line(strided-load strided_load)
simt_profile_line(stride32 stride32)
simt_profile_line(column-read column_read)
simt_profile_line(even-store even_store)
simt_robustness_test("SIMT_PROFILE=text names a column read's line with its sectors, its ideal and why"
  PROGRAM profile_access_patterns ENV SIMT_PROFILE=text STATUS 0
  EXPECT "simt profile: kernel copy_strided launched at access_patterns.cu:${stride32}: 1 launch, grid \\(1,1,1\\) x block \\(32,1,1\\)\n[^\n]*\n  global load +1 +32 +4 +32 \\(ideal 4\\)\n.*worst lines:\n    access_patterns.cu:${strided_load} load: 32 sectors per request, ideal 4 \\(each lane in its own sector: lanes are 128 bytes apart")
simt_robustness_test("SIMT_PROFILE=text shows a 32-way bank conflict of a column read of a shared tile"
  PROGRAM profile_access_patterns ENV SIMT_PROFILE=text STATUS 0
  EXPECT "kernel transpose_tile launched at access_patterns.cu:[0-9]+: 1 launch.*  shared load +32 +1024 +32 +992\n.*access_patterns.cu:${column_read} shared load: 32 wavefronts per request, ideal 1 \\(lanes are 128 bytes apart: all in one bank")
simt_robustness_test("SIMT_PROFILE=text names each branch of an if/else with its partial mask"
  PROGRAM profile_access_patterns ENV SIMT_PROFILE=text STATUS 0
  EXPECT "access_patterns.cu:${even_store} store: 1 of 1 requests with a partial mask, 16 lanes on average")
