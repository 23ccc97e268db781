// The CUDA runtime API over the simulator's allocations, streams and events.
//
// Copies and memsets wait for every stream before they run, as cudaMemcpy does on the legacy
// default stream; the Async forms do the same (a program may not rely on a copy overlapping a
// kernel), so the launch order the race checker decides with stays that of simt's own copies.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "../memory/arena.hpp"
#include "../process.hpp"

namespace simt::sim::detail {

namespace {

/// CUDA keeps the last error per host thread.
thread_local cudaError_t tls_last_error = cudaSuccess;

CudaRuntime& runtime() { return process().cuda; }

cudaError_t fail(cudaError_t e, const std::string& message) {
    if (!message.empty()) {
        std::fflush(stdout);
        std::fprintf(stderr, "simt: %s\n", message.c_str());
    }
    tls_last_error = e;
    return e;
}

/// A kernel failure, once: printed, then sticky for every later call.
cudaError_t kernel_failed(const simt::Error& e) {
    runtime().sticky = cudaErrorLaunchFailure;
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n(the CUDA runtime now returns cudaErrorLaunchFailure from every call, "
                         "as after a kernel fault on a GPU)\n", not_reported_yet(e.what()).c_str());
    return fail(cudaErrorLaunchFailure, "");
}

cudaError_t sticky() {
    cudaError_t s = runtime().sticky;
    if (s != cudaSuccess) tls_last_error = s;
    return s;
}

/// Runs a host wait (a stream, an event, everything) and turns a kernel failure it collects into
/// the sticky error; returns the sticky error without waiting when there is one already.
template <class Wait>
cudaError_t collect(Wait wait) {
    if (sticky()) return sticky();
    try {
        wait();
    } catch (const simt::Error& e) {
        return kernel_failed(e);
    }
    return cudaSuccess;
}

cudaError_t wait_all() {
    return collect([] { simt::synchronize(); });
}

/// The live device memory holding `p` (from cudaMalloc, a DeviceArray, or a `__device__` or
/// `__constant__` variable), and p's offset in it; null when p is not in any.
Allocation* find(const void* p, std::size_t& offset) {
    Allocation* a = arena::contains(p) ? arena::owner_in_range(p) : nullptr;
    auto b = static_cast<const std::byte*>(p);
    if (!a || a->freed || a->space == Space::shared || b < a->base ||
        b >= a->base + std::max<std::size_t>(a->size, 1))
        return nullptr;  // not device memory, freed, a red page, or a block's shared array
    offset = static_cast<std::size_t>(b - a->base);
    return a;
}

/// An error's message without its "simt: ", which fail() prints.
std::string without_prefix(const char* message) {
    return std::strncmp(message, "simt: ", 6) == 0 ? message + 6 : message;
}

/// A refused launch's message as a <<<>>> launch shows it: without simt::launch's own name.
std::string launch_message(const char* message) {
    std::string m = without_prefix(message);
    return m.starts_with("simt::launch: ") ? "launch refused: " + m.substr(14) : m;
}

std::string at(const std::source_location& site) { return " at " + where(site); }

/// One end of a copy: device memory (an allocation and an offset) or host memory.
struct End {
    Allocation* a = nullptr;
    std::size_t offset = 0;
};

/// Checks that `bytes` from `p` lie in one allocation when p is device memory, and that the
/// direction matches where the pointers point.
cudaError_t resolve(const char* call, const char* role, const void* p, std::size_t bytes,
                    bool device_expected, bool known, End& end, const std::source_location& site) {
    end.a = find(p, end.offset);
    if (!known) return cudaSuccess;  // cudaMemcpyDefault: wherever it points
    if (device_expected && !end.a)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": the " + role +
                        " is not device memory (a pointer from cudaMalloc, not yet freed); check "
                        "the copy's direction and the pointer");
    if (!device_expected && end.a)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": the " + role + " is device memory, but the "
                    "copy's direction says host memory; check the cudaMemcpyKind");
    if (end.a && end.offset + bytes > end.a->size)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": " + std::to_string(bytes) + " bytes from " +
                        "byte " + std::to_string(end.offset) + " of the " + role + " run " +
                        std::to_string(end.offset + bytes - end.a->size) +
                        " bytes past the end of its allocation of " + std::to_string(end.a->size) +
                        " bytes made at " + where(end.a->site));
    return cudaSuccess;
}

