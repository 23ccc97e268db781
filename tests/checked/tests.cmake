# The checked access path (sim/src/check/raw_access.cpp, race.cpp): the race rule called straight
# from the access hook, with its early exit for an access the shadow cell already holds. Each case
# repeats an access in all but one respect and asserts the finding's kind and lines, or that there
# is none; each runs with racecheck alone on the direct path and with the profiler on too, whose
# accesses take the checker seam. Its accesses are raw ones, which AddressSanitizer builds
# (SIMT_SANITIZE) do not instrument.
if(SIMT_SANITIZE)
  return()
endif()
simt_add_executable(checked_same_access SOURCES checked/same_access.cu SIMULATOR_ONLY)

foreach(path IN ITEMS "direct;SIMT_PROFILE=off" "through the checker seam;SIMT_PROFILE=text")
  list(GET path 0 how)
  list(GET path 1 profile)
  simt_robustness_test("A read then a write of one element by one thread are both recorded, so another thread's read races with the write (${how})"
    PROGRAM checked_same_access ARGS read-then-write ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\(read after write\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(32,0,0\\) block \\(0,0,0\\) at same_access.cu:18\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:15")
  simt_robustness_test("A read then a write of one element by one thread, then a barrier, then another thread's read, is no race (${how})"
    PROGRAM checked_same_access ARGS read-then-write-barrier ENV ${profile} STATUS 0
    EXPECT "(^|\n)findings: 0\n")
  simt_robustness_test("The same write by thread 0 of two blocks is a write after write between the blocks (${how})"
    PROGRAM checked_same_access ARGS two-blocks ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\(write after write\\) on global memory 'out'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(1,0,0\\) at same_access.cu:23\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:23")
  simt_robustness_test("The same write by one thread in the next barrier interval races with a read in that interval (${how})"
    PROGRAM checked_same_access ARGS after-barrier ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\(read after write\\) on shared memory 'tile'\\[0\\][^\n]*\n  read by thread \\(32,0,0\\) block \\(0,0,0\\) at same_access.cu:33\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:32")
  simt_robustness_test("The same store launched on two streams races with itself (${how})"
    PROGRAM checked_same_access ARGS two-streams ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\(write after write\\) on global memory 'data'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:40 \\(in the kernel launched at same_access.cu:45\\)\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:40 \\(in the kernel launched at same_access.cu:45\\)")
  simt_robustness_test("The same store launched twice on one stream is no race (${how})"
    PROGRAM checked_same_access ARGS one-stream ENV ${profile} STATUS 0
    EXPECT "(^|\n)findings: 0\n")
  # A launch's first access to an element, with only earlier launches' stamps in the cell, has a
  # shorter path when every earlier launch happens before it (race.cpp, only_earlier_launches).
  # Which stream's kernel runs first is up to timing: the report is a RAW or a WAR.
  simt_robustness_test("A store ordered after an earlier launch still races with a read on a stream that nothing orders after it (${how})"
    PROGRAM checked_same_access ARGS ordered-then-other-stream ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\((read after write\\) on global memory 'data'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:49 \\(in the kernel launched at same_access.cu:101\\)\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:40 \\(in the kernel launched at same_access.cu:45\\)|write after read\\) on global memory 'data'\\[0\\][^\n]*\n  write by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:40 \\(in the kernel launched at same_access.cu:45\\)\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:49 \\(in the kernel launched at same_access.cu:101\\))")
  simt_robustness_test("A launch's first read of an element nothing wrote, after an ordered launch, is an uninitialised read (${how})"
    PROGRAM checked_same_access ARGS unwritten-after-a-launch ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: uninitialized read of global memory 'unwritten'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(0,0,0\\) at same_access.cu:49")
  # Shared memory has a shortcut of its own (race.cpp, settle_shared): stamps of another block are
  # dropped, and those a barrier or program order orders are settled without the whole rule.
  simt_robustness_test("A shared read that a barrier orders after a write still races with another thread's write after it (${how})"
    PROGRAM checked_same_access ARGS shared-read-then-write ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: data race \\(write after read\\) on shared memory 's'\\[0\\][^\n]*\n  write by thread \\(64,0,0\\) block \\(0,0,0\\) at same_access.cu:59\n  read by thread \\(32,0,0\\) block \\(0,0,0\\) at same_access.cu:58")
  simt_robustness_test("A block's read of a shared element that only another block wrote is an uninitialised read (${how})"
    PROGRAM checked_same_access ARGS shared-another-block ENV ${profile} STATUS 0
    EXPECT "^findings: 1\nsimt: uninitialized read of shared memory 's'\\[0\\][^\n]*\n  read by thread \\(0,0,0\\) block \\(1,0,0\\) at same_access.cu:67")
endforeach()
