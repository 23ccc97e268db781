# The lessons' own tests beyond "runs and prints OK" (tests/CMakeLists.txt): the bugs a lesson
# shows when asked, found at their lines; the counters a README quotes, as the program prints
# them; and ./lab doctor.

# A lesson run with arguments that make it show a bug: the finding's kind at the marked line.
function(simt_lesson_bug_test name lesson source marker kind args)
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${lesson}>
            -DSOURCE=${PROJECT_SOURCE_DIR}/lessons/${lesson}/${source} "-DMARKER=${marker}"
            -DKIND=${kind} -DARGS=${args}
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/lesson_findings/${lesson}_${args}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/lessons/expect_finding.cmake)
endfunction()

# Raw shared-memory accesses, which AddressSanitizer builds do not instrument.
if(NOT SIMT_SANITIZE)
  if(TARGET 10_reduction)
    simt_lesson_bug_test("Lesson 10's last warp without __syncwarp() is a data race at its marked line"
      10_reduction reduction.cu "the race is here" data-race race)
  endif()
  if(TARGET 07_atomics)
    simt_lesson_bug_test("Lesson 07's last-block sum without its fence is a data race at its marked line"
      07_atomics atomics.cu "without the fence: the race shows here" data-race nofence)
    simt_robustness_test("Lesson 07's lock and last-block sum, with their fences, add no finding to the racy counter's"
      PROGRAM 07_atomics STATUS 0
      EXPECT "under a lock:        4096\nby the last block:   4096\n.*simt: 1 finding \\(1 data-race\\)\n$")
  endif()
  if(TARGET 17_convolution)
    simt_lesson_bug_test("Lesson 17's tiled convolution without its halo reads uninitialized shared memory at its marked line"
      17_convolution convolution.cu "the halo is read here" uninitialized-read halo_bug)
  endif()
  if(TARGET 18_scan)
    simt_lesson_bug_test("Lesson 18's block scan without the barrier between reads and writes is a data race at its marked line"
      18_scan scan.cu "the race is here" data-race race)
    simt_lesson_bug_test("Lesson 18's one-pass scan without the writer's fence is a data race at its marked line"
      18_scan scan.cu "without the fence: the race shows here" data-race nofence)
  endif()
  if(TARGET 21_matmul)
    simt_lesson_bug_test("Lesson 21's tiled matmul without the barrier at the end of its tile loop is a data race at its marked line"
      21_matmul matmul.cu "the race is here" data-race race)
  endif()
  if(TARGET 19_histogram)
    simt_lesson_bug_test("Lesson 19's per-block histogram with ++ instead of a shared atomicAdd is a data race at its marked line"
      19_histogram histogram.cu "the race is here" data-race race)
  endif()
endif()

# Lesson 01's `swapped`: <<<threads, blocks>>> still does every element for 1000 (256 blocks of
# 4), and is refused for a million (a block of 3907 threads), leaving the data as it was.
# (The regular expressions say `.` for the `;` in the output, which CMake would take as a list;
# the simulator's note on the refused launch goes to stderr, between the two lines.)
set(simt_lesson01_swapped "n = 1000: <<<4, 256>>> swapped to <<<256, 4>>>: accepted. 1000 of 1000 elements incremented\n(simt: launch refused[^\n]*\n)?n = 1000000: <<<3907, 256>>> swapped to <<<256, 3907>>>: cudaErrorInvalid(Value|Configuration). 0 of 1000000 elements incremented\nchecksum [-+0-9.e]+\nOK")
if(TARGET 01_threads)
  add_test(NAME "Lesson 01 with its launch's numbers swapped is right for 1000 elements and refused for a million"
    COMMAND 01_threads swapped)
  set_tests_properties("Lesson 01 with its launch's numbers swapped is right for 1000 elements and refused for a million"
    PROPERTIES PASS_REGULAR_EXPRESSION "${simt_lesson01_swapped}")
endif()
if(TARGET 01_threads_cuda)
  add_test(NAME "Lesson 01 with its launch's numbers swapped is right for 1000 elements and refused for a million on the GPU"
    COMMAND 01_threads_cuda swapped)
  set_tests_properties("Lesson 01 with its launch's numbers swapped is right for 1000 elements and refused for a million on the GPU"
    PROPERTIES PASS_REGULAR_EXPRESSION "${simt_lesson01_swapped}" SKIP_RETURN_CODE 77)