/// The device variable `symbol` names, for a copy of `bytes` at `offset` into or out of it.
cudaError_t resolve_symbol(const char* call, const void* symbol, std::size_t bytes,
                           std::size_t offset, End& end, const std::source_location& site) {
    Allocation* a = arena::contains(symbol) ? arena::owner_in_range(symbol) : nullptr;
    if (!a || !a->symbol || a->base != symbol)
        return fail(cudaErrorInvalidSymbol,
                    std::string(call) + at(site) + ": the symbol is not a __device__ or "
                    "__constant__ variable; pass the variable itself (not its address). simt "
                    "makes device variables of the namespace-scope declarations in the .cu files "
                    "given to simt_add_executable, not of those in headers, const or extern ones");
    if (offset + bytes > a->size)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": " + std::to_string(bytes) + " bytes from " +
                        "byte " + std::to_string(offset) + " run past the end of " + describe(a) +
                        " (" + std::to_string(a->size) + " bytes, declared at " + where(a->site) + ")");
    end = {a, offset};
    return cudaSuccess;
}

/// A host copy or memset wrote these bytes: initcheck counts them as written.
void note_written(const End& e, std::size_t bytes) {
    if (e.a) checks_host_wrote(*e.a, e.offset, bytes);
}

}  // namespace

bool cuda_launch_allowed(dim3 g, dim3 b, std::size_t shared_bytes, std::source_location site,
                         bool& shared_optin) {
    if (sticky()) return false;
    shared_optin = shared_bytes > LaunchLimits::max_shared_bytes &&
                   shared_bytes <= runtime().dynamic_shared_optin;
    if (shared_bytes > LaunchLimits::max_shared_bytes && !shared_optin &&
        shared_bytes <= LaunchLimits::max_shared_bytes_optin) {
        fail(cudaErrorInvalidValue,
             "launch refused at " + where(site) + ": " + std::to_string(shared_bytes) +
                 " bytes of dynamic shared memory per block exceed the " +
                 std::to_string(LaunchLimits::max_shared_bytes) + " bytes a kernel gets without "
                 "opting in; call cudaFuncSetAttribute(kernel, "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(shared_bytes) +
                 ") before the launch (the kernel did not run; cudaGetLastError() returns "
                 "cudaErrorInvalidValue)");
        return false;
    }
    try {
        simt::detail::validate_launch(g.x, g.y, g.z, b.x, b.y, b.z, shared_bytes, shared_optin,
                                      site.file_name(), site.line());
    } catch (const simt::LaunchError& e) {
        fail(cudaErrorInvalidConfiguration,
             launch_message(e.what()) +
                 "; the kernel did not run (cudaGetLastError() returns "
                 "cudaErrorInvalidConfiguration)");
        return false;
    }
    return true;
}

const simt::Stream* cuda_stream(cudaStream_t s) { return s ? &s->stream : nullptr; }

cudaError_t cuda_fail(cudaError_t e, const std::string& message) { return fail(e, message); }
cudaError_t cuda_sticky_error() { return sticky(); }

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

