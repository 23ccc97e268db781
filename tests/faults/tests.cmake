# Kernel faults, the watchdog and Ctrl-C: each ends with CUDA's error, the thread, block and line.
