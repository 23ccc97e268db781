# Synchronisation through atomics and fences (sim/src/check/atomic_order.cpp), on plain CUDA built
# as a user builds it. Each right form must print its result and nothing else (no finding); each
# wrong form a data race whose kind and lines are matched, with the fix that names the missing
# fence. Blocks that meet through memory run one at a time whatever SIMT_WORKERS says (a checked
# launch's attempt on every worker ends at the meeting), so each runs at one worker and at four,
# with the same report. tests/sync/idioms.cu says what each form does.
if(SIMT_SANITIZE)
  return()
endif()
simt_add_executable(sync_idioms SOURCES sync/idioms.cu)

set(race "simt: data race \\(read after write\\) on global memory")
foreach(workers IN ITEMS 1 4)
  set(at " (SIMT_WORKERS=${workers})")
  foreach(right IN ITEMS "message|Message passing with a fence on each side, the reader waiting for a later block, is no race"
                         "message-volatile|Message passing through a volatile flag with fences is no race"
                         "message-in-block|Message passing between two warps of a block, the reader spinning first, is no race with block-scope fences"
                         "libcu-release-acquire|Message passing with libcu++'s release store and acquire load is no race"
                         "lock|A spin lock with fences, taken across four blocks, orders the counter it guards"
                         "lock-one-block|A spin lock with fences between the warps of one block orders the counter it guards"
                         "last-block|The last-block reduction of threadFenceReduction, with its fence, is no race and finishes")
    string(REPLACE "|" ";" parts "${right}")
    list(GET parts 0 form)
    list(GET parts 1 name)
    simt_robustness_test("${name}${at}" PROGRAM sync_idioms ARGS ${form}
      ENV SIMT_WORKERS=${workers} STATUS 0 EXPECT "^${form}: [0-9]+ \\(expected [0-9]+\\)\n$")
  endforeach()
  simt_robustness_test("Message passing without the writer's fence is a race at the message's lines, naming the atomic that needed one${at}"
    PROGRAM sync_idioms ARGS message-no-writer-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:27\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:19\n  the other thread made this access, then the atomic at idioms.cu:21, with no __threadfence\\(\\) between them")
  simt_robustness_test("Message passing without the reader's fence is a race at the message's lines, naming the atomic that needed one after it${at}"
    PROGRAM sync_idioms ARGS message-no-reader-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:27\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:19\n  the atomic at idioms.cu:23 read what the other thread released, but no __threadfence\\(\\)")
  simt_robustness_test("Message passing between two warps of a block without fences is a race at the message's lines${at}"
    PROGRAM sync_idioms ARGS message-in-block-no-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:61\n  write by thread \\(32,0,0\\) block \\(0,0,0\\) at idioms.cu:53\n  the other thread made this access, then the atomic at idioms.cu:55")
  simt_robustness_test("Message passing with libcu++'s relaxed store and load is a race at the message's lines${at}"
    PROGRAM sync_idioms ARGS libcu-relaxed ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:79\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:72\n  the other thread made this access, then the atomic at idioms.cu:73")
  simt_robustness_test("A spin lock without fences leaves the counter it guards racy, naming the unlock's atomic${at}"
    PROGRAM sync_idioms ARGS lock-no-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'out'\\[0\\][^\n]*\n  read by thread \\(32,0,0\\) block \\(0,0,0\\) at idioms.cu:97\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:97\n  the other thread made this access, then the atomic at idioms.cu:92")
  simt_robustness_test("A block-scoped lock used by two blocks is a race on the lock and on what it guards${at}"
    PROGRAM sync_idioms ARGS block-scoped-lock ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: data race \\(write after write\\) on global memory 'flag'\\[0\\][^\n]*\n  atomic by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:104\n  atomic by thread \\(32,0,0\\) block \\(0,0,0\\) at idioms.cu:109\n  nothing orders these accesses: an atomic of block scope \\(atomicAdd_block and its kin\\) is atomic only among the threads of its own block.*${race} 'out'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:107\n  write by thread \\(32,0,0\\) block \\(0,0,0\\) at idioms.cu:107\n  the release at idioms.cu:109 has block scope")
  simt_robustness_test("The last-block reduction without its fence is a race between a block's sum and the last block's read${at}"
    PROGRAM sync_idioms ARGS last-block-no-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'partial'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(7,0,0\\) at idioms.cu:134\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:126\n  the other thread made this access, then the atomic at idioms.cu:128")
  simt_robustness_test("A write after a count of two readers races with a third reader that never counted itself${at}"
    PROGRAM sync_idioms ARGS overwrite-after-two-of-three-readers ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: data race \\(write after read\\) on global memory 'data'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(3,0,0\\) at idioms.cu:167\n  read by thread \\(0,0,0\\) block \\(2,0,0\\) at idioms.cu:158\n  nothing orders these accesses")
  simt_robustness_test("atomicAdd_block from two blocks on one word is a race between the two atomics${at}"
    PROGRAM sync_idioms ARGS block-scoped-add ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: data race \\(write after write\\) on global memory 'out'\\[0\\][^\n]*\n  atomic by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:142\n  atomic by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:142\n  nothing orders these accesses: an atomic of block scope")
  simt_robustness_test("Two blocks spinning on a flag that nothing raises are a deadlock at the spin's line, not a hang${at}"
    PROGRAM sync_idioms ARGS wait-forever ENV SIMT_WORKERS=${workers} STATUS 0 SECONDS 30
    EXPECT "^wait-forever: cudaErrorLaunchFailure\nsimt: deadlock in block \\(0,0,0\\) of the kernel launched at idioms.cu:[0-9]+: no thread of the block can continue\n  1 thread waits at a spin loop at idioms.cu:148: \\(0,0,0\\)\n  it reads global memory 'flag'\\[0\\], which keeps the value 0")
endforeach()

# The same program through the routes a learner builds by without CMake: simt-nvcc and ./lab run.
if(TARGET simt_sim)
  add_test(NAME "simt-nvcc builds the synchronisation idioms: a right form runs clean, a wrong one reports its lines"
    COMMAND ${CMAKE_COMMAND} -DMODE=nvcc -DSIMT_NVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/sync/idioms.cu
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/sync-nvcc
            -P ${CMAKE_CURRENT_SOURCE_DIR}/sync/routes.cmake)
  if(PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
    add_test(NAME "./lab run builds the synchronisation idioms: a right form runs clean, a wrong one reports its lines"
      COMMAND ${CMAKE_COMMAND} -DMODE=lab -DLAB=${PROJECT_SOURCE_DIR}/lab
              -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/sync/idioms.cu
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/sync-lab
              -P ${CMAKE_CURRENT_SOURCE_DIR}/sync/routes.cmake)
  endif()
endif()