cudaError_t simt::sim::detail::cuda_malloc(void** ptr, std::size_t bytes, std::size_t elem_size,
                                            const char* elem_type, bool managed,
                                            std::source_location site) {
    const char* call = managed ? "cudaMallocManaged" : "cudaMalloc";
    if (!ptr) return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": the pointer to store the "
                                                 "address in is null");
    if (sticky()) return sticky();
    if (bytes % elem_size != 0) elem_size = 1, elem_type = "byte";
    Allocation* a;
    try {
        a = allocate(bytes, elem_size, elem_type, site);
    } catch (const simt::Error& e) {
        *ptr = nullptr;
        return fail(cudaErrorMemoryAllocation, without_prefix(e.what()));
    }
    a->cuda = true;
    if (managed) {
        a->managed = true;    // the host may touch it,
        a->host_init = true;  // and what it writes is not seen: initcheck trusts managed memory
    }
    {
        std::lock_guard lock(runtime().m);
        runtime().live[a->base] = a;
    }
    *ptr = a->base;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, std::source_location site) {
    return cuda_malloc(ptr, bytes, 1, "byte", false, site);
}

cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned, std::source_location site) {
    return cuda_malloc(ptr, bytes, 1, "byte", true, site);
}

cudaError_t cudaFree(void* ptr, std::source_location site) {
    if (!ptr) return cudaSuccess;
    // After a kernel fault the error stays, but the memory is freed all the same: on a GPU the
    // context that held it is gone, so reporting it as a leak at exit would be noise.
    const cudaError_t failed = wait_all();
    Allocation* a;
    {
        CudaRuntime& r = runtime();
        std::lock_guard lock(r.m);
        auto it = r.live.find(static_cast<std::byte*>(ptr));
        if (it == r.live.end())
            return fail(cudaErrorInvalidValue,
                        "cudaFree" + at(site) + ": the pointer is not the start of memory cudaMalloc returned, "
                        "or it was freed already (a double free)");
        a = it->second;
        r.live.erase(it);
    }
    release(a);
    return failed;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
    if (!ptr) return fail(cudaErrorInvalidValue, "cudaMallocHost: the pointer is null");
    *ptr = std::aligned_alloc(256, (std::max<std::size_t>(bytes, 1) + 255) & ~std::size_t(255));
    return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation, "cudaMallocHost: out of memory");
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

