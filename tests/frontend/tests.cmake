# The front end (sim/tools/cudafe) on whole programs: declarations and launches as nvcc reads them.
