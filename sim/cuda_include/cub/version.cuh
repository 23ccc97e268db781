// <cub/version.cuh> in a simulator build. simt's CUB gives the interfaces of CUB 1.17 (Debian's)
// through 3 (the toolkit's) that docs/porting.md lists; it reports the version of the first.
#pragma once
#define CUB_VERSION 101702
#define CUB_MAJOR_VERSION (CUB_VERSION / 100000)
#define CUB_MINOR_VERSION (CUB_VERSION / 100 % 1000)
#define CUB_SUBMINOR_VERSION (CUB_VERSION % 100)
#define CUB_PATCH_NUMBER 0