cudaError_t cudaFreeHost(void* ptr) {
    std::free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       std::source_location site) {
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy" + at(site) + ": the direction is not a cudaMemcpyKind");
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return fail(cudaErrorInvalidValue, "cudaMemcpy" + at(site) + ": a pointer is null");
    bool known = kind != cudaMemcpyDefault;
    bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    End d, s;
    if (cudaError_t e = resolve("cudaMemcpy", "destination", dst, bytes, dst_device, known, d, site))
        return e;
    if (cudaError_t e = resolve("cudaMemcpy", "source", src, bytes, src_device, known, s, site))
        return e;
    std::memmove(dst, src, bytes);
    note_written(d, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream, std::source_location site) {
    if (captured_memcpy(stream, dst, src, bytes, kind, site)) return cudaSuccess;  // graph.cpp
    return cudaMemcpy(dst, src, bytes, kind, site);
}

cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind,
                         std::source_location site) {
    if (width > dpitch || width > spitch)
        return fail(cudaErrorInvalidValue, "cudaMemcpy2D" + at(site) + ": the width is larger than a pitch");
    for (std::size_t row = 0; row < height; ++row)
        if (cudaError_t e = cudaMemcpy(static_cast<std::byte*>(dst) + row * dpitch,
                                       static_cast<const std::byte*>(src) + row * spitch, width, kind,
                                       site))
            return e;
    return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes, std::source_location site) {
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    End d;
    if (cudaError_t e = resolve("cudaMemset", "destination", ptr, bytes, true, true, d, site)) return e;
    std::memset(ptr, value, bytes);
    note_written(d, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream,
                            std::source_location site) {
    if (captured_memset(stream, ptr, value, bytes, site)) return cudaSuccess;  // graph.cpp
    return cudaMemset(ptr, value, bytes, site);
}

cudaError_t cudaDeviceSynchronize() { return wait_all(); }

cudaError_t cudaDeviceReset() {
    try {
        simt::synchronize();
    } catch (const simt::Error&) {  // already reported when it happened, or now dropped by the reset
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
    tls_last_error = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaGetLastError() {
    cudaError_t e = tls_last_error;
    tls_last_error = runtime().sticky;
    return e;
}

cudaError_t cudaPeekAtLastError() { return tls_last_error; }

namespace {
struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};
constexpr ErrorText error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const ErrorText* text_of(cudaError_t e) {
    for (const ErrorText& t : error_texts)
        if (t.code == e) return &t;
    return nullptr;
}
}  // namespace

const char* cudaGetErrorString(cudaError_t e) {
    const ErrorText* t = text_of(e);
    return t ? t->text : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t e) {
    const ErrorText* t = text_of(e);
    return t ? t->name : "cudaErrorUnknown";
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return fail(cudaErrorInvalidValue, "");
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return fail(cudaErrorInvalidValue, "");
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    if (device != 0)
        return fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) +
                                                "): the simulator is one device, number 0");
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop) return fail(cudaErrorInvalidValue, "");
    if (device != 0) return cudaSetDevice(device);
    simt::DeviceProperties p = simt::device_properties();
    *prop = cudaDeviceProp{};
    std::snprintf(prop->name, sizeof prop->name, "%s", p.name.c_str());
    prop->totalGlobalMem = p.total_global_mem;
    prop->sharedMemPerBlock = p.shared_mem_per_block;
    prop->sharedMemPerBlockOptin = p.shared_mem_per_block_optin;
    prop->sharedMemPerMultiprocessor = p.shared_mem_per_block_optin;
    prop->regsPerBlock = 65536;
    prop->warpSize = p.warp_size;
    prop->maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
        prop->maxThreadsDim[i] = p.max_threads_dim[i];
        prop->maxGridSize[i] = static_cast<int>(p.max_grid_size[i]);
    }
    prop->totalConstMem = 64 * 1024;
    prop->major = p.major;
    prop->minor = p.minor;
    prop->multiProcessorCount = p.multi_processor_count;
    prop->maxThreadsPerMultiProcessor = p.max_threads_per_block;
    prop->maxBlocksPerMultiProcessor = 1;  // a core runs one block at a time
    prop->concurrentKernels = 1;
    prop->unifiedAddressing = 1;
    prop->managedMemory = 1;
    prop->cooperativeLaunch = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    cudaDeviceProp p;
    if (!value) return fail(cudaErrorInvalidValue, "");
    if (cudaError_t e = cudaGetDeviceProperties(&p, device)) return e;
    switch (attr) {
        case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
        case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
        case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
        case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
        case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
        case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
        case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
        case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin:
            *value = static_cast<int>(p.sharedMemPerBlockOptin);
            break;
        case cudaDevAttrWarpSize: *value = p.warpSize; break;
        case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
        case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
        case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
        case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
        default:
            return fail(cudaErrorNotSupported,
                        "cudaDeviceGetAttribute: attribute " + std::to_string(int(attr)) +
                            " is not provided by the simulator");
    }
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    if (!stream) return fail(cudaErrorInvalidValue, "cudaStreamCreate: the pointer is null");
    *stream = new CUstream_st{};
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) { return cudaStreamCreate(stream); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream) return fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: the default stream cannot be destroyed");
    delete stream;  // queued work still runs: the queue lives while it has work
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    return collect([&] { (stream ? stream->stream : simt::Stream::default_stream()).synchronize(); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    if (sticky()) return sticky();
    simt::Event marker;
    marker.record(cuda_stream(stream));
    return marker.query() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: the event is null");
    (stream ? stream->stream : simt::Stream::default_stream()).wait(event->event);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return fail(cudaErrorInvalidValue, "cudaEventCreate: the pointer is null");
    *event = new CUevent_st{};
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: the event is null");
    event->event.record(cuda_stream(stream));
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: the event is null");
    return collect([&] { event->event.synchronize(); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventQuery: the event is null");
    return event->event.query() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms || !start || !end) return fail(cudaErrorInvalidValue, "");
    if (!start->recorded || !end->recorded)
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime: both events must have been recorded");
    if (!start->event.query() || !end->event.query()) return fail(cudaErrorNotReady, "");
    *ms = start->event.elapsed_ms(end->event);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    delete event;
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_memcpy_symbol(const void* symbol, void* other, std::size_t bytes,
                                                   std::size_t offset, cudaMemcpyKind kind,
                                                   bool to_symbol, std::source_location site) {
    const char* call = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
    const cudaMemcpyKind other_side = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != other_side && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection,
                    std::string(call) + at(site) + ": the direction must be " +
                        (to_symbol ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost") +
                        ", cudaMemcpyDeviceToDevice or cudaMemcpyDefault");
    if (cudaError_t e = wait_all()) return e;
    End sym, o;
    if (cudaError_t e = resolve_symbol(call, symbol, bytes, offset, sym, site)) return e;
    if (bytes == 0) return cudaSuccess;
    if (!other) return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": a pointer is null");
    if (cudaError_t e = resolve(call, to_symbol ? "source" : "destination", other, bytes,
                                kind == cudaMemcpyDeviceToDevice, kind != cudaMemcpyDefault, o, site))
        return e;
    std::byte* at_symbol = sym.a->base + offset;
    if (to_symbol) {
        std::memmove(at_symbol, other, bytes);
        note_written(sym, bytes);
    } else {
        std::memmove(other, at_symbol, bytes);
        note_written(o, bytes);
    }
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_symbol(const void* symbol, void** address, std::size_t* bytes,
                                            std::source_location site) {
    const char* call = address ? "cudaGetSymbolAddress" : "cudaGetSymbolSize";
    if (!address && !bytes) return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": the result pointer is null");
    if (sticky()) return sticky();
    End sym;
    if (cudaError_t e = resolve_symbol(call, symbol, 0, 0, sym, site)) return e;
    if (address) *address = sym.a->base;
    if (bytes) *bytes = sym.a->size;
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_func_set_attribute(cudaFuncAttribute attr, int value,
                                                        std::source_location site) {
    if (sticky()) return sticky();
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // a hint
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize)
        return fail(cudaErrorInvalidValue, "cudaFuncSetAttribute" + at(site) + ": attribute " +
                                               std::to_string(attr) + " is not one the simulator knows");
    if (value < 0 || static_cast<std::size_t>(value) > LaunchLimits::max_shared_bytes_optin)
        return fail(cudaErrorInvalidValue,
                    "cudaFuncSetAttribute" + at(site) + ": " + std::to_string(value) +
                        " bytes of dynamic shared memory; a block may have at most " +
                        std::to_string(LaunchLimits::max_shared_bytes_optin) + " (227 KiB)");
    std::lock_guard lock(runtime().m);
    runtime().dynamic_shared_optin =
        std::max(runtime().dynamic_shared_optin, static_cast<std::size_t>(value));
    return cudaSuccess;
}

cudaError_t simt::sim::detail::cuda_func_get_attributes(cudaFuncAttributes* attr) {
    if (!attr) return fail(cudaErrorInvalidValue, "cudaFuncGetAttributes: the result pointer is null");
    if (sticky()) return sticky();
    *attr = cudaFuncAttributes{};
    attr->maxThreadsPerBlock = LaunchLimits::max_threads_per_block;
    attr->ptxVersion = attr->binaryVersion = 90;
    std::lock_guard lock(runtime().m);
    attr->maxDynamicSharedSizeBytes = static_cast<int>(
        std::max<std::size_t>(runtime().dynamic_shared_optin, LaunchLimits::max_shared_bytes));
    return cudaSuccess;
}
