# CUDA graphs: captured and explicit, ordered by their edges alone.
simt_add_executable(graphs_captured_pipeline SOURCES graphs/captured_pipeline.cu)
simt_robustness_test("A graph captured from a stream and one built from nodes with a child graph compute what their kernels would"
  PROGRAM graphs_captured_pipeline STATUS 0
  EXPECT "captured nodes: 3\ncaptured: y\\[0\\] = 10, y\\[999\\] = 10 \\(expected 10\\)\nexplicit nodes: 3, the child's type: graph\nexplicit: y\\[0\\] = 2, y\\[999\\] = 2 \\(expected 2\\)\nPASS\n${simt_clean}")
if(NOT SIMT_SANITIZE)
  simt_add_executable(graphs_unordered_nodes SOURCES graphs/unordered_nodes.cu)
  simt_robustness_test("Two kernel nodes of a graph that no edge orders race on the array both write, and the fix named is an edge"
    PROGRAM graphs_unordered_nodes STATUS 0
    EXPECT "simt: data race \\(write after write\\) on global memory 'd_a'\\[0\\][^\n]*\n  write by [^\n]* at unordered_nodes.cu:(7|12)[^\n]*\n  write by [^\n]* at unordered_nodes.cu:(7|12)[^\n]*\n  nothing orders these accesses: these kernels are nodes of one graph that no path of edges orders: add an edge between them")
endif()
simt_add_executable(graphs_capture_sync SOURCES graphs/capture_sync.cu)
simt_robustness_test("Synchronizing a stream while it is captured is refused and invalidates the capture, as in CUDA"
  PROGRAM graphs_capture_sync STATUS 0
  EXPECT "synchronize while capturing: cudaErrorStreamCaptureUnsupported\ninvalidated: yes\nend capture: cudaErrorStreamCaptureInvalidated, graph null\na new capture: cudaSuccess, x\\[0\\] = 1 \\(expected 1\\)\n.*simt: cudaStreamSynchronize: the stream is capturing[^\n]*\nsimt: cudaStreamEndCapture at capture_sync.cu:25: the capture was invalidated by cudaStreamSynchronize on the stream; no graph was made")
