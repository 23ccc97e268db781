# Several simulated devices (SIMT_DEVICES, default 4): per-device memory and default streams,
# peer copies, and kernels on different devices concurrent unless something orders them.
simt_add_executable(devices_vector_add_four_gpus SOURCES devices/vector_add_four_gpus.cu)
simt_robustness_test("A vector add split over the four default devices and gathered with peer copies is right"
  PROGRAM devices_vector_add_four_gpus STATUS 0
  EXPECT "^devices: 4\nwrong: 0 of 65536\nPASS\n${simt_clean}")
simt_robustness_test("SIMT_DEVICES sets how many devices a program finds"
  PROGRAM devices_vector_add_four_gpus ENV SIMT_DEVICES=2 STATUS 0
  EXPECT "^devices: 2\nwrong: 0 of 65536\nPASS\n${simt_clean}")
if(NOT SIMT_SANITIZE)
  simt_add_executable(devices_unsynchronised SOURCES devices/unsynchronised_devices.cu)
  simt_robustness_test("A kernel on device 1 reading what device 0's kernel writes, with nothing between them, races, and the report names the array's device"
    PROGRAM devices_unsynchronised STATUS 0
    EXPECT "simt: data race \\([a-z ]+\\) on global memory 'd_data'\\[0\\] \\(int, 256 elements, allocated on device 0 at unsynchronised_devices.cu:19\\)[^\n]*\n  [a-z]+ by thread \\(0,0,0\\) block \\(0,0,0\\) at unsynchronised_devices.cu:(7|12)[^\n]*\n  [a-z]+ by thread \\(0,0,0\\) block \\(0,0,0\\) at unsynchronised_devices.cu:(7|12)")
endif()
simt_add_executable(devices_peer_access SOURCES devices/peer_access.cu SIMULATOR_ONLY)
if(NOT SIMT_SANITIZE)
  simt_robustness_test("A kernel on device 1 reading device 0's array without peer access fails with cudaErrorIllegalAddress at its line"
    PROGRAM devices_peer_access STATUS 1
    EXPECT "^after the launch: cudaErrorIllegalAddress, out\\[255\\] = -1\n.*simt: illegal address in thread \\(0,0,0\\) block \\(0,0,0\\) at peer_access.cu:10: a read of 'd_in' \\(4 bytes at byte 0\\), which was allocated on device 0, by a kernel running on device 1, which has no access to device 0's memory.*cudaDeviceEnablePeerAccess\\(0, 0\\)")
endif()
simt_robustness_test("A kernel on device 1 reads device 0's array once peer access is enabled"
  PROGRAM devices_peer_access ARGS peer STATUS 0
  EXPECT "^after the launch: cudaSuccess, out\\[255\\] = 510\n")
simt_robustness_test("Each simulated device has its own memory: an allocation on device 0 leaves device 1's free memory whole"
  PROGRAM devices_peer_access ARGS memory STATUS 0
  EXPECT "^device 0: 64 MiB less free, device 1: 0 MiB less free, device 1 free: all\n")
