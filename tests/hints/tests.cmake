# Every hint a finding can end with (sim/src/report/draft.hpp's Hint), each on a small program that
# gets it, built as a learner builds it (simt-nvcc, no CMake); the fix the hint asks for is then
# applied to the source and must leave the run clean and its result right (hint_fixes.cmake).
# docs/checkers.md ("Hints, and the fixes they ask for") shows the same rows; hint_table.cmake
# checks that every key has one row here and one there, in the same order.
#
# One row per hint: key | the program (tests/hints/) | the finding's kind | the line of its first
# access | a phrase of the hint's text | the program, in words | the fix, in words | the text the
# fix replaces (exactly once in the program) | what it becomes. `\;` is a `;` of the C++ text.
set(hint_rows
  "atomic_orders_nothing|atomic_orders_nothing.cu|data race|9|read the result after a __syncthreads()\
|a shared atomicAdd count that thread 0 reads back|a __syncthreads() before the read\
|    if (threadIdx.x == 0) *out = count\;\n|    __syncthreads()\;\n    if (threadIdx.x == 0) *out = count\;\n"
  "read_modify_write|read_modify_write.cu|data race|7|use atomicAdd (or another atomic)\
|a counter every thread increments with +=|atomicAdd in place of +=\
|hits[0] += 1|atomicAdd(&hits[0], 1)"
  "syncthreads|syncthreads.cu|data race|11|separate them with __syncthreads()\
|a sum of squares the block's last thread adds up|a __syncthreads() between the writes and the sum\
|    sq[t] = in[t] * in[t]\;\n|    sq[t] = in[t] * in[t]\;\n    __syncthreads()\;\n"
  "syncthreads_or_syncwarp|syncthreads_or_syncwarp.cu|data race|9|or with __syncwarp() when only lanes of one warp share the data\
|one warp's differences between neighbours|a __syncwarp() between the writes and the reads\
|    s[lane] = in[lane]\;\n|    s[lane] = in[lane]\;\n    __syncwarp()\;\n"
  "next_iteration|next_iteration.cu|data race|12|add a __syncthreads() at the end of the loop body\
|column sums read row by row through shared memory|a __syncthreads() at the end of the loop body\
|        sum += row[63 - t]\;\n|        sum += row[63 - t]\;\n        __syncthreads()\;\n"
  "read_ahead|read_ahead.cu|data race|11|end the loop body with a __syncthreads()\
|a tree reduction with no barrier in its loop|a __syncthreads() at the end of the loop body\
|        if (t < stride) s[t] += s[t + stride]\;\n|        if (t < stride) s[t] += s[t + stride]\;\n        __syncthreads()\;\n"
  "other_block|other_block.cu|data race|14|blocks of one launch are never ordered: use atomics\
|block sums added to a total with +=|atomicAdd in place of +=\
|*total += s[0]|atomicAdd(total, s[0])"
  "other_block_grid_sync|other_block_grid_sync.cu|data race|15|put one between these accesses\
|a cooperative launch that reads the counts of other blocks|a grid.sync() between writing the counts and reading them\
|    if (threadIdx.x == 0) counts[blockIdx.x] = evens\;\n|    if (threadIdx.x == 0) counts[blockIdx.x] = evens\;\n    grid.sync()\;\n"
  "other_stream|other_stream.cu|data race|12|make one stream wait for an event recorded on the other\
|a pipeline of two kernels on two streams|an event recorded on the first stream that the second waits for\
|    add_one<<<|    cudaEvent_t squared\;\n    cudaEventCreate(&squared)\;\n    cudaEventRecord(squared, first)\;\n    cudaStreamWaitEvent(second, squared, 0)\;\n    add_one<<<"
  "other_graph_node|other_graph_node.cu|data race|12|add an edge between them\
|a graph of two kernel nodes with no edge|the first node given as the second's dependency\
|&twice_node, graph, nullptr, 0,|&twice_node, graph, &fill_node, 1,"
  "host_before_wait|host_before_wait.cu|data race|17|wait for the kernel first with cudaDeviceSynchronize()\
|a host loop over managed memory right after the launch|a cudaDeviceSynchronize() before the host's loop\
|    float sum = 0\;\n|    cudaDeviceSynchronize()\;\n    float sum = 0\;\n"
  "acquire_without_fence|acquire_without_fence.cu|memory-model|13|put a __threadfence() right after that atomic\
|a hand-over between blocks with no fence after the spin|a __threadfence() after the spin\
|        while (atomicAdd(ready, 0) == 0) {}\n|        while (atomicAdd(ready, 0) == 0) {}\n        __threadfence()\;\n"
  "acquire_through_barrier|acquire_through_barrier.cu|memory-model|27|Put a __threadfence() right after the atomic\
|the last-block reduction with only a __syncthreads() after its ticket|a __threadfence() right after the ticket's atomicAdd\
|        unsigned int ticket = atomicAdd(&tickets, 1)\;\n|        unsigned int ticket = atomicAdd(&tickets, 1)\;\n        __threadfence()\;\n"
  "acquire_block_fence|acquire_block_fence.cu|memory-model|18|Use __threadfence() after the atomic\
|a hand-over between blocks with a __threadfence_block() after the spin|__threadfence() in place of __threadfence_block()\
|        __threadfence_block()\;|        __threadfence()\;"
  "volatile_orders_nothing|volatile_orders_nothing.cu|data race|11|volatile orders nothing and protects nothing\
|a hand-over through a volatile mailbox and flag|a __threadfence() before the flag's store and after its spin\
|    *box = v\;\n    *flag = 1\;\n}\n\n__device__ int receive(volatile int* box, volatile int* flag) {\n    while (*flag == 0) {}\n\
|    *box = v\;\n    __threadfence()\;\n    *flag = 1\;\n}\n\n__device__ int receive(volatile int* box, volatile int* flag) {\n    while (*flag == 0) {}\n    __threadfence()\;\n"
  "release_without_fence|release_without_fence.cu|data race|13|Put a __threadfence() between the access and the atomic\
|a hand-over between blocks with no fence before the flag|a __threadfence() between the result's store and the flag's atomicExch\
|        *result = 2024\;\n|        *result = 2024\;\n        __threadfence()\;\n"
  "write_after_release|write_after_release.cu|data race|15|make this access before the __threadfence()\
|a two-number message whose second number is written after the flag|the second number written before the fence\
|        __threadfence()\;\n        atomicExch(ready, 1)\;\n        msg[1] = 2\;\n|        msg[1] = 2\;\n        __threadfence()\;\n        atomicExch(ready, 1)\;\n"
  "access_between_fence_and_atomic|access_between_fence_and_atomic.cu|data race|17|put a __threadfence() between the access and the atomic\
|a spin lock whose unlock has no fence|a __threadfence() in unlock before its atomicExch\
|    atomicExch(mutex, 0)\;|    __threadfence()\;\n    atomicExch(mutex, 0)\;"
  "release_block_scope|release_block_scope.cu|data race|14|use __threadfence() and the plain atomic\
|a hand-over between blocks behind a __threadfence_block()|__threadfence() in place of __threadfence_block()\
|        __threadfence_block()\;|        __threadfence()\;"
  "block_scope_atomic|block_scope_atomic.cu|data race|7|use the plain atomic (device scope)\
|a count over four blocks with atomicAdd_block|atomicAdd in place of atomicAdd_block\
|atomicAdd_block(|atomicAdd("
  "shared_uninitialized|shared_uninitialized.cu|uninitialized atomic|8|so write it (and __syncthreads()) before reading it\
|a shared-memory histogram whose bins are never zeroed|the bins zeroed and a __syncthreads() before counting\
|    atomicAdd(&local[in[i] % 16], 1)\;\n|    if (threadIdx.x < 16) local[threadIdx.x] = 0\;\n    __syncthreads()\;\n    atomicAdd(&local[in[i] % 16], 1)\;\n"
  "global_uninitialized|global_uninitialized.cu|uninitialized read|11|fill it with to_device/copy_from_host\
|a vector sum with a simt::device_array input never filled|the input made with simt::to_device\
|simt::device_array<float>(n)\;\n    auto d_c|simt::to_device(b)\;\n    auto d_c"
  "cuda_uninitialized|cuda_uninitialized.cu|uninitialized read|7|fill it with cudaMemcpy or cudaMemset\
|a vector sum whose second input is never copied in|a cudaMemcpy of the second input before the launch\
|    add<<<|    cudaMemcpy(d_b, h_b, n * sizeof(float), cudaMemcpyHostToDevice)\;\n    add<<<"
)

