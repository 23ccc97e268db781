// Thrust's device-system selection in a simulator build: Thrust's device is simt's simulated GPU
// (thrust/system/simt/), so that thrust::device_vector lives in simt's device memory and
// thrust::device algorithms run on it. Thrust picks its device system from THRUST_DEVICE_SYSTEM
// and the namespace named by __THRUST_DEVICE_SYSTEM_NAMESPACE; this sets both, then reads
// Thrust's own header. Written for Thrust 1.17 (Debian's libthrust-dev), whose system layout it
// follows; a program that sets THRUST_DEVICE_SYSTEM itself keeps its choice.
#pragma once
#include <thrust/version.h>
#if !defined(THRUST_DEVICE_SYSTEM) && THRUST_VERSION >= 101700 && THRUST_VERSION < 101800
#define THRUST_DEVICE_SYSTEM_SIMT 5
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_SIMT
#define __THRUST_DEVICE_SYSTEM_NAMESPACE simt
#endif
#include_next <thrust/detail/config/device_system.h>