endif()

# Lesson 16's second argument, the kernel's multiply-adds per element: the result still matches
# the CPU's, however many.
if(TARGET 16_overlap)
  add_test(NAME "Lesson 16 with 3000 multiply-adds per element still matches the CPU"
    COMMAND 16_overlap 14 3000)
  set_tests_properties("Lesson 16 with 3000 multiply-adds per element still matches the CPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "16384 floats, 3000 multiply-adds each.*both ways match the CPU: yes\nchecksum [-+0-9.e]+\nOK"
    FAIL_REGULAR_EXPRESSION "simt: [0-9]+ findings? \\(")
endif()
if(TARGET 16_overlap_cuda)
  add_test(NAME "Lesson 16 with 3000 multiply-adds per element still matches the CPU on the GPU"
    COMMAND 16_overlap_cuda 14 3000)
  set_tests_properties("Lesson 16 with 3000 multiply-adds per element still matches the CPU on the GPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "both ways match the CPU: yes\nchecksum [-+0-9.e]+\nOK" SKIP_RETURN_CODE 77)
endif()

# The numbers a README quotes from SIMT_PROFILE=text are the ones its program prints. (The
# counters come from the raw-access hooks, which AddressSanitizer builds do not instrument.)
foreach(lesson IN ITEMS 09_shared_memory 10_reduction 14_coalescing 15_occupancy 17_convolution 19_histogram 21_matmul)
  if(TARGET ${lesson} AND NOT SIMT_SANITIZE)
    add_test(NAME "The counters that lesson ${lesson}'s README quotes are the ones it prints"
      COMMAND ${CMAKE_COMMAND} -DREADME=${PROJECT_SOURCE_DIR}/lessons/${lesson}/README.md
              -DPROGRAM=$<TARGET_FILE:${lesson}> -DLESSON=${lesson}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/lessons/readme_profile_matches.cmake)
  endif()
endforeach()

add_test(NAME "./lab doctor names the GPU, the toolkit and the compiler it found, and where the lessons run"
  COMMAND ${PROJECT_SOURCE_DIR}/lab doctor)
set_tests_properties("./lab doctor names the GPU, the toolkit and the compiler it found, and where the lessons run"
  PROPERTIES PASS_REGULAR_EXPRESSION "GPU: +[^\n]+\ntoolkit: +[^\n]+\ncompiler: +[^\n]+\nlessons: +run ")

# A lesson's libraries part (Thrust, cuBLAS), where Thrust is installed: in the simulator and, as
# its _cuda twin, on the GPU; each prints its checksum, then OK.
function(simt_lesson_libraries_test target what)
  if(TARGET ${target})
    simt_thrust_under_ubsan(${target})
    add_test(NAME "${what}" COMMAND ${target})
    set_tests_properties("${what}" PROPERTIES PASS_REGULAR_EXPRESSION "checksum [-+0-9.e]+\nOK"
                         FAIL_REGULAR_EXPRESSION "simt: [0-9]+ findings? \\(")
  endif()
  if(TARGET ${target}_cuda)
    add_test(NAME "${what} on the GPU" COMMAND ${target}_cuda)
    set_tests_properties("${what} on the GPU" PROPERTIES
      PASS_REGULAR_EXPRESSION "checksum [-+0-9.e]+\nOK" SKIP_RETURN_CODE 77)
  endif()
endfunction()
simt_lesson_libraries_test(10_reduction_libraries "Lesson 10's Thrust and cuBLAS sums match the CPU's")
simt_lesson_libraries_test(18_scan_libraries "Lesson 18's Thrust scans match the CPU's")

if(TARGET 20_unified_graphs)
  add_test(NAME "Lesson 20's plain launches and its graph compute the same as the CPU"
    COMMAND 20_unified_graphs 16)
  set_tests_properties("Lesson 20's plain launches and its graph compute the same as the CPU" PROPERTIES
    PASS_REGULAR_EXPRESSION "20 nodes.*both ways match the CPU: yes. they agree with each other: yes\nchecksum [-+0-9.e]+\nOK"
    FAIL_REGULAR_EXPRESSION "simt: [0-9]+ findings? \\(")
endif()
