# Builds and runs the consumer programs the way another project would use simt, and checks that
# the checks came with them: the plain-CUDA off-by-one is reported (kind, array, line) when built
# as programs are by default, and runs unreported when built UNCHECKED.
# -DMODE=subdirectory|installed|nested -DSIMT_SOURCE_DIR=<simt> -DWORK_DIR=<scratch folder>
file(REMOVE_RECURSE "${WORK_DIR}")
set(here "${CMAKE_CURRENT_LIST_DIR}")
set(build_type -DCMAKE_BUILD_TYPE=Release)
set(programs "${WORK_DIR}/app")
if(MODE STREQUAL "installed")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SIMT_SOURCE_DIR}" -B "${WORK_DIR}/simt" ${build_type}
                          -DSIMT_BUILD_TESTS=OFF -DSIMT_BUILD_PROGRAMS=OFF -DSIMT_CUDA=OFF
                          -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix
                  COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/simt" -j 2 COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${WORK_DIR}/simt" COMMAND_ERROR_IS_FATAL ANY)
  set(extra -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  # The installed compiler driver finds the installed library beside itself.
  execute_process(COMMAND "${WORK_DIR}/prefix/bin/simt-nvcc" -o "${WORK_DIR}/driven"
                          "${here}/app/off_by_one.cu" COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${WORK_DIR}/driven" OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${out}${err}" MATCHES "out-of-bounds write of global memory 'd_out'\\[100\\].*at off_by_one.cu:7")
    message(FATAL_ERROR "the installed simt-nvcc's program did not report its bug:\n${out}${err}")
  endif()
  execute_process(COMMAND "${WORK_DIR}/prefix/bin/simt-nvcc" -o "${WORK_DIR}/driven_fence"
                          "${here}/app/missing_fence.cu" COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${WORK_DIR}/driven_fence" OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${out}${err}" MATCHES "data race \\(read after write\\) on global memory 'message'\\[1\\].*at missing_fence.cu:17"
     OR NOT "${out}${err}" MATCHES "A100, predicted: timed")
    message(FATAL_ERROR "the installed simt-nvcc's program did not report its race:\n${out}${err}")
  endif()
  execute_process(COMMAND "${WORK_DIR}/prefix/bin/simt-nvcc" -o "${WORK_DIR}/driven_tile"
                          "${here}/app/tile_and_managed.cu" COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${WORK_DIR}/driven_tile" OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${out}${err}" MATCHES "on shared memory 'vals'\\[64\\][^\n]*\n[^\n]*at tile_and_managed.cu:1[34]" OR
     NOT "${out}${err}" MATCHES "read by the host at tile_and_managed.cu:21")
    message(FATAL_ERROR "the installed simt-nvcc's program did not report its races:\n${out}${err}")
  endif()
  execute_process(COMMAND "${WORK_DIR}/prefix/bin/simt-nvcc" -o "${WORK_DIR}/driven_cub"
                          "${here}/app/cub_reuse.cu" COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${WORK_DIR}/driven_cub" OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${out}${err}" MATCHES "data race \\(write after read\\) on shared memory 'temp'[^\n]*\n  write by [^\n]* at cub_reuse.cu:12\n  read by [^\n]* at cub_reuse.cu:11")
    message(FATAL_ERROR "the installed simt-nvcc's CUB program did not report its race:\n${out}${err}")
  endif()
elseif(MODE STREQUAL "subdirectory" OR MODE STREQUAL "nested")
  set(extra -DSIMT_SOURCE_DIR=${SIMT_SOURCE_DIR})
  if(MODE STREQUAL "nested")
    set(programs "${WORK_DIR}/app/apps")
  endif()
else()
  message(FATAL_ERROR "MODE must be subdirectory, installed or nested")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${here}/${MODE}" -B "${WORK_DIR}/app" ${build_type} ${extra}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/app" -j 2 COMMAND_ERROR_IS_FATAL ANY)

function(expect program pattern)
  execute_process(COMMAND "${programs}/${program}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${program} exited ${status}; expected its output to match\n  ${pattern}\n"
                        "it printed:\n${out}${err}")
  endif()
  message(STATUS "${program}: as expected:\n${out}${err}")