# Splits a row into hint_key, hint_file, hint_kind, hint_line, hint_phrase, hint_program, hint_fix,
# hint_replace and hint_with (in the caller's scope).
function(simt_hint_row row)
  if(NOT row MATCHES "^([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)$")
    message(FATAL_ERROR "tests/hints/tests.cmake: a row without its nine fields: ${row}")
  endif()
  set(i 1)
  foreach(field IN ITEMS key file kind line phrase program fix replace with)
    set(hint_${field} "${CMAKE_MATCH_${i}}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()

# hint_fixes.cmake and hint_table.cmake read the table and simt_hint_row alone.
if(CMAKE_SCRIPT_MODE_FILE)
  return()
endif()

add_test(NAME "Every hint of report/draft.hpp has a row in the hint-fix table and in docs/checkers.md's, in one order"
  COMMAND ${CMAKE_COMMAND} -DDRAFT=${PROJECT_SOURCE_DIR}/sim/src/report/draft.hpp
          -DTABLE=${CMAKE_CURRENT_SOURCE_DIR}/hints/tests.cmake
          -DDOCS=${PROJECT_SOURCE_DIR}/docs/checkers.md
          -P ${CMAKE_CURRENT_SOURCE_DIR}/hints/hint_table.cmake)

if(TARGET simt_sim AND NOT SIMT_SANITIZE)
  foreach(row IN LISTS hint_rows)
    simt_hint_row("${row}")
    string(REPLACE "_" "-" words "${hint_key}")
    add_test(NAME "The ${words} hint's fix, ${hint_fix}, makes ${hint_program} clean"
      COMMAND ${CMAKE_COMMAND} -DKEY=${hint_key} -DSIMT_NVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc
              -DHINTS=${CMAKE_CURRENT_SOURCE_DIR}/hints
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/hints/${hint_key}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/hints/hint_fixes.cmake)
    set_tests_properties("The ${words} hint's fix, ${hint_fix}, makes ${hint_program} clean"
      PROPERTIES TIMEOUT 120)
  endforeach()
endif()
