// The CUDA runtime API over the simulator: what <cuda_runtime.h> declares, with CUDA's names,
// signatures, error codes and last-error rules, so that a program written for nvcc builds here
// unchanged. Device pointers are the simulator's allocations; streams and events are simt's.
//
// Error rules, as CUDA's: every call returns a cudaError_t and also records a failure as the
// calling host thread's last error (cudaGetLastError returns and clears it, cudaPeekAtLastError
// only returns it). A kernel that fails (an exception, a deadlock, a stack overflow, a timeout)
// makes the error sticky: every later call returns cudaErrorLaunchFailure until cudaDeviceReset.
// simt also prints what went wrong, with file:line, when the error is first seen, so that a
// program that checks nothing still says why.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> or <cuda_runtime.h>, not the simulator's headers"
#endif
#include <cstddef>
#include <memory>
#include <source_location>
#include <type_traits>
#include <utility>

#include "simt/core/type_name.hpp"
#include "simt/sim/launch/launch.hpp"
#include "simt/sim/launch/stream.hpp"
#include "simt/sim/vector_types.hpp"

// What helper headers written for the toolkit test for.
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 13000
#define CUDA_VERSION 13000

/// CUDA's error codes (the subset the simulator can return), with the toolkit's values.
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchTimeout = 702,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorAssert = 710,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

/// CUDA arrays (cudaMalloc3DArray, the memory of textures) are not in the simulator: the type is
/// here so that cudaMemcpy3DParms has CUDA's fields, and a copy that names an array is refused.
struct cudaArray;
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;

/// Pitched memory, as cudaMalloc3D returns it: row y of slice z starts at
/// `(char*)ptr + (z * ysize + y) * pitch`. xsize is a row's width and ysize a slice's rows; only
/// ysize moves anything (from one slice to the next), xsize is the caller's note.
struct cudaPitchedPtr {
    void* ptr;
    std::size_t pitch;
    std::size_t xsize;
    std::size_t ysize;
};
/// The size of a 3-D region: width in bytes (in elements for a CUDA array), height in rows, depth
/// in slices.
struct cudaExtent {
    std::size_t width;
    std::size_t height;
    std::size_t depth;
};
/// A place in a 3-D object: x in bytes (in elements for a CUDA array), y a row, z a slice.
struct cudaPos {
    std::size_t x;
    std::size_t y;
    std::size_t z;
};
/// What cudaMemcpy3D copies, field for field as CUDA's (set it to zero, `= {0}`, then fill in):
/// `extent` from `srcPtr` at `srcPos` to `dstPtr` at `dstPos`.
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;  ///< not in the simulator: must be null
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;  ///< not in the simulator: must be null
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    cudaMemcpyKind kind;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz,
                                          std::size_t ysz) {
    return {d, p, xsz, ysz};
}
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return {x, y, z}; }
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return {w, h, d}; }

/// A stream or an event is a handle to simt's own; 0 is the default stream.
struct CUstream_st {
    simt::Stream stream;
};
struct CUevent_st {
    simt::Event event;
    bool recorded = false;
};
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;

#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0
#define cudaEventBlockingSync 0x1
#define cudaEventDisableTiming 0x2
#define cudaHostAllocDefault 0x0
#define cudaHostAllocPortable 0x1
#define cudaHostAllocMapped 0x2
#define cudaHostAllocWriteCombined 0x4
#define cudaMallocHostDefault 0x0
#define cudaMemAttachGlobal 0x1
#define cudaMemAttachHost 0x2
#define cudaMemAttachSingle 0x4
#define cudaDeviceScheduleAuto 0x0
#define cudaDeviceScheduleSpin 0x1
#define cudaDeviceScheduleYield 0x2
#define cudaDeviceScheduleBlockingSync 0x4
#define cudaDeviceMapHost 0x8
#define cudaDeviceLmemResizeToMax 0x10
/// The device numbers that stand for the host, and for none, in managed-memory hints.
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

