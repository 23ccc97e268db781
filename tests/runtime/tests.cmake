# The runtime API a course uses, and bad input to it: CUDA's error codes, named.
