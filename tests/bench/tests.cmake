# The benchmark's own behaviour (bench/): the tables simt_bench prints from a bench.json, the
# plain-CUDA part that times one worker against two, and ./lab bench --hipcpu's refusal of a
# folder that is not HIP-CPU. The figures themselves are measured by ./lab bench, not here.
# without_hipcpu.json is a real run's (before HIP-CPU was compared), with two_core_speedup set to
# 1.7996, which prints as 1.80, and incomplete.json the same less one figure; with_hipcpu.json a
# real run's with HIP-CPU (on a loaded machine: its figures are not the project's).
if(TARGET simt_bench)
  function(simt_lab_test name)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "STATUS;EXPECT" "ARGS")
    add_test(NAME "${name}"
      COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${PROJECT_SOURCE_DIR}/lab" "-DARGS=${ARG_ARGS}" "-DENV="
              "-DSTATUS=${ARG_STATUS}" "-DEXPECT=${ARG_EXPECT}" "-DSECONDS=30"
              -P ${PROJECT_SOURCE_DIR}/tests/robustness/expect_exit.cmake)
  endfunction()

  set(here ${CMAKE_CURRENT_LIST_DIR})
  simt_robustness_test("The benchmark prints the learner's tables from a bench.json"
    PROGRAM simt_bench ARGS --show ${here}/without_hipcpu.json STATUS 0 SECONDS 30
    EXPECT "\n  tiled transpose 2048\\^2, 1 barrier +10\\.8 +75\\.4 \\(6\\.97x\\) +42\\.1 \\(3\\.89x\\)\n.*\n  tree reduction 4M, 1 \\+ 8 barriers +362 \\(1\\.98x\\) +296 \\(2\\.73x\\)\n.*\n  the same body as a kernel, no barrier +4\\.09 ns per thread \\(5\\.60 times the loop\\)\n.*\n  plain CUDA, atomic_counter +3\\.59 / +13\\.1 / +21\\.9\n")
  simt_robustness_test("The benchmark's tables leave out HIP-CPU when the run did not time it"
    PROGRAM simt_bench ARGS --show ${here}/without_hipcpu.json --targets STATUS 0 SECONDS 30
    EXPECT "\n  atomic counter, 1M threads +28\\.8 \\(3\\.12x\\) +21\\.9 \\(6\\.11x\\)\nWhat a thread, a barrier and a core cost.*\n  two cores instead of one, independent blocks +1\\.80 times as fast\n  shadow memory for the checkers .*\n  plain CUDA, atomic_counter checked / unchecked +6\\.1x +<= 10x +met\n  two cores / one core +1\\.80x +>= 1\\.8x +met\n")
  simt_robustness_test("The benchmark judges a target on the value as printed"
    PROGRAM simt_bench ARGS --show ${here}/without_hipcpu.json --targets STATUS 0 SECONDS 30
    EXPECT "\nAgainst the targets:\n  views, vector_add / serial loop +5\\.6x +<= 1\\.4x +missed\n.*\n  plain CUDA, atomic_counter / serial loop +1\\.5x +<= 2\\.7x +met\n.*\n  two cores / one core +1\\.80x +>= 1\\.8x +met\n  each further barrier \\(reduction\\) +14\\.54 ns <= 5 ns +missed\n")
  simt_robustness_test("The benchmark shows HIP-CPU's ns per thread and plain CUDA's ratio to it"
    PROGRAM simt_bench ARGS --show ${here}/with_hipcpu.json --targets STATUS 0 SECONDS 30
    EXPECT "run by ROCm's HIP-CPU in the same run.*\n  vector add, 16M threads +[0-9.]+ +[0-9.]+ \\([0-9.]+x\\)\n.*\n  the same for plain CUDA built UNCHECKED +[0-9.]+ times as fast\n.*\n  plain CUDA, atomic_counter / HIP-CPU +[0-9.]+x +<= 1x +(met|missed)\n.*\n  two cores / one core, built UNCHECKED +[0-9.]+x +>= 1\\.8x +(met|missed)\n")
  simt_robustness_test("The benchmark names the figure that a bench.json lacks and prints no table"
    PROGRAM simt_bench ARGS --show ${here}/incomplete.json STATUS 2 SECONDS 30
    EXPECT "^simt_bench: [^\n]*incomplete\\.json has no figure \"views_checked_build_transpose_all_ns\"; ./lab bench writes a complete one\n$")
  simt_robustness_test("The benchmark says that a file which is not JSON is no bench.json"
    PROGRAM simt_bench ARGS --show ${here}/tests.cmake STATUS 2 SECONDS 30
    EXPECT "tests\\.cmake is not a bench\\.json")
  simt_robustness_test("Plain CUDA's independent-blocks part times the blocks on the workers its environment names"
    PROGRAM simt_bench_plain_cuda_unchecked ARGS independent-blocks ENV SIMT_WORKERS=2 STATUS 0 SECONDS 120
    EXPECT "^independent_blocks [0-9.e+-]+\n${simt_clean_unchecked}")
  simt_lab_test("lab bench --hipcpu refuses a folder without HIP-CPU's headers and names them"
    ARGS bench --hipcpu ${here} STATUS 2
    EXPECT "lab: [^\n]*tests/bench is not a copy of ROCm's HIP-CPU: it has no include/hip/hip_api\\.h include/hip/hip_atomic\\.h include/hip/hip_defines\\.h include/hip/hip_device_launch_parameters\\.h\n$")
  simt_lab_test("lab bench --hipcpu without a folder says what it takes"
    ARGS bench --hipcpu STATUS 2 EXPECT "lab: --hipcpu takes a folder: a copy of ROCm's HIP-CPU")

  # Where HIP-CPU is given (SIMT_BENCH_HIPCPU), its program checks every workload's result itself.
  if(TARGET simt_bench_hipcpu)
    simt_robustness_test("HIP-CPU's benchmark program computes the four workloads right"
      PROGRAM simt_bench_hipcpu ARGS 65536 128 65536 65536 STATUS 0 SECONDS 60
      EXPECT "^vector_add [0-9.e+-]+\ntranspose [0-9.e+-]+\ntree_reduction [0-9.e+-]+\natomic_counter [0-9.e+-]+\n$")
  endif()
endif()
