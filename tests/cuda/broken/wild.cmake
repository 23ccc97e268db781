# A wild index: a line whose raw read runs past its array's end and on into the next array is
# that array's out-of-bounds read, reported once, not a race on the other array (check/mem.cpp,
# note_wild_access).
if(NOT SIMT_SANITIZE)
  simt_add_executable(broken_wild_index SOURCES cuda/broken/wild_index.cu SIMULATOR_ONLY)
  simt_robustness_test("A read whose index runs far past its array is that array's out-of-bounds read, not a race on the array it lands in"
    PROGRAM broken_wild_index STATUS 0
    EXPECT "^done\nsimt: out-of-bounds read of global memory 'd_nindex'\\[101\\] \\(int, 101 elements, allocated at wild_index.cu:13\\)[^\n]*\n  read by thread \\(100,0,0\\) block \\(0,0,0\\) at wild_index.cu:7\n[^\n]*\nsimt: 1 finding \\(1 out-of-bounds\\)\n$")
endif()
