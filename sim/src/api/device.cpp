// The runtime API's devices: choosing one, peers, properties and attributes, flags and
// versions, waiting for all work and resetting, and kernels' attributes.
#include <cstring>
#include <memory>
#include <mutex>
#include <set>

#include "../device/model.hpp"
#include "../device/occupancy.hpp"
#include "cuda_api.hpp"
#include "../launch/streams.hpp"
#include "../check/checker.hpp"

namespace simt::sim::detail {

int& current_device() {
    thread_local int d = 0;
    return d;
}
std::atomic<bool> several_devices{false};

CUstream_st* legacy_stream(int device) {
    static std::mutex m;
    static std::unique_ptr<CUstream_st> streams[16];
    std::lock_guard lock(m);
    if (!streams[device]) {
        streams[device] = std::make_unique<CUstream_st>();
        streams[device]->stream.impl().device = device;
        streams[device]->stream.impl().legacy = true;
    }
    return streams[device].get();
}

unsigned& device_flags() {
    static unsigned flags = 0;
    return flags;
}

const simt::Stream* cuda_stream(cudaStream_t s) {
    if (s) return &s->stream;
    return current_device() == 0 ? nullptr : &legacy_stream(current_device())->stream;
}

int cuda_current_device() { return current_device(); }
bool cuda_several_devices() { return several_devices.load(std::memory_order_relaxed); }

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

cudaError_t cudaDeviceSynchronize() { return collect([] { simt::synchronize(); }); }

cudaError_t cudaDeviceReset() {
    try {
        simt::synchronize();
    } catch (
        const simt::Error&) {  // already reported when it happened, or now dropped by the reset
    }
    std::vector<Allocation*> all;
    {
        CudaRuntime& r = runtime();
        std::lock_guard lock(r.m);
        for (auto& [base, a] : r.live) all.push_back(a);
        r.live.clear();
        r.sticky = cudaSuccess;
    }
    for (Allocation* a : all) release(a);
    last_error() = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return fail(cudaErrorInvalidValue, "");
    *count = simt::sim::config().devices;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return fail(cudaErrorInvalidValue, "");
    *device = current_device();
    return cudaSuccess;
}

namespace {
cudaError_t invalid_device(const char* call, int device, int from_device = -1,
                           std::source_location site = {}) {
    ApiErrorDraft e;
    e.problem = ApiErrorDraft::Problem::no_device;
    e.call = call;
    e.site = site;
    e.value = device;
    e.from_device = from_device;
    e.devices = simt::sim::config().devices;
    return fail(cudaErrorInvalidDevice, api_error_text(e));
}
cudaError_t refused(ApiErrorDraft::Problem problem, const char* call, long long value,
                    const char* accepted = "") {
    ApiErrorDraft e;
    e.problem = problem;
    e.call = call;
    e.value = value;
    e.accepted = accepted;
    return fail(cudaErrorInvalidValue, api_error_text(e));
}
bool valid_device(int device) { return device >= 0 && device < simt::sim::config().devices; }
}  // namespace

cudaError_t cudaSetDevice(int device) {
    if (!valid_device(device))
        return invalid_device("cudaSetDevice", device);
    current_device() = device;
    if (device != 0) several_devices = true;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
    if (!can)
        return fail(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer: the result pointer is null");
    if (!valid_device(device)) return invalid_device("cudaDeviceCanAccessPeer", device);
    if (!valid_device(peer)) return invalid_device("cudaDeviceCanAccessPeer", peer);
    *can = device != peer;  // the simulated devices share one address space, as NVLink peers do
    return cudaSuccess;
}

namespace {
/// Per device, the peers whose memory its kernels may read (cudaDeviceEnablePeerAccess).
std::mutex peers_m;
std::set<std::pair<int, int>> peers;
}  // namespace

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
    if (flags != 0)
        return fail(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess: flags must be 0");
    if (!valid_device(peer) || peer == current_device())
        return invalid_device("cudaDeviceEnablePeerAccess", peer, current_device());
    std::lock_guard lock(peers_m);
    if (!peers.insert({current_device(), peer}).second)
        return fail(cudaErrorPeerAccessAlreadyEnabled, "");
    peer_device_bits[current_device()].fetch_or(static_cast<std::uint16_t>(1u << peer));
    return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer) {
    if (!valid_device(peer)) return invalid_device("cudaDeviceDisablePeerAccess", peer);
    std::lock_guard lock(peers_m);
    if (peers.erase({current_device(), peer}) == 0) return fail(cudaErrorPeerAccessNotEnabled, "");
    peer_device_bits[current_device()].fetch_and(static_cast<std::uint16_t>(~(1u << peer)));
    return cudaSuccess;
}

cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                           std::size_t bytes, std::source_location site) {
    if (!valid_device(dst_device)) return invalid_device("cudaMemcpyPeer", dst_device, -1, site);
    if (!valid_device(src_device)) return invalid_device("cudaMemcpyPeer", src_device, -1, site);
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice, site);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                std::size_t bytes, cudaStream_t stream, std::source_location site) {
    if (!valid_device(dst_device))
        return invalid_device("cudaMemcpyPeerAsync", dst_device, -1, site);
    if (!valid_device(src_device))
        return invalid_device("cudaMemcpyPeerAsync", src_device, -1, site);
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream, site);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop)
        return fail(cudaErrorInvalidValue, "cudaGetDeviceProperties: the result pointer is null");
    if (!valid_device(device)) return invalid_device("cudaGetDeviceProperties", device);
    const simt::DeviceProperties p = simt::device_properties();
    cudaDeviceProp& d = *prop;
    d = cudaDeviceProp{};
    std::snprintf(d.name, sizeof d.name, "%s", p.name.c_str());
    std::memcpy(d.uuid.bytes, "simt-sim-device0", sizeof d.uuid.bytes);
    d.uuid.bytes[15] = static_cast<char>('0' + device % 10);
    d.pciBusID = device;
    d.totalGlobalMem = p.total_global_mem;
    d.sharedMemPerBlock = p.shared_mem_per_block;
    d.regsPerBlock = p.regs_per_block;
    d.warpSize = p.warp_size;
    d.memPitch = max_pitch;
    d.maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
        d.maxThreadsDim[i] = p.max_threads_dim[i];
        d.maxGridSize[i] = static_cast<int>(p.max_grid_size[i]);
    }
    d.totalConstMem = p.total_const_mem;
    d.major = p.major;
    d.minor = p.minor;
    d.textureAlignment = 512;
    d.texturePitchAlignment = 32;
    d.multiProcessorCount = p.multi_processor_count;
    d.integrated = 0;
    d.canMapHostMemory = 1;
    // Texture and surface limits (the CUDA programming guide's table): the same for every compute
    // capability from 5.0 to 9.0, so for every model SIMT_DEVICE offers.
    d.maxTexture1D = 131072;
    d.maxTexture1DMipmap = 32768;
    d.maxTexture2D[0] = 131072, d.maxTexture2D[1] = 65536;
    d.maxTexture2DMipmap[0] = d.maxTexture2DMipmap[1] = 32768;
    d.maxTexture2DLinear[0] = 131072, d.maxTexture2DLinear[1] = 65000,
    d.maxTexture2DLinear[2] = 2097120;
    d.maxTexture2DGather[0] = d.maxTexture2DGather[1] = 32768;
    d.maxTexture3D[0] = d.maxTexture3D[1] = d.maxTexture3D[2] = 16384;
    d.maxTexture3DAlt[0] = d.maxTexture3DAlt[1] = 8192, d.maxTexture3DAlt[2] = 32768;
    d.maxTextureCubemap = 32768;
    d.maxTexture1DLayered[0] = 32768, d.maxTexture1DLayered[1] = 2048;
    d.maxTexture2DLayered[0] = d.maxTexture2DLayered[1] = 32768, d.maxTexture2DLayered[2] = 2048;
    d.maxTextureCubemapLayered[0] = 32768, d.maxTextureCubemapLayered[1] = 2046;
    d.maxSurface1D = 32768;
    d.maxSurface2D[0] = 131072, d.maxSurface2D[1] = 65536;
    d.maxSurface3D[0] = d.maxSurface3D[1] = d.maxSurface3D[2] = 16384;
    d.maxSurface1DLayered[0] = 32768, d.maxSurface1DLayered[1] = 2048;
    d.maxSurface2DLayered[0] = d.maxSurface2DLayered[1] = 32768, d.maxSurface2DLayered[2] = 2048;
    d.maxSurfaceCubemap = 32768;
    d.maxSurfaceCubemapLayered[0] = 32768, d.maxSurfaceCubemapLayered[1] = 2046;
    d.surfaceAlignment = 512;
    d.concurrentKernels = 1;
    d.ECCEnabled = 1;
    d.asyncEngineCount = p.async_engine_count;
    d.unifiedAddressing = 1;
    d.memoryBusWidth = p.memory_bus_width;
    d.l2CacheSize = p.l2_cache_size;
    d.persistingL2CacheMaxSize = p.persisting_l2_cache_max_size;
    d.maxThreadsPerMultiProcessor = p.max_threads_per_multiprocessor;
    d.streamPrioritiesSupported = 1;
    d.globalL1CacheSupported = 1;
    d.localL1CacheSupported = 1;
    d.sharedMemPerMultiprocessor = p.shared_mem_per_multiprocessor;
    d.regsPerMultiprocessor = p.regs_per_multiprocessor;
    d.managedMemory = 1;
    d.concurrentManagedAccess = 1;
    d.computePreemptionSupported = 1;
    d.canUseHostPointerForRegisteredMem = 1;
    d.cooperativeLaunch = 1;
    d.sharedMemPerBlockOptin = p.shared_mem_per_block_optin;
    d.directManagedMemAccessFromHost = 0;
    d.maxBlocksPerMultiProcessor = p.max_blocks_per_multiprocessor;
    d.accessPolicyMaxWindowSize = 134213632;
    d.reservedSharedMemPerBlock = p.reserved_shared_mem_per_block;
    d.hostRegisterSupported = 1;
    d.sparseCudaArraySupported = 1;
    d.hostRegisterReadOnlySupported = 1;
    d.timelineSemaphoreInteropSupported = 1;
    d.memoryPoolsSupported = 1;
    d.memoryPoolSupportedHandleTypes = 1;  // POSIX file descriptors
    d.ipcEventSupported = 1;
    d.deviceNumaId = -1;
    d.hostNumaId = -1;
    d.gpuPciDeviceID = p.pci_device_id << 16 | 0x10DEu;  // the modelled GPU's device and vendor ids
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (!value)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: the result pointer is null");
    cudaDeviceProp p;
    if (cudaError_t e = cudaGetDeviceProperties(&p, device)) return e;
    const simt::DeviceProperties own = simt::device_properties();
    auto narrow = [](std::size_t v) { return static_cast<int>(v); };
    int v = 0;
    switch (attr) {
        case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
        case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
        case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
        case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
        case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
        case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
        case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
        case cudaDevAttrMaxSharedMemoryPerBlock: v = narrow(p.sharedMemPerBlock); break;
        case cudaDevAttrTotalConstantMemory: v = narrow(p.totalConstMem); break;
        case cudaDevAttrWarpSize: v = p.warpSize; break;
        case cudaDevAttrMaxPitch: v = narrow(p.memPitch); break;
        case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
        case cudaDevAttrClockRate: v = own.clock_rate_khz; break;
        case cudaDevAttrTextureAlignment: v = narrow(p.textureAlignment); break;
        case cudaDevAttrGpuOverlap: v = 1; break;
        case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
        case cudaDevAttrKernelExecTimeout: v = 0; break;
        case cudaDevAttrIntegrated: v = p.integrated; break;
        case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
        case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
        case cudaDevAttrMaxTexture1DWidth: v = p.maxTexture1D; break;
        case cudaDevAttrMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
        case cudaDevAttrMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
        case cudaDevAttrMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
        case cudaDevAttrMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
        case cudaDevAttrMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
        case cudaDevAttrMaxTexture2DLayeredWidth: v = p.maxTexture2DLayered[0]; break;
        case cudaDevAttrMaxTexture2DLayeredHeight: v = p.maxTexture2DLayered[1]; break;
        case cudaDevAttrMaxTexture2DLayeredLayers: v = p.maxTexture2DLayered[2]; break;
        case cudaDevAttrSurfaceAlignment: v = narrow(p.surfaceAlignment); break;
        case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
        case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
        case cudaDevAttrPciBusId: v = p.pciBusID; break;
        case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
        case cudaDevAttrTccDriver: v = p.tccDriver; break;
        case cudaDevAttrMemoryClockRate: v = own.memory_clock_rate_khz; break;
        case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
        case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
        case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
        case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
        case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
        case cudaDevAttrMaxTexture1DLayeredWidth: v = p.maxTexture1DLayered[0]; break;
        case cudaDevAttrMaxTexture1DLayeredLayers: v = p.maxTexture1DLayered[1]; break;
        case cudaDevAttrMaxTexture2DGatherWidth: v = p.maxTexture2DGather[0]; break;
        case cudaDevAttrMaxTexture2DGatherHeight: v = p.maxTexture2DGather[1]; break;
        case cudaDevAttrMaxTexture3DWidthAlt: v = p.maxTexture3DAlt[0]; break;
        case cudaDevAttrMaxTexture3DHeightAlt: v = p.maxTexture3DAlt[1]; break;
        case cudaDevAttrMaxTexture3DDepthAlt: v = p.maxTexture3DAlt[2]; break;
        case cudaDevAttrPciDomainId: v = p.pciDomainID; break;
        case cudaDevAttrTexturePitchAlignment: v = narrow(p.texturePitchAlignment); break;
        case cudaDevAttrMaxTextureCubemapWidth: v = p.maxTextureCubemap; break;
        case cudaDevAttrMaxTextureCubemapLayeredWidth: v = p.maxTextureCubemapLayered[0]; break;
        case cudaDevAttrMaxTextureCubemapLayeredLayers: v = p.maxTextureCubemapLayered[1]; break;
        case cudaDevAttrMaxSurface1DWidth: v = p.maxSurface1D; break;
        case cudaDevAttrMaxSurface2DWidth: v = p.maxSurface2D[0]; break;
        case cudaDevAttrMaxSurface2DHeight: v = p.maxSurface2D[1]; break;
        case cudaDevAttrMaxSurface3DWidth: v = p.maxSurface3D[0]; break;
        case cudaDevAttrMaxSurface3DHeight: v = p.maxSurface3D[1]; break;
        case cudaDevAttrMaxSurface3DDepth: v = p.maxSurface3D[2]; break;
        case cudaDevAttrMaxSurface1DLayeredWidth: v = p.maxSurface1DLayered[0]; break;
        case cudaDevAttrMaxSurface1DLayeredLayers: v = p.maxSurface1DLayered[1]; break;
        case cudaDevAttrMaxSurface2DLayeredWidth: v = p.maxSurface2DLayered[0]; break;
        case cudaDevAttrMaxSurface2DLayeredHeight: v = p.maxSurface2DLayered[1]; break;
        case cudaDevAttrMaxSurface2DLayeredLayers: v = p.maxSurface2DLayered[2]; break;
        case cudaDevAttrMaxSurfaceCubemapWidth: v = p.maxSurfaceCubemap; break;
        case cudaDevAttrMaxSurfaceCubemapLayeredWidth: v = p.maxSurfaceCubemapLayered[0]; break;
        case cudaDevAttrMaxSurfaceCubemapLayeredLayers: v = p.maxSurfaceCubemapLayered[1]; break;
        case cudaDevAttrMaxTexture1DLinearWidth: v = 268435456; break;
        case cudaDevAttrMaxTexture2DLinearWidth: v = p.maxTexture2DLinear[0]; break;
        case cudaDevAttrMaxTexture2DLinearHeight: v = p.maxTexture2DLinear[1]; break;
        case cudaDevAttrMaxTexture2DLinearPitch: v = p.maxTexture2DLinear[2]; break;
        case cudaDevAttrMaxTexture2DMipmappedWidth: v = p.maxTexture2DMipmap[0]; break;
        case cudaDevAttrMaxTexture2DMipmappedHeight: v = p.maxTexture2DMipmap[1]; break;
        case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
        case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
        case cudaDevAttrMaxTexture1DMipmappedWidth: v = p.maxTexture1DMipmap; break;
        case cudaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
        case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
        case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
            v = narrow(p.sharedMemPerMultiprocessor);
            break;
        case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
        case cudaDevAttrManagedMemory: v = p.managedMemory; break;
        case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
        case cudaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
        case cudaDevAttrHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
        case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = gpu_model().fp64_ratio; break;
        case cudaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; break;
        case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
        case cudaDevAttrComputePreemptionSupported: v = p.computePreemptionSupported; break;
        case cudaDevAttrCanUseHostPointerForRegisteredMem:
            v = p.canUseHostPointerForRegisteredMem;
            break;
        case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = narrow(p.sharedMemPerBlockOptin); break;
        case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
        case cudaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; break;
        case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
            v = p.pageableMemoryAccessUsesHostPageTables;
            break;
        case cudaDevAttrDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; break;
        case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
        case cudaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; break;
        case cudaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; break;
        case cudaDevAttrReservedSharedMemoryPerBlock:
            v = narrow(p.reservedSharedMemPerBlock);
            break;
        case cudaDevAttrSparseCudaArraySupported: v = p.sparseCudaArraySupported; break;
        case cudaDevAttrHostRegisterReadOnlySupported: v = p.hostRegisterReadOnlySupported; break;
        case cudaDevAttrTimelineSemaphoreInteropSupported:
            v = p.timelineSemaphoreInteropSupported;
            break;
        case cudaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
        case cudaDevAttrGPUDirectRDMASupported: v = p.gpuDirectRDMASupported; break;
        case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
            v = static_cast<int>(p.gpuDirectRDMAFlushWritesOptions);
            break;
        case cudaDevAttrGPUDirectRDMAWritesOrdering: v = p.gpuDirectRDMAWritesOrdering; break;
        case cudaDevAttrMemoryPoolSupportedHandleTypes:
            v = static_cast<int>(p.memoryPoolSupportedHandleTypes);
            break;
        case cudaDevAttrClusterLaunch: v = p.clusterLaunch; break;
        case cudaDevAttrDeferredMappingCudaArraySupported:
            v = p.deferredMappingCudaArraySupported;
            break;
        case cudaDevAttrIpcEventSupport: v = p.ipcEventSupported; break;
        case cudaDevAttrMemSyncDomainCount: v = 1; break;
        case cudaDevAttrNumaConfig: v = p.deviceNumaConfig; break;
        case cudaDevAttrNumaId: v = p.deviceNumaId; break;
        case cudaDevAttrMpsEnabled: v = p.mpsEnabled; break;
        case cudaDevAttrHostNumaId: v = p.hostNumaId; break;
        case cudaDevAttrD3D12CigSupported: v = 0; break;
        case cudaDevAttrVulkanCigSupported: v = 0; break;
        case cudaDevAttrGpuPciDeviceId: v = static_cast<int>(p.gpuPciDeviceID); break;
        case cudaDevAttrGpuPciSubsystemId: v = static_cast<int>(p.gpuPciSubsystemID); break;
        case cudaDevAttrHostNumaMemoryPoolsSupported: v = 0; break;
        case cudaDevAttrHostNumaMultinodeIpcSupported: v = p.hostNumaMultinodeIpcSupported; break;
        case cudaDevAttrHostMemoryPoolsSupported: v = 0; break;
        case cudaDevAttrOnlyPartialHostNativeAtomicSupported: v = 0; break;
        default:  // the reserved numbers, cudaDevAttrMax, and numbers that are no attribute
            return refused(ApiErrorDraft::Problem::not_an_attribute, "cudaDeviceGetAttribute",
                           int(attr));
    }
    *value = v;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags) {
    if (flags & ~unsigned(cudaDeviceScheduleSpin | cudaDeviceScheduleYield |
                          cudaDeviceScheduleBlockingSync | cudaDeviceMapHost |
                          cudaDeviceLmemResizeToMax))
        return refused(ApiErrorDraft::Problem::not_flags, "cudaSetDeviceFlags", flags,
                       "are not cudaDevice* flags");
    std::lock_guard lock(runtime().m);
    device_flags() = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned* flags) {
    if (!flags)
        return fail(cudaErrorInvalidValue, "cudaGetDeviceFlags: the result pointer is null");
    std::lock_guard lock(runtime().m);
    *flags = device_flags() | cudaDeviceMapHost;  // mapping host memory is always on, as in CUDA 13
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
    if (!version)
        return fail(cudaErrorInvalidValue, "cudaDriverGetVersion: the result pointer is null");
    *version = CUDA_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
    if (!version)
        return fail(cudaErrorInvalidValue, "cudaRuntimeGetVersion: the result pointer is null");
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_func_set_attribute(cudaFuncAttribute attr, int value,
                                                        std::source_location site) {
    if (sticky()) return sticky();
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // a hint
    ApiErrorDraft e;
    e.call = "cudaFuncSetAttribute";
    e.site = site;
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) {
        e.problem = ApiErrorDraft::Problem::unknown_function_attribute;
        e.value = attr;
        return fail(cudaErrorInvalidValue, api_error_text(e));
    }
    const simt::DeviceProperties p = simt::device_properties();
    if (value < 0 || static_cast<std::size_t>(value) > p.shared_mem_per_block_optin) {
        e.problem = ApiErrorDraft::Problem::shared_past_optin;
        e.value = value;
        e.limit = p.shared_mem_per_block_optin;
        e.device = p.name.c_str();
        return fail(cudaErrorInvalidValue, api_error_text(e));
    }
    raise_dynamic_shared_optin(static_cast<std::size_t>(value));
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_func_get_attributes(cudaFuncAttributes* attr) {
    if (!attr)
        return fail(cudaErrorInvalidValue, "cudaFuncGetAttributes: the result pointer is null");
    if (sticky()) return sticky();
    *attr = cudaFuncAttributes{};
    attr->maxThreadsPerBlock = LaunchLimits::max_threads_per_block;
    // As if built for the simulated GPU alone (nvcc -arch=sm_80 for the A100).
    attr->ptxVersion = attr->binaryVersion = gpu_model().major * 10 + gpu_model().minor;
    attr->numRegs = assumed_registers_per_thread;  // nvcc's count is unknown here (docs/device.md)
    attr->maxDynamicSharedSizeBytes = static_cast<int>(
        std::max<std::size_t>(dynamic_shared_optin(), LaunchLimits::max_shared_bytes));
    return cudaSuccess;
}