endfunction()
expect(consumer "consumer: 499500")
expect(off_by_one "simt: out-of-bounds write of global memory 'd_out'\\[100\\] \\(float, 100 elements, allocated at off_by_one.cu:16\\)[^\n]*\n  write by thread \\(100,0,0\\) block \\(0,0,0\\) at off_by_one.cu:7\n.*simt: 1 finding")
expect(off_by_one_unchecked "^off_by_one: h\\[99\\] = 198\nsimt: nothing checked: this program was built UNCHECKED[^\n]*\n$")
# Fences and atomics came too, with simt's <cuda/atomic>: a write after a release is a race.
# Its launch is timed on the GPU's clock, the API reached through the project's simt.
expect(missing_fence "missing_fence: [-0-9]+, A100, predicted: timed\n")
expect(missing_fence "simt: data race \\(read after write\\) on global memory 'message'\\[1\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at missing_fence.cu:17\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at missing_fence.cu:13\n  the other thread made this access after its release \\(the atomic at missing_fence.cu:12")
# The report page came too: the race is on it at its line. A project that takes simt in with
# add_subdirectory gets the page's data without its scripts unless it asks (SIMT_REPORT_PAGE);
# an installed simt brings the built page.
execute_process(COMMAND ${CMAKE_COMMAND} -E env "SIMT_REPORT=html:${WORK_DIR}/page.html"
                        "${programs}/missing_fence" COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET ERROR_QUIET)
file(READ "${WORK_DIR}/page.html" page)
if(NOT page MATCHES "\"kind\":\"data-race\"[^}]*\"file\":\"[^\"]*missing_fence.cu\",\"line\":17")
  message(FATAL_ERROR "missing_fence's report page does not hold its race at line 17:\n${page}")
endif()
string(FIND "${page}" "scripts were not built" plain)
if(MODE STREQUAL "installed" AND NOT plain EQUAL -1)
  message(FATAL_ERROR "the installed simt wrote a page without its scripts")
elseif(NOT MODE STREQUAL "installed" AND plain EQUAL -1)
  message(FATAL_ERROR "a page without SIMT_REPORT_PAGE should say its scripts were not built")
endif()
# A tile of several warps and a host read of managed memory, each a data race at its lines (the
# host's is published when it reads, the kernel's when the launch ends: in either order).
expect(tile_and_managed "simt: data race \\([a-z ]+\\) on shared memory 'vals'\\[64\\][^\n]*\n  [a-z]+ by thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at tile_and_managed.cu:1[34]\n  [a-z]+ by thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at tile_and_managed.cu:1[34]\n")
expect(tile_and_managed "simt: data race \\(host read of managed memory a kernel may still use\\) on global memory 'out'\\[0\\][^\n]*\n  read by the host at tile_and_managed.cu:21\n  the kernel launched at tile_and_managed.cu:20 ")
# CUB came too, with its checks: a TempStorage reused without a barrier races at both calls.
expect(cub_reuse "simt: data race \\(write after read\\) on shared memory 'temp'[^\n]*declared at cub_reuse.cu:9\\)[^\n]*\n  write by thread \\([0-9]+,0,0\\) block \\(0,0,0\\) at cub_reuse.cu:12\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at cub_reuse.cu:11\n")
# LINEINFO came too (simt::lineinfo): the profile counts the arithmetic of every line.
if(NOT MODE STREQUAL "nested")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "SIMT_PROFILE=json:${WORK_DIR}/lineinfo.jsonl"
                          "${programs}/consumer_lineinfo" COMMAND_ERROR_IS_FATAL ANY
                  OUTPUT_QUIET ERROR_QUIET)
  file(READ "${WORK_DIR}/lineinfo.jsonl" profile)
  if(NOT profile MATCHES "\"arithmetic_counted\":\"every line\"")
    message(FATAL_ERROR "consumer_lineinfo (LINEINFO) did not count every line:\n${profile}")
  endif()
endif()
message(STATUS "consumer (${MODE}): the checks came with the targets")