/// The device description, field for field as CUDA 13's cudaDeviceProp (clockRate,
/// memoryClockRate, computeMode and the other fields it dropped are cudaDeviceGetAttribute's
/// now, as there). The simulator fills it with its GPU model's published values (api/device.cpp).
struct cudaUUID_t {
    char bytes[16];
};
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    std::size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    std::size_t totalConstMem;
    int major;
    int minor;
    std::size_t textureAlignment;
    std::size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    std::size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    std::size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    std::size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    std::size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/// Every attribute of CUDA 13's cudaDeviceAttr, with the toolkit's values.
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrReserved92 = 92,
    cudaDevAttrReserved93 = 93,
    cudaDevAttrReserved94 = 94,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrReserved96 = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrReserved122 = 122,
    cudaDevAttrReserved123 = 123,
    cudaDevAttrReserved124 = 124,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrReserved127 = 127,
    cudaDevAttrReserved128 = 128,
    cudaDevAttrReserved129 = 129,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrReserved132 = 132,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrReserved141 = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrReserved145 = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
    cudaDevAttrMax
};

enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3,
};

/// Managed-memory hints (cudaMemAdvise) and where memory is meant to be (CUDA 13's spelling of a
/// device for cudaMemPrefetchAsync and cudaMemAdvise).
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6,
};
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
    cudaMemLocationType type;
    int id;
};

// Memory. Each allocation call refuses what the simulated device could not hold (more than its
// totalGlobalMem, or a size that overflowed) with cudaErrorMemoryAllocation and a message.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              std::source_location site = std::source_location::current());
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height,
                            std::source_location site = std::source_location::current());
/// extent.depth slices of extent.height rows of extent.width bytes, each row padded to the pitch
/// cudaMallocPitch gives (512 bytes: `make_cudaExtent(100 * sizeof(float), 64, 8)` gives pitch
/// 512, xsize 400, ysize 64, and 512 * 64 * 8 bytes).
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent,
                         std::source_location site = std::source_location::current());
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream,
                            std::source_location site = std::source_location::current());
cudaError_t cudaFree(void* ptr, std::source_location site = std::source_location::current());
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream,
                          std::source_location site = std::source_location::current());
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes,
                           std::source_location site = std::source_location::current());
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes, unsigned flags,
                           std::source_location site = std::source_location::current());
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags,
                          std::source_location site = std::source_location::current());
cudaError_t cudaFreeHost(void* ptr, std::source_location site = std::source_location::current());
/// Memory from cudaHostAlloc is the device's too: in the simulator, at the same address.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned flags,
                                     std::source_location site = std::source_location::current());
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);

// Managed-memory hints. The simulator has one memory, so they move nothing, but they check their
// arguments as CUDA does: a pointer cudaMallocManaged returned, a range inside it, a device that
// exists (or cudaCpuDeviceId). Both CUDA 13's form (a cudaMemLocation) and the classic one (an int
// device, which CUDA 13 removed) are here.
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device,
                                 cudaStream_t stream = nullptr,
                                 std::source_location site = std::source_location::current());
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location,
                                 unsigned flags, cudaStream_t stream = nullptr,
                                 std::source_location site = std::source_location::current());
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device,
                          std::source_location site = std::source_location::current());
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location,
                          std::source_location site = std::source_location::current());
// The trailing `site` (defaulted: a program never passes it) names the caller's line in messages.
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr,
                            std::source_location site = std::source_location::current());
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes,
                       std::source_location site = std::source_location::current());
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr,
                            std::source_location site = std::source_location::current());
// 2-D and 3-D: rows of `width` bytes, `pitch` bytes apart, and slices of ysize rows. A copy's pitch
// below the width, or above cudaDevAttrMaxPitch, is cudaErrorInvalidPitchValue (a memset's:
// cudaErrorInvalidValue, as CUDA documents); a region that runs past its allocation, past a row
// (x + width > pitch) or, with depth > 1, past a slice (y + height > ysize) is
// cudaErrorInvalidValue. The padding between rows is neither copied nor set. The Async forms wait
// and run at once, as cudaMemcpyAsync does here, and a capturing stream refuses them.
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind,
                         std::source_location site = std::source_location::current());
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current());
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p,
                         std::source_location site = std::source_location::current());
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current());
cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width,
                         std::size_t height,
                         std::source_location site = std::source_location::current());
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width,
                              std::size_t height, cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current());
cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent,
                         std::source_location site = std::source_location::current());
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitched, int value, cudaExtent extent,
                              cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current());

