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
                         "last-block|The last-block reduction of threadFenceReduction, with a fence on each side of the ticket, is no race and finishes")
    string(REPLACE "|" ";" parts "${right}")
    list(GET parts 0 form)
    list(GET parts 1 name)
    simt_robustness_test("${name}${at}" PROGRAM sync_idioms ARGS ${form}
      ENV SIMT_WORKERS=${workers} STATUS 0 EXPECT "^${form}: [0-9]+ \\(expected [0-9]+\\)\n${simt_clean}")
  endforeach()
  simt_robustness_test("Message passing without the writer's fence is a race at the message's lines, naming the atomic that needed one${at}"
    PROGRAM sync_idioms ARGS message-no-writer-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "${race} 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:27\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:19\n  the other thread made this access, then the atomic at idioms.cu:21, with no __threadfence\\(\\) between them")
  simt_robustness_test("Message passing without the reader's fence is a memory-model finding at the message's lines, naming the atomic that needs one after it${at}"
    PROGRAM sync_idioms ARGS message-no-reader-fence ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: memory-model \\(read after write, an acquire without its fence\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:27\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:19\n  the atomic at idioms.cu:23 read what the other thread released, but no __threadfence\\(\\)[^\n]*\nsimt: 1 finding \\(1 memory-model\\)\n$")
  simt_robustness_test("The last-block reduction with a barrier but no fence after the ticket is a memory-model finding naming the atomicInc, not a data race${at}"
    PROGRAM sync_idioms ARGS last-block-barrier-only ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "^last-block-barrier-only: 1533 \\(expected 1533\\)\nsimt: memory-model \\(read after write, an acquire without its fence\\) on global memory 'partial'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(7,0,0\\) at idioms.cu:139\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:130\n  the atomic at idioms.cu:132 read what another block released, and only a __syncthreads\\(\\) followed it[^\n]*\n(simt: memory-model[^\n]*\n([^\n]*\n)*)?simt: [0-9]+ findings? \\([0-9]+ memory-model\\)\n$")
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
    EXPECT "${race} 'partial'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(7,0,0\\) at idioms.cu:139\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:130\n  the other thread made this access, then the atomic at idioms.cu:132")
  simt_robustness_test("A write after a count of two readers races with a third reader that never counted itself${at}"
    PROGRAM sync_idioms ARGS overwrite-after-two-of-three-readers ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: data race \\(write after read\\) on global memory 'data'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(3,0,0\\) at idioms.cu:172\n  read by thread \\(0,0,0\\) block \\(2,0,0\\) at idioms.cu:163\n  nothing orders these accesses")
  simt_robustness_test("atomicAdd_block from two blocks on one word is a race between the two atomics${at}"
    PROGRAM sync_idioms ARGS block-scoped-add ENV SIMT_WORKERS=${workers} STATUS 0
    EXPECT "simt: data race \\(write after write\\) on global memory 'out'\\[0\\][^\n]*\n  atomic by thread \\(0,0,0\\) block \\(1,0,0\\) at idioms.cu:147\n  atomic by thread \\(0,0,0\\) block \\(0,0,0\\) at idioms.cu:147\n  nothing orders these accesses: an atomic of block scope")
  simt_robustness_test("Two blocks spinning on a flag that nothing raises are a deadlock at the spin's line, not a hang${at}"
    PROGRAM sync_idioms ARGS wait-forever ENV SIMT_WORKERS=${workers} STATUS 0 SECONDS 30
    EXPECT "^wait-forever: cudaErrorLaunchFailure\nsimt: deadlock in block \\(0,0,0\\) of the kernel launched at idioms.cu:[0-9]+: no thread of the block can continue\n  1 thread waits at a spin loop at idioms.cu:153: \\(0,0,0\\)\n  it reads global memory 'flag'\\[0\\], which keeps the value 0")
endforeach()

# Races through volatile, and acquires without their fence (tests/sync/volatile.cu): each shape
# with its data through int* and through volatile int*, at one worker and at four. volatile is a
# plain access for the race rule: the racy shapes are data races at both their lines either way,
# with the hint that names what is missing; the fenced ones stay clean; an acquire that only
# today's GPUs complete is a memory-model finding, and the summary line says it is the only kind.
simt_add_executable(sync_volatile SOURCES sync/volatile.cu)
set(race_on "simt: data race \\(write after write\\) on global memory 'data'\\[0\\][^\n]*\n")
foreach(workers IN ITEMS 1 4)
  foreach(through IN ITEMS plain volatile)
    set(at " (data through ${through}, SIMT_WORKERS=${workers})")
    set(run_args "")
    if(through STREQUAL "volatile")
      set(run_args volatile)
    endif()
    set(unguarded_hint "blocks of one launch are never ordered")
    if(through STREQUAL "volatile")
      set(unguarded_hint "volatile orders nothing and protects nothing")
    endif()
    foreach(case IN ITEMS
        "lock-without-fences|A spin lock with no fence leaves the writes it guards racing, naming the unlock's atomic|${race_on}  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:19\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:18\n  the other thread made this access, then the atomic at volatile.cu:20, with no __threadfence\\(\\)[^\n]*\nsimt: 1 finding \\(1 data-race\\)\n$"
        "unguarded|Two blocks writing one element with no lock and no flag race|${race_on}  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:28\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:27\n  nothing orders these accesses: ${unguarded_hint}[^\n]*\nsimt: 1 finding \\(1 data-race\\)\n$"
        "reread-after-publish|A read after publishing the flag races with the write of the block that saw it|simt: data race \\(write after read\\) on global memory 'data'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:45\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:40\n  the other thread made this access after its release \\(the __threadfence\\(\\) at volatile.cu:38 and the atomic at volatile.cu:39\\)[^\n]*\nsimt: 1 finding \\(1 data-race\\)\n$"
        "lock-missing-acquire-fence|A lock whose atomicCAS has no fence after it in one block is a race at the guarded writes, naming that atomicCAS|${race_on}  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:58\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:57\n  the atomic at volatile.cu:54 read what the other thread released, but no __threadfence\\(\\) follows it[^\n]*a write after it may be performed before[^\n]*\nsimt: 1 finding \\(1 data-race\\)\n$"
        "fenced-lock|A spin lock with both fences orders what it guards|^fenced-lock: 4 \\(expected 4\\)\n${simt_clean}"
        "fenced-flag|Message passing with fences and an atomic flag is no race|^fenced-flag: 46 \\(expected 46\\)\n${simt_clean}"
        "fenced-volatile-flag|Message passing with fences and a volatile flag is no race, the flag's own accesses included|^fenced-volatile-flag: 46 \\(expected 46\\)\n${simt_clean}"
        "fenced-flag-writer-first|A volatile flag read once, already raised, then a fence, is an acquire and no race|^fenced-flag-writer-first: 7 \\(expected 7\\)\n${simt_clean}"
        "spin-without-fence|A spin on an atomic flag then the data read with no fence is a memory-model finding naming the atomic|^spin-without-fence: 5 \\(expected 5\\)\nsimt: memory-model \\(read after write, an acquire without its fence\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:132\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:125\n  the atomic at volatile.cu:129 read what the other thread released, but no __threadfence\\(\\) follows it[^\n]*today's GPUs[^\n]*\nsimt: 1 finding \\(1 memory-model\\)\n$"
        "spin-without-fence-then-write|A write after a spin on an atomic flag with no fence is a data race: it may be performed before the flag's read|${race_on}  write by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:131\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:125\n  the atomic at volatile.cu:129 read what the other thread released[^\n]*\nsimt: 1 finding \\(1 data-race\\)\n$"
        "acquire-with-block-fence|A __threadfence_block after another block's release is a memory-model finding that asks for __threadfence|^acquire-with-block-fence: 8 \\(expected 8\\)\nsimt: memory-model \\(read after write, an acquire without its fence\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:148\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at volatile.cu:141\n  the atomic at volatile.cu:145 read what another block released, and the __threadfence_block\\(\\) after it has block scope[^\n]*\nsimt: 1 finding \\(1 memory-model\\)\n$"
        "fence-reduction|The threadFenceReduction shape, with no fence after the ticket, is a memory-model finding and no data race|^fence-reduction: [0-9]+ \\(expected [0-9]+\\)\nsimt: memory-model \\(read after write, an acquire without its fence\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(15,0,0\\) at volatile.cu:179\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at volatile.cu:171\n  the atomic at volatile.cu:173 read what another block released, and only a __syncthreads\\(\\) followed it[^\n]*\n.*simt: [0-9]+ findings? \\([0-9]+ memory-model\\)\n$")
      string(REPLACE "|" ";" parts "${case}")
      list(GET parts 0 form)
      list(GET parts 1 name)
      list(GET parts 2 expect)
      simt_robustness_test("${name}${at}" PROGRAM sync_volatile ARGS ${form} ${run_args}
        ENV SIMT_WORKERS=${workers} STATUS 0 EXPECT "${expect}")
    endforeach()
  endforeach()
endforeach()

add_test(NAME "A memory-model finding is its own kind in the JSON report, with its hazard and both lines"
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:sync_volatile>
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/memory-model-json
          -P ${CMAKE_CURRENT_SOURCE_DIR}/sync/memory_model_json.cmake)

# An atomic repeated at one line in every iteration of a loop, with barriers between, is no spin
# (tests/sync/atomic_in_loop.cu): the kernel runs to its end with no finding, its result dropped
# or used, at one worker and at four, and through simt-nvcc and ./lab run (atomic_in_loop.cmake).
simt_add_executable(sync_atomic_in_loop SOURCES sync/atomic_in_loop.cu)
foreach(workers IN ITEMS 1 4)
  simt_robustness_test("An atomicOr into a block flag in every iteration of a loop, between barriers, is no spin and no deadlock (SIMT_WORKERS=${workers})"
    PROGRAM sync_atomic_in_loop ENV SIMT_WORKERS=${workers} STATUS 0 SECONDS 120
    EXPECT "^atomic in a loop: [0-9]+ paths in the money \\(expected [0-9]+\\)\n${simt_clean}")
  simt_robustness_test("An atomicOr whose result is used, in every iteration of a loop between barriers, is no spin and no deadlock (SIMT_WORKERS=${workers})"
    PROGRAM sync_atomic_in_loop ARGS used ENV SIMT_WORKERS=${workers} STATUS 0 SECONDS 120
    EXPECT "^atomic in a loop \\(result used\\): [0-9]+ paths in the money \\(expected [0-9]+\\)\n${simt_clean}")
endforeach()
if(TARGET simt_sim)
  add_test(NAME "simt-nvcc builds the atomic-in-a-loop kernel, which runs to its end with no finding"
    COMMAND ${CMAKE_COMMAND} -DMODE=nvcc -DSIMT_NVCC=${PROJECT_BINARY_DIR}/bin/simt-nvcc
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/sync/atomic_in_loop.cu
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/atomic-loop-nvcc
            -P ${CMAKE_CURRENT_SOURCE_DIR}/sync/atomic_in_loop.cmake)
  if(PROJECT_BINARY_DIR STREQUAL "${PROJECT_SOURCE_DIR}/build")
    add_test(NAME "./lab run builds the atomic-in-a-loop kernel, which runs to its end with no finding"
      COMMAND ${CMAKE_COMMAND} -DMODE=lab -DLAB=${PROJECT_SOURCE_DIR}/lab
              -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/sync/atomic_in_loop.cu
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/atomic-loop-lab
              -P ${CMAKE_CURRENT_SOURCE_DIR}/sync/atomic_in_loop.cmake)
  endif()
endif()

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
