# The CUDA libraries courses use, in the simulator: cuRAND's device API, cuBLAS's common subset.