namespace simt::sim::detail {
/// cudaMalloc and its kin, told the element type when the call shows it, so that reports index
/// the array by element ('d_a'[1000] of float) and not by byte. `call` names it in messages.
cudaError_t cuda_malloc(void** ptr, std::size_t bytes, std::size_t elem_size, const char* elem_type,
                        bool managed, std::source_location site, const char* call = nullptr);
/// cudaMallocPitch (and cudaMalloc3D, `call`): rows of `width` bytes, each padded to the
/// returned pitch.
cudaError_t cuda_malloc_pitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height,
                              std::size_t elem_size, const char* elem_type,
                              std::source_location site, const char* call = "cudaMallocPitch");
/// Elements or bytes, by simt::detail::checked_as_element.
template <class T>
constexpr std::size_t cuda_elem_size = simt::detail::checked_as_element<T> ? sizeof(T) : 1;
template <class T>
const char* cuda_elem_type() {
    if constexpr (simt::detail::checked_as_element<T>) return simt::detail::type_name<T>();
    else return "byte";
}
}  // namespace simt::sim::detail

// The typed overloads the toolkit's cuda_runtime.h gives every allocation function, so that
// `cudaMalloc(&float_ptr, bytes)` and `cudaHostAlloc(&float_ptr, bytes, flags)` compile.
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes,
                       std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    return cuda_malloc(reinterpret_cast<void**>(ptr), bytes, cuda_elem_size<T>, cuda_elem_type<T>(),
                       false, site);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags, site);
    return cuda_malloc(reinterpret_cast<void**>(ptr), bytes, cuda_elem_size<T>, cuda_elem_type<T>(),
                       true, site);
}
template <class T>
cudaError_t cudaMallocPitch(T** ptr, std::size_t* pitch, std::size_t width, std::size_t height,
                            std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    return cuda_malloc_pitch(reinterpret_cast<void**>(ptr), pitch, width, height,
                             cuda_elem_size<T>, cuda_elem_type<T>(), site);
}
/// The memory is there at once, which is all that stream order promises.
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaStream_t,
                            std::source_location site = std::source_location::current()) {
    using namespace simt::sim::detail;
    return cuda_malloc(reinterpret_cast<void**>(ptr), bytes, cuda_elem_size<T>, cuda_elem_type<T>(),
                       false, site, "cudaMallocAsync");
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes, unsigned flags = cudaMallocHostDefault,
                           std::source_location site = std::source_location::current()) {
    return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes, flags, site);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned flags,
                          std::source_location site = std::source_location::current()) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags, site);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned flags,
                                     std::source_location site = std::source_location::current()) {
    return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags, site);
}

namespace simt::sim::detail {
/// cudaMemcpyToSymbol (`to_symbol`) and cudaMemcpyFromSymbol: `other` is the source or the
/// destination.
cudaError_t cuda_memcpy_symbol(const void* symbol, void* other, std::size_t bytes,
                               std::size_t offset, cudaMemcpyKind kind, bool to_symbol,
                               std::source_location site);
/// cudaGetSymbolAddress (`address` set) and cudaGetSymbolSize (`bytes` set).
cudaError_t cuda_symbol(const void* symbol, void** address, std::size_t* bytes,
                        std::source_location site);
}  // namespace simt::sim::detail

// `__device__` and `__constant__` variables (memory/symbol.hpp): `symbol` is the variable itself.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                               std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_memcpy_symbol(&symbol, const_cast<void*>(src), bytes, offset,
                                                 kind, true, site);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_memcpy_symbol(&symbol, dst, bytes, offset, kind, false, site);
}
// The Async forms wait and copy at once, as cudaMemcpyAsync does here (api/memory.cpp).
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = nullptr,
                                    std::source_location site = std::source_location::current()) {
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind, site);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = nullptr,
                                      std::source_location site = std::source_location::current()) {
    return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind, site);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_symbol(&symbol, address, nullptr, site);
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T& symbol,
                              std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_symbol(&symbol, nullptr, bytes, site);
}

// The device and errors.
cudaError_t cudaDeviceSynchronize();
/// Several devices (SIMT_DEVICES, default 4): each the simulated GPU, with memory and a stream 0
/// of its own, in one address space, so that peer access is always possible.
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                           std::size_t bytes,
                           std::source_location site = std::source_location::current());
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                std::size_t bytes, cudaStream_t stream = nullptr,
                                std::source_location site = std::source_location::current());
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

