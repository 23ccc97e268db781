# A learner's first hour, through ./lab run as a learner runs it (issue "A learner's first hour"):
#   options   lab's own options after the lesson's name: ./lab run 07 --profile profiles
#   clean     a clean checked run ends with the line saying so, and what was checked
#   folded    lesson 01 without its guard: one finding, counting the threads folded into it
#   piped     through a pipe, the program's output and the reports keep their order
#   loop      the tree reduction missing its loop's barrier gets the barrier hint; doing what it
#             says makes the run clean
# -DCASE=... -DLAB=<./lab> -DSOURCE_DIR=<the source tree> -DWORK_DIR=<scratch>
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)
set(clean_line "simt: no findings \\(race, bounds, init, sync checked\\)\n$")

if(CASE STREQUAL "options")
  run("${LAB}" run 07 --profile)
  expect("simt profile: kernel count_locked launched at atomics.cu:[0-9]+" "./lab run 07 --profile printed no profile")
  run("${LAB}" run 07_atomics -- --profile)
  expect("checksum [0-9]+\nOK\n" "the lesson did not run to its end with --profile as its argument")
  if(all MATCHES "simt profile:")
    message(FATAL_ERROR "after --, --profile is the program's, not lab's:\n${all}")
  endif()
elseif(CASE STREQUAL "clean")
  run("${LAB}" run 01_threads)
  expect("OK\n${clean_line}" "a clean checked run of lesson 01 did not end with its line")
  run("${LAB}" run 01 --unchecked)
  expect("simt: no findings \\(bounds checked; race, init, sync not, as SIMT_CHECK asked\\)\n$"
         "./lab run 01 --unchecked did not say what it left unchecked")
elseif(CASE STREQUAL "folded")
  file(READ "${SOURCE_DIR}/lessons/01_threads/threads.cu" text)
  string(FIND "${text}" "    if (pos < n) io[pos] += 1;" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "lesson 01's guarded increment is not where this test looks for it")
  endif()
  string(REPLACE "    if (pos < n) io[pos] += 1;" "    io[pos] += 1;" text "${text}")
  file(WRITE "${WORK_DIR}/no_guard.cu" "${text}")
  run("${LAB}" run no_guard.cu)
  expect("simt: out-of-bounds read of global memory '[^']+'\\[1000\\] [^\n]*\\), and [0-9]+ more threads at this line \\([0-9]+ more accesses in all\\)\n  read by thread \\([0-9]+,0,0\\) block \\([0-9]+,0,0\\) at no_guard.cu:[0-9]+\n"
         "the out-of-bounds finding does not count the threads folded into it")
elseif(CASE STREQUAL "piped")
  file(WRITE "${WORK_DIR}/order.cu" [=[
#include <cstdio>
__global__ void racy(int* c) { c[0] += 1; }
int main() {
    int* c;
    cudaMalloc(&c, sizeof(int));
    cudaMemset(c, 0, sizeof(int));
    std::printf("before the launch\n");
    racy<<<1, 64>>>(c);
    cudaDeviceSynchronize();
    std::printf("after the launch\n");
    cudaFree(c);
}
]=])
  run("${LAB}" run order.cu)
  expect("before the launch\nsimt: data race[^\n]*\n([^\n]*\n)*after the launch\nsimt: 1 finding \\(1 data-race\\)\n$"
         "through a pipe, the report is not between the two lines the program printed around it")
elseif(CASE STREQUAL "loop")
  file(WRITE "${WORK_DIR}/tree.cu" [=[
#include <cstdio>
__global__ void block_sums(const int* in, int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
    int h[1024], *in, *out, sums[4];
    for (int i = 0; i < 1024; ++i) h[i] = 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sums<<<4, 256>>>(in, out);
    cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    std::printf("%d %d %d %d\n", sums[0], sums[1], sums[2], sums[3]);
    cudaFree(in);
    cudaFree(out);
}
]=])
  run("${LAB}" run tree.cu)
  expect("simt: data race \\(write after read\\) on shared memory 's'\\[[0-9]+\\][^\n]*\n  write by thread [^\n]* at tree.cu:8\n  read by thread [^\n]* at tree.cu:8\n  nothing orders these accesses: a line racing with itself, the read first[^\n]*end the loop body with a __syncthreads\\(\\), outside any if"
         "the loop's race did not get the barrier hint")
  # What the hint says: a __syncthreads() at the end of the loop body, outside the if.
  file(READ "${WORK_DIR}/tree.cu" text)
  string(REPLACE "        if (t < stride) s[t] += s[t + stride];\n    }"
                 "        if (t < stride) s[t] += s[t + stride];\n        __syncthreads();\n    }" text "${text}")
  file(WRITE "${WORK_DIR}/tree.cu" "${text}")
  run("${LAB}" run tree.cu)
  expect("256 256 256 256\n${clean_line}" "the hint's fix did not make the run clean")
else()
  message(FATAL_ERROR "CASE must be options, clean, folded, piped or loop")
endif()
message(STATUS "as expected:\n${all}")