// Streams and events.
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// Kernel attributes. The simulator runs any kernel with any register count; what it keeps is the
// opt-in to more than 48 KiB of dynamic shared memory, for every kernel at once (it cannot tell
// the kernel of a <<<>>> launch by its address: docs/porting.md).
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
};
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
};
struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;  ///< static shared memory: unknown until the kernel runs, 0
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};
namespace simt::sim::detail {
cudaError_t cuda_func_set_attribute(cudaFuncAttribute attr, int value, std::source_location site);
cudaError_t cuda_func_get_attributes(cudaFuncAttributes* attr);
}  // namespace simt::sim::detail
template <class F>
cudaError_t cudaFuncSetAttribute(F* /*kernel*/, cudaFuncAttribute attr, int value,
                                 std::source_location site = std::source_location::current()) {
    return simt::sim::detail::cuda_func_set_attribute(attr, value, site);
}
template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F* /*kernel*/) {
    return simt::sim::detail::cuda_func_get_attributes(attr);
}
// Cache and bank preferences change speed on a GPU, never results: nothing to do here.
template <class F>
cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }

// Profiler ranges (<cuda_profiler_api.h>): nothing to profile in the simulator.
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

namespace simt::sim::detail {

/// Checks a <<<>>> launch before it is queued: a configuration CUDA refuses is printed with the
/// launch's file:line and becomes the last error (cudaErrorInvalidValue, as CUDA 13); a sticky
/// error refuses every launch. True when the launch may go ahead. `shared_optin` is set when the
/// dynamic shared memory is above 48 KiB but within what cudaFuncSetAttribute allowed.
bool cuda_launch_allowed(dim3 grid, dim3 block, std::size_t shared_bytes, std::source_location site,
                         bool& shared_optin);
/// The stream a launch or copy goes to (stream 0: the current device's).
const simt::Stream* cuda_stream(cudaStream_t s);
/// The calling host thread's device (cudaSetDevice), and whether any but device 0 was used.
int cuda_current_device();
bool cuda_several_devices();

/// What the front end puts on the lambda of a <<<>>> launch, which only passes the launch's
/// arguments to the kernel: with the raw-access instrumentation, its loads of those arguments
/// (the simulator's copies, never device memory) would each be a hook call per thread. Not
/// instrumented, it inlines into the thread loop, which is not either, and calls the kernel,
/// which stays instrumented (GCC and Clang inline neither into the other).
#define SIMT_LAUNCH_THUNK __attribute__((no_sanitize_thread))

/// A kernel call with its pointer arguments beside it, as the front end writes a <<<>>> launch.
template <class F>
struct KernelCall {
    F call;
    PointerArgs pointers;
};
template <class F, class... A>
KernelCall<F> kernel_call(F call, const A&... args) {
    return {std::move(call), pointer_args(args...)};
}

}  // namespace simt::sim::detail

namespace simt::detail {

/// What `kernel<<<grid, block, shared_bytes, stream>>>(args)` becomes in a simulator build (the
/// front end, sim/frontend, writes the call): the configuration here, then the kernel call.
class CudaLaunch {
public:
    CudaLaunch(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
               std::source_location site)
        : grid_(grid), block_(block), shared_bytes_(shared_bytes), stream_(stream), site_(site) {}

    template <class F>
    void operator()(F&& call) const {
        launch(std::forward<F>(call), {});
    }
    template <class F>
    void operator()(sim::detail::KernelCall<F>&& call) const {
        launch(std::move(call.call), call.pointers);
    }

private:
    template <class F>
    void launch(F&& call, const sim::detail::PointerArgs& pointers) const {
        namespace sd = sim::detail;
        bool optin = false;
        if (!sd::cuda_launch_allowed(grid_, block_, shared_bytes_, site_, optin)) return;
        sd::enqueue_launch(sd::cuda_stream(stream_),
                           sd::make_launch(grid_, block_, shared_bytes_, optin,
                                           std::forward<F>(call), site_, pointers));
    }

    dim3 grid_, block_;
    std::size_t shared_bytes_;
    cudaStream_t stream_;
    std::source_location site_;
};

inline CudaLaunch cuda_launch(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                              cudaStream_t stream = nullptr,
                              std::source_location site = std::source_location::current()) {
    return {grid, block, shared_bytes, stream, site};
}

}  // namespace simt::detail
