// The CUDA runtime API over the simulator's allocations, streams and events.
//
// Copies and memsets wait for every stream before they run, as cudaMemcpy does on the legacy
// default stream; the Async forms do the same (a program may not rely on a copy overlapping a
// kernel), so the launch order the race checker decides with stays that of simt's own copies.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>

#include "../device/model.hpp"
#include "../device/occupancy.hpp"
#include "../launch/streams.hpp"
#include "../memory/arena.hpp"
#include "../memory/host_pointers.hpp"
#include "../process/process.hpp"

namespace simt::sim::detail {

namespace {

/// CUDA keeps the last error per host thread, and so the current device.
thread_local cudaError_t tls_last_error = cudaSuccess;
thread_local int tls_device = 0;

/// Whether a program has used a device other than 0: reports then name each array's device.
std::atomic<bool> several_devices{false};

/// Stream 0 of devices 1 and up (device 0's is simt's default stream), made when first used.
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

CudaRuntime& runtime() { return process().cuda; }

/// The largest pitch a 2-D or 3-D copy takes (cudaDeviceProp::memPitch, cudaDevAttrMaxPitch).
constexpr std::size_t max_pitch = 2147483647;

/// cudaSetDeviceFlags' flags: kept to be read back, with nothing to change in the simulator.
unsigned& device_flags() {
    static unsigned flags = 0;
    return flags;
}

cudaError_t fail(cudaError_t e, const std::string& message) {
    if (!message.empty()) {
        std::fflush(stdout);
        std::fprintf(stderr, "simt: %s\n", message.c_str());
    }
    tls_last_error = e;
    return e;
}

/// A kernel failure, once: printed, then sticky for every later call, with the error a GPU
/// gives for it (an illegal address, a failed assert; else cudaErrorLaunchFailure).
cudaError_t kernel_failed(const simt::Error& e) {
    const cudaError_t code = kernel_error_code(e);
    runtime().sticky = code;
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n(the CUDA runtime now returns %s from every call, as after a kernel "
                         "fault on a GPU)\n", not_reported_yet(e).c_str(),
                 cudaGetErrorName(code));
    return fail(code, "");
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
                    bool device_expected, bool known, End& end, const std::source_location& site,
                    const std::string& region = {}) {
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
                    std::string(call) + at(site) + ": " +
                        (region.empty() ? std::to_string(bytes) + " bytes" : region) + " from " +
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
        return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": " +
                                               std::to_string(bytes) + " bytes from " + "byte " +
                                               std::to_string(offset) + " run past the end of " +
                                               describe(a) + " (" + std::to_string(a->size) +
                                               " bytes, declared at " + where(a->site) + ")");
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
    if (shared_bytes > LaunchLimits::max_shared_bytes && !shared_optin) {
        const simt::DeviceProperties p = simt::device_properties();
        if (shared_bytes > p.shared_mem_per_block_optin)
            fail(cudaErrorInvalidValue,
                 "launch refused at " + where(site) + ": " + std::to_string(shared_bytes) +
                     " bytes of dynamic shared memory per block are more than a block of the "
                     "simulated " + p.name + " may have even after opting in (" +
                     std::to_string(p.shared_mem_per_block_optin) + ", "
                     "cudaDevAttrMaxSharedMemoryPerBlockOptin); the kernel did not run "
                     "(cudaGetLastError() returns cudaErrorInvalidValue)");
        else fail(cudaErrorInvalidValue,
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
        // CUDA 13 says cudaErrorInvalidValue for every refused configuration (seen on an
        // H100); older toolkits, and many books, say cudaErrorInvalidConfiguration.
        fail(cudaErrorInvalidValue,
             launch_message(e.what()) +
                 "; the kernel did not run (cudaGetLastError() returns cudaErrorInvalidValue)");
        return false;
    }
    return true;
}

const simt::Stream* cuda_stream(cudaStream_t s) {
    if (s) return &s->stream;
    return tls_device == 0 ? nullptr : &legacy_stream(tls_device)->stream;
}

int cuda_current_device() { return tls_device; }
bool cuda_several_devices() { return several_devices.load(std::memory_order_relaxed); }

cudaError_t cuda_fail(cudaError_t e, const std::string& message) { return fail(e, message); }
cudaError_t cuda_sticky_error() { return sticky(); }

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

cudaError_t simt::sim::detail::cuda_malloc(void** ptr, std::size_t bytes, std::size_t elem_size,
                                            const char* elem_type, bool managed,
                                            std::source_location site, const char* call) {
    if (!call) call = managed ? "cudaMallocManaged" : "cudaMalloc";
    if (!ptr)
        return fail(cudaErrorInvalidValue, std::string(call) + at(site) +
                                               ": the pointer to store the "
                                               "address in is null");
    if (sticky()) return sticky();
    if (bytes % elem_size != 0) elem_size = 1, elem_type = "byte";
    Allocation* a;
    try {
        a = allocate(bytes, elem_size, elem_type, site, tls_device);
    } catch (const simt::Error& e) {
        *ptr = nullptr;
        return fail(cudaErrorMemoryAllocation,
                    std::string(call) + " refused: " + without_prefix(e.what()) +
                        " (it returns cudaErrorMemoryAllocation and sets the pointer to null)");
    }
    a->cuda = true;
    if (!managed) a->device_bits = static_cast<std::uint16_t>(1u << tls_device);
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

cudaError_t simt::sim::detail::cuda_malloc_pitch(void** ptr, std::size_t* pitch, std::size_t width,
                                                 std::size_t height, std::size_t elem_size,
                                                 const char* elem_type, std::source_location site,
                                                 const char* call) {
    if (!pitch)
        return fail(cudaErrorInvalidValue,
                    call + at(site) + ": the pointer to store the pitch in is null");
    // Rows start on 512-byte boundaries, as cudaMallocPitch's do on current GPUs.
    const std::size_t align = 512;
    std::size_t rounded = 0, bytes = 0;
    if (width > SIZE_MAX - (align - 1) ||
        __builtin_mul_overflow((width + align - 1) / align * align, height, &bytes)) {
        if (ptr) *ptr = nullptr;
        return fail(
            cudaErrorMemoryAllocation,
            std::string(call) + " refused at " + where(site) + ": " + std::to_string(height) +
                " rows of " + std::to_string(width) +
                " bytes overflow size_t (a negative "
                "width or height converted to size_t?); it returns cudaErrorMemoryAllocation");
    }
    rounded = (width + align - 1) / align * align;
    if (rounded % elem_size != 0) elem_size = 1, elem_type = "byte";
    cudaError_t e = cuda_malloc(ptr, bytes, elem_size, elem_type, false, site, call);
    if (e != cudaSuccess) return e;
    *pitch = rounded;
    // The padding past each row's width is checked as outside the array.
    if (rounded != width) {
        Allocation* a = arena::owner_in_range(*ptr);
        a->pitch = rounded;
        a->row_bytes = width;
    }
    return e;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, std::source_location site) {
    return cuda_malloc(ptr, bytes, 1, "byte", false, site);
}

cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags,
                              std::source_location site) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return fail(cudaErrorInvalidValue,
                    "cudaMallocManaged" + at(site) + ": the flags must be cudaMemAttachGlobal or "
                    "cudaMemAttachHost, not " + std::to_string(flags));
    return cuda_malloc(ptr, bytes, 1, "byte", true, site);
}

cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height,
                            std::source_location site) {
    return cuda_malloc_pitch(ptr, pitch, width, height, 1, "byte", site);
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent, std::source_location site) {
    if (!pitched)
        return fail(cudaErrorInvalidValue,
                    "cudaMalloc3D" + at(site) +
                        ": the pointer to store the cudaPitchedPtr in is null");
    // A volume is a pitched 2-D array whose rows are every slice's rows, one slice after another.
    std::size_t rows = 0;
    if (__builtin_mul_overflow(extent.height, extent.depth, &rows)) {
        pitched->ptr = nullptr;
        return fail(cudaErrorMemoryAllocation,
                    "cudaMalloc3D refused at " + where(site) + ": " + std::to_string(extent.depth) +
                        " slices of " + std::to_string(extent.height) +
                        " rows overflow size_t (a negative height or depth converted to size_t?); "
                        "it returns cudaErrorMemoryAllocation");
    }
    cudaError_t e = cuda_malloc_pitch(&pitched->ptr, &pitched->pitch, extent.width, rows, 1, "byte",
                                      site, "cudaMalloc3D");
    if (e == cudaSuccess) pitched->xsize = extent.width, pitched->ysize = extent.height;
    return e;
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t,
                            std::source_location site) {
    return cuda_malloc(ptr, bytes, 1, "byte", false, site, "cudaMallocAsync");
}

namespace {

/// Pinned host memory (cudaMallocHost, cudaHostAlloc): its start and size.
struct HostAllocations {
    std::mutex m;
    std::map<const void*, std::size_t> live;
};
HostAllocations& host_allocations() {
    static HostAllocations* h = new HostAllocations;  // used until the very end of the program
    return *h;
}

}  // namespace

bool simt::sim::detail::pinned_host_memory(const void* p) {
    HostAllocations& h = host_allocations();
    std::lock_guard lock(h.m);
    auto it = h.live.upper_bound(p);
    if (it == h.live.begin()) return false;
    --it;
    return static_cast<const std::byte*>(p) <
           static_cast<const std::byte*>(it->first) + std::max<std::size_t>(it->second, 1);
}

namespace {

/// Why cudaFree (`call`) cannot free `ptr`, which is not the start of live cudaMalloc memory.
cudaError_t refuse_free(const char* call, void* ptr, const std::source_location& site) {
    std::string head = std::string(call) + at(site) + ": ";
    Allocation* a = arena::contains(ptr) ? arena::owner_in_range(ptr) : nullptr;
    auto* b = static_cast<const std::byte*>(ptr);
    std::string what;
    if (!a) {
        bool pinned;
        {
            HostAllocations& h = host_allocations();
            std::lock_guard lock(h.m);
            pinned = h.live.count(ptr) > 0;
        }
        what = pinned ? "not a pointer cudaMalloc returned: it is pinned host memory from "
                        "cudaMallocHost or cudaHostAlloc; free that with cudaFreeHost"
                      : "not a pointer cudaMalloc returned: it points to host memory (malloc, new, "
                        "a variable or an array of the host program), which cudaFree cannot free";
    } else if (a->cuda && a->freed && b == a->base) {
        what = "a double free: the memory " + describe(a) + " (" + origin(a) +
               ") was freed already; set the pointer to nullptr after cudaFree, or free it once";
    } else if (a->cuda && !a->freed && b >= a->base &&
               b < a->base + std::max<std::size_t>(a->size, 1)) {
        what = "not a pointer cudaMalloc returned: it points " + std::to_string(b - a->base) +
               " bytes into " + describe(a) + " (" + origin(a) + "); pass the pointer cudaMalloc "
               "gave, not one moved along the array";
    } else if (a->symbol) {
        what = "not a pointer cudaMalloc returned: it is the __device__ variable " + describe(a) +
               ", which lives as long as the program";
    } else if (a->space == Space::global && !a->cuda) {
        what = "not a pointer cudaMalloc returned: it is the memory of a simt::DeviceArray " +
               describe(a) + " (" + origin(a) + "), which frees itself when it is destroyed";
    } else {
        what = "not a pointer cudaMalloc returned";
    }
    return fail(cudaErrorInvalidValue, head + what + " (cudaErrorInvalidValue)");
}

}  // namespace

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
        if (it == r.live.end()) a = nullptr;
        else {
            a = it->second;
            r.live.erase(it);
        }
    }
    if (!a) return failed ? failed : refuse_free("cudaFree", ptr, site);
    release(a);
    return failed;
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t, std::source_location site) {
    return cudaFree(ptr, site);
}

namespace {

cudaError_t host_alloc(const char* call, void** ptr, std::size_t bytes, unsigned flags,
                       const std::source_location& site) {
    if (!ptr)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": the pointer to store the address in is null");
    *ptr = nullptr;
    if (flags & ~unsigned(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": flags " +
                                               std::to_string(flags) +
                                               " are not cudaHostAlloc flags");
    if (sticky()) return sticky();
    // Pinned memory is the host's own, locked in place: no more than the machine has.
    const std::size_t host = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                             static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* p = bytes <= host ? std::aligned_alloc(256, (std::max<std::size_t>(bytes, 1) + 255) &
                                                          ~std::size_t(255))
                            : nullptr;
    if (!p)
        return fail(cudaErrorMemoryAllocation,
                    std::string(call) + " refused at " + where(site) + ": " +
                        std::to_string(bytes) +
                        " bytes of pinned host memory asked for, and this machine has " +
                        std::to_string(host >> 20) + " MiB" +
                        (bytes > (SIZE_MAX >> 1) ? " (a negative size converted to size_t?)" : "") +
                        "; it returns cudaErrorMemoryAllocation");
    {
        HostAllocations& h = host_allocations();
        std::lock_guard lock(h.m);
        h.live[p] = bytes;
    }
    *ptr = p;
    return cudaSuccess;
}

}  // namespace

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes, std::source_location site) {
    return host_alloc("cudaMallocHost", ptr, bytes, 0, site);
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes, unsigned flags,
                           std::source_location site) {
    return host_alloc("cudaMallocHost", ptr, bytes, flags, site);
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags,
                          std::source_location site) {
    return host_alloc("cudaHostAlloc", ptr, bytes, flags, site);
}

cudaError_t cudaFreeHost(void* ptr, std::source_location site) {
    if (!ptr) return cudaSuccess;
    {
        HostAllocations& h = host_allocations();
        std::lock_guard lock(h.m);
        auto it = h.live.find(ptr);
        if (it != h.live.end()) {
            h.live.erase(it);
            std::free(ptr);
            return cudaSuccess;
        }
    }
    return fail(cudaErrorInvalidValue,
                "cudaFreeHost" + at(site) +
                    ": not a pointer cudaMallocHost or cudaHostAlloc returned" +
                    (arena::contains(ptr) ? ": it is device memory; free it with cudaFree"
                                          : " (or it was freed already)") +
                    " (cudaErrorInvalidValue)");
}

cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned flags,
                                     std::source_location site) {
    if (!device || flags != 0)
        return fail(cudaErrorInvalidValue,
                    "cudaHostGetDevicePointer" + at(site) +
                        (device ? ": the flags must be 0" : ": the result pointer is null"));
    HostAllocations& h = host_allocations();
    std::lock_guard lock(h.m);
    auto it = h.live.upper_bound(host);
    if (it == h.live.begin() ||
        static_cast<const std::byte*>(host) >=
            static_cast<const std::byte*>(std::prev(it)->first) + std::prev(it)->second)
        return fail(cudaErrorInvalidValue,
                    "cudaHostGetDevicePointer" + at(site) + ": the pointer is not in memory from "
                    "cudaHostAlloc or cudaMallocHost");
    *device = host;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
    if (!free || !total)
        return fail(cudaErrorInvalidValue, "cudaMemGetInfo: a result pointer is null");
    if (sticky()) return sticky();
    *total = simt::device_properties().total_global_mem;
    *free = *total - std::min(*total, global_bytes_in_use(tls_device));
    return cudaSuccess;
}

namespace {

/// Where a managed-memory hint may point: a device that exists, or the host.
cudaError_t check_hint_device(const char* call, int device, bool host_allowed,
                              const std::source_location& site) {
    if (device == cudaCpuDeviceId && host_allowed) return cudaSuccess;
    int count = 0;
    cudaGetDeviceCount(&count);
    if (device >= 0 && device < count) return cudaSuccess;
    return fail(cudaErrorInvalidDevice,
                std::string(call) + at(site) + ": device " + std::to_string(device) +
                    " does not exist (" +
                    (count == 1 ? std::string("device 0 is the only one")
                                : "devices 0.." + std::to_string(count - 1)) +
                    (host_allowed ? ", and cudaCpuDeviceId means the host" : "") +
                    "; cudaErrorInvalidDevice)");
}

cudaError_t check_hint_location(const char* call, cudaMemLocation where_to, bool host_allowed,
                                const std::source_location& site) {
    switch (where_to.type) {
        case cudaMemLocationTypeDevice: return check_hint_device(call, where_to.id, false, site);
        case cudaMemLocationTypeHost:
        case cudaMemLocationTypeHostNumaCurrent:
            if (host_allowed) return cudaSuccess;
            break;
        case cudaMemLocationTypeHostNuma:
            if (host_allowed && where_to.id == 0) return cudaSuccess;
            if (host_allowed)
                return fail(cudaErrorInvalidValue,
                            std::string(call) + at(site) + ": host NUMA node " +
                                std::to_string(where_to.id) + " does not exist (node 0 does)");
            break;
        default: break;
    }
    return fail(cudaErrorInvalidValue,
                std::string(call) + at(site) + ": the location's type " +
                    std::to_string(int(where_to.type)) +
                    " is not one this call takes (cudaMemLocationTypeDevice" +
                    (host_allowed ? ", cudaMemLocationTypeHost" : "") + ")");
}

/// The managed allocation [ptr, ptr + bytes) lies in, for a hint named `call`.
cudaError_t check_managed_range(const char* call, const void* ptr, std::size_t bytes,
                                const std::source_location& site) {
    if (sticky()) return sticky();
    std::size_t offset = 0;
    Allocation* a = ptr ? find(ptr, offset) : nullptr;
    if (!a || !a->managed)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": the pointer is not managed memory (from "
                    "cudaMallocManaged)" +
                        (a ? ": " + describe(a) + " (" + origin(a) + ") is device memory only, "
                             "which stays on the device; copy it with cudaMemcpy"
                           : std::string()) +
                        " (cudaErrorInvalidValue)");
    if (offset + bytes > a->size)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": " + std::to_string(bytes) +
                        " bytes from byte " + std::to_string(offset) + " run past the end of " +
                        describe(a) + " (" + std::to_string(a->size) + " bytes, allocated at " +
                        where(a->site) + ") (cudaErrorInvalidValue)");
    return cudaSuccess;
}

bool advice_names_device(cudaMemoryAdvise advice) {
    return advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
}

cudaError_t check_advice(cudaMemoryAdvise advice, const std::source_location& site) {
    if (advice >= cudaMemAdviseSetReadMostly && advice <= cudaMemAdviseUnsetAccessedBy)
        return cudaSuccess;
    return fail(cudaErrorInvalidValue, "cudaMemAdvise" + at(site) + ": advice " +
                                           std::to_string(int(advice)) +
                                           " is not a cudaMemoryAdvise (cudaErrorInvalidValue)");
}

}  // namespace

// The simulator's one memory is where every processor already is: each hint checks its
// arguments and then has nothing to move.
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device, cudaStream_t,
                                 std::source_location site) {
    if (cudaError_t e = check_managed_range("cudaMemPrefetchAsync", ptr, bytes, site)) return e;
    return check_hint_device("cudaMemPrefetchAsync", device, true, site);
}

cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location,
                                 unsigned flags, cudaStream_t, std::source_location site) {
    if (flags != 0)
        return fail(cudaErrorInvalidValue,
                    "cudaMemPrefetchAsync" + at(site) + ": the flags must be 0");
    if (cudaError_t e = check_managed_range("cudaMemPrefetchAsync", ptr, bytes, site)) return e;
    return check_hint_location("cudaMemPrefetchAsync", location, true, site);
}

cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device,
                          std::source_location site) {
    if (cudaError_t e = check_advice(advice, site)) return e;
    if (cudaError_t e = check_managed_range("cudaMemAdvise", ptr, bytes, site)) return e;
    return advice_names_device(advice) ? check_hint_device("cudaMemAdvise", device, true, site)
                                       : cudaSuccess;
}

cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location, std::source_location site) {
    if (cudaError_t e = check_advice(advice, site)) return e;
    if (cudaError_t e = check_managed_range("cudaMemAdvise", ptr, bytes, site)) return e;
    return advice_names_device(advice) ? check_hint_location("cudaMemAdvise", location, true, site)
                                       : cudaSuccess;
}

namespace {

cudaError_t check_kind(const char* call, cudaMemcpyKind kind, const std::source_location& site) {
    if (kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault) return cudaSuccess;
    return fail(cudaErrorInvalidMemcpyDirection,
                std::string(call) + at(site) + ": the direction is not a cudaMemcpyKind");
}

/// Where a copy's direction says its ends are; cudaMemcpyDefault says nothing (`known` false).
struct Direction {
    bool known, dst_device, src_device;
};
Direction direction(cudaMemcpyKind kind) {
    return {kind != cudaMemcpyDefault,
            kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice,
            kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice};
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       std::source_location site) {
    if (cudaError_t e = check_kind("cudaMemcpy", kind, site)) return e;
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src)
        return fail(cudaErrorInvalidValue, "cudaMemcpy" + at(site) + ": a pointer is null");
    const Direction to = direction(kind);
    End d, s;
    if (cudaError_t e =
            resolve("cudaMemcpy", "destination", dst, bytes, to.dst_device, to.known, d, site))
        return e;
    if (cudaError_t e =
            resolve("cudaMemcpy", "source", src, bytes, to.src_device, to.known, s, site))
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

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes, std::source_location site) {
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    End d;
    if (cudaError_t e = resolve("cudaMemset", "destination", ptr, bytes, true, true, d, site))
        return e;
    std::memset(ptr, value, bytes);
    note_written(d, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream,
                            std::source_location site) {
    if (captured_memset(stream, ptr, value, bytes, site)) return cudaSuccess;  // graph.cpp
    return cudaMemset(ptr, value, bytes, site);
}

// 2-D and 3-D copies and memsets: one region of `depth` slices of `height` rows of `width` bytes
// (a cudaExtent; depth 1 for 2-D), at each end a pitched object and a position in it. Every
// argument is checked before the first byte moves, as CUDA does; then row by row, so that the
// padding between rows is neither read nor counted as written (initcheck).
namespace {

/// One end: the pitched object (its rows `pitch` bytes apart, `ysize` rows to a slice) and where
/// in it the region starts.
struct Pitched {
    const void* ptr;
    std::size_t pitch;
    std::size_t ysize;
    cudaPos pos;
};

std::string count(std::size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

/// CUDA's rules for one end of a region: its rows fit in the pitch and, with more than one slice,
/// its rows fit in a slice. A pitch below the width is cudaErrorInvalidPitchValue for a copy and,
/// as CUDA documents it, cudaErrorInvalidValue for a memset, which ignores the pitch of one row.
cudaError_t check_shape(const char* call, const char* role, const Pitched& o, cudaExtent size,
                        bool copy, const std::source_location& site) {
    const std::string head = std::string(call) + at(site) + ": ";
    const std::string its = std::string("the ") + role + "'s ";
    if (size.width > o.pitch && (copy || size.height > 1 || size.depth > 1)) {
        const cudaError_t code = copy ? cudaErrorInvalidPitchValue : cudaErrorInvalidValue;
        return fail(code, head + "the width is larger than a pitch: rows of " +
                              std::to_string(size.width) + " bytes, and " + its +
                              "pitch (the bytes from one row to the next) is " +
                              std::to_string(o.pitch) + " (" + cudaGetErrorName(code) + ")");
    }
    if (copy && o.pitch > max_pitch)
        return fail(cudaErrorInvalidPitchValue,
                    head + its + "pitch of " + std::to_string(o.pitch) +
                        " bytes is more than a copy takes (" + std::to_string(max_pitch) +
                        ", cudaDevAttrMaxPitch; a negative pitch converted to size_t?) "
                        "(cudaErrorInvalidPitchValue)");
    if (size.width <= o.pitch && o.pos.x > o.pitch - size.width)
        return fail(cudaErrorInvalidValue,
                    head + its + "rows are " + std::to_string(o.pitch) +
                        " bytes (its pitch), and " + std::to_string(size.width) +
                        " bytes from x = " + std::to_string(o.pos.x) +
                        " run past a row's end (cudaErrorInvalidValue)");
    if (size.depth > 1 && (size.height > o.ysize || o.pos.y > o.ysize - size.height))
        return fail(cudaErrorInvalidValue,
                    head + its + "slices are " + count(o.ysize, "row") + " (its ysize), and " +
                        count(size.height, "row") + " from y = " + std::to_string(o.pos.y) +
                        " run into the next slice (cudaErrorInvalidValue)");
    return cudaSuccess;
}

/// An end once found: its region's first byte, its rows' and slices' distances, and the
/// allocation it lies in (none for host memory).
struct Rows {
    std::byte* first;
    std::size_t pitch;
    std::size_t slice;
    End end;
    std::size_t offset(std::size_t y, std::size_t z) const { return z * slice + y * pitch; }
};

/// Finds one end's region as cudaMemcpy finds a pointer's bytes, over the span from the region's
/// first byte to its last: in one allocation when it is device memory. `size` is not empty.
cudaError_t locate(const char* call, const char* role, const Pitched& o, cudaExtent size,
                   bool device_expected, bool known, Rows& rows,
                   const std::source_location& site) {
    const std::string head = std::string(call) + at(site) + ": ";
    if (!o.ptr) return fail(cudaErrorInvalidValue, head + "the " + role + " pointer is null");
    // ysize matters only from one slice to the next (CUDA lets a 2-D copy leave it 0).
    const bool slices = size.depth > 1 || o.pos.z > 0;
    std::size_t slice = 0, start = 0, span = 0, t = 0;
    if ((slices && __builtin_mul_overflow(o.pitch, o.ysize, &slice)) ||
        __builtin_mul_overflow(o.pos.z, slice, &start) ||
        __builtin_mul_overflow(o.pos.y, o.pitch, &t) || __builtin_add_overflow(start, t, &start) ||
        __builtin_add_overflow(start, o.pos.x, &start) ||
        __builtin_mul_overflow(size.depth - 1, slice, &span) ||
        __builtin_mul_overflow(size.height - 1, o.pitch, &t) ||
        __builtin_add_overflow(span, t, &span) || __builtin_add_overflow(span, size.width, &span))
        return fail(cudaErrorInvalidValue,
                    head + "the " + role + "'s region overflows size_t (a negative size or "
                    "position converted to size_t?)");
    rows = {static_cast<std::byte*>(const_cast<void*>(o.ptr)) + start, o.pitch, slice, {}};
    std::string region = count(size.height, "row") + " of " + std::to_string(size.width) +
                         " bytes (rows " + std::to_string(o.pitch) + " bytes apart, " +
                         std::to_string(span) + " bytes from the first to the last)";
    if (size.depth > 1) region = count(size.depth, "slice") + " of " + region;
    return resolve(call, role, rows.first, span, device_expected, known, rows.end, site, region);
}

bool empty(cudaExtent size) { return size.width == 0 || size.height == 0 || size.depth == 0; }

cudaError_t copy_region(const char* call, const Pitched& dst, const Pitched& src, cudaExtent size,
                        cudaMemcpyKind kind, const std::source_location& site) {
    if (cudaError_t e = check_kind(call, kind, site)) return e;
    if (cudaError_t e = check_shape(call, "destination", dst, size, true, site)) return e;
    if (cudaError_t e = check_shape(call, "source", src, size, true, site)) return e;
    if (cudaError_t e = wait_all()) return e;
    if (empty(size)) return cudaSuccess;
    const Direction to = direction(kind);
    Rows d, s;
    if (cudaError_t e = locate(call, "destination", dst, size, to.dst_device, to.known, d, site))
        return e;
    if (cudaError_t e = locate(call, "source", src, size, to.src_device, to.known, s, site))
        return e;
    for (std::size_t z = 0; z < size.depth; ++z)
        for (std::size_t y = 0; y < size.height; ++y) {
            std::memmove(d.first + d.offset(y, z), s.first + s.offset(y, z), size.width);
            note_written({d.end.a, d.end.offset + d.offset(y, z)}, size.width);
        }
    return cudaSuccess;
}

cudaError_t set_region(const char* call, const Pitched& dst, int value, cudaExtent size,
                       const std::source_location& site) {
    if (cudaError_t e = check_shape(call, "destination", dst, size, false, site)) return e;
    if (cudaError_t e = wait_all()) return e;
    if (empty(size)) return cudaSuccess;
    Rows d;
    if (cudaError_t e = locate(call, "destination", dst, size, true, true, d, site)) return e;
    for (std::size_t z = 0; z < size.depth; ++z)
        for (std::size_t y = 0; y < size.height; ++y) {
            std::memset(d.first + d.offset(y, z), value, size.width);
            note_written({d.end.a, d.end.offset + d.offset(y, z)}, size.width);
        }
    return cudaSuccess;
}

/// A 2-D or 3-D copy or memset on a capturing stream: simt's graphs have no node for one.
cudaError_t refuse_capture(const char* call, cudaStream_t stream,
                           const std::source_location& site) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (stream) cudaStreamIsCapturing(stream, &status);
    if (status == cudaStreamCaptureStatusNone) return cudaSuccess;
    return fail(cudaErrorStreamCaptureUnsupported,
                std::string(call) + at(site) + ": simt cannot capture a 2-D or 3-D copy or memset "
                "into a graph; make it before cudaStreamBeginCapture or after "
                "cudaStreamEndCapture (cudaErrorStreamCaptureUnsupported)");
}

cudaError_t memcpy_3d(const char* call, const cudaMemcpy3DParms* p,
                      const std::source_location& site) {
    const std::string head = std::string(call) + at(site) + ": ";
    if (!p) return fail(cudaErrorInvalidValue, head + "the cudaMemcpy3DParms pointer is null");
    // An array that is set is most often a struct never zeroed: simt has no CUDA arrays.
    for (auto [array, ptr, end] : {std::tuple{p->srcArray, p->srcPtr.ptr, "src"},
                                   std::tuple{p->dstArray, p->dstPtr.ptr, "dst"}}) {
        if (array)
            return fail(cudaErrorInvalidValue,
                        head + end + "Array is set, and simt has no CUDA arrays; if the copy is "
                        "between pointers, zero the parameters before filling them in "
                        "(cudaMemcpy3DParms p = {0};) (cudaErrorInvalidValue)");
        if (!ptr)
            return fail(cudaErrorInvalidValue,
                        head + end + "Ptr.ptr is null: neither " + end + "Array nor " + end +
                            "Ptr is set (make_cudaPitchedPtr) (cudaErrorInvalidValue)");
    }
    return copy_region(call, {p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.ysize, p->dstPos},
                       {p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.ysize, p->srcPos}, p->extent,
                       p->kind, site);
}

}  // namespace

cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind,
                         std::source_location site) {
    return copy_region("cudaMemcpy2D", {dst, dpitch, height, {}}, {src, spitch, height, {}},
                       {width, height, 1}, kind, site);
}

cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream, std::source_location site) {
    if (cudaError_t e = refuse_capture("cudaMemcpy2DAsync", stream, site)) return e;
    return copy_region("cudaMemcpy2DAsync", {dst, dpitch, height, {}}, {src, spitch, height, {}},
                       {width, height, 1}, kind, site);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p, std::source_location site) {
    return memcpy_3d("cudaMemcpy3D", p, site);
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream,
                              std::source_location site) {
    if (cudaError_t e = refuse_capture("cudaMemcpy3DAsync", stream, site)) return e;
    return memcpy_3d("cudaMemcpy3DAsync", p, site);
}

cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width,
                         std::size_t height, std::source_location site) {
    return set_region("cudaMemset2D", {ptr, pitch, height, {}}, value, {width, height, 1}, site);
}

cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width,
                              std::size_t height, cudaStream_t stream, std::source_location site) {
    if (cudaError_t e = refuse_capture("cudaMemset2DAsync", stream, site)) return e;
    return set_region("cudaMemset2DAsync", {ptr, pitch, height, {}}, value, {width, height, 1},
                      site);
}

cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent,
                         std::source_location site) {
    return set_region("cudaMemset3D", {pitched.ptr, pitched.pitch, pitched.ysize, {}}, value,
                      extent, site);
}

cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitched, int value, cudaExtent extent,
                              cudaStream_t stream, std::source_location site) {
    if (cudaError_t e = refuse_capture("cudaMemset3DAsync", stream, site)) return e;
    return set_region("cudaMemset3DAsync", {pitched.ptr, pitched.pitch, pitched.ysize, {}}, value,
                      extent, site);
}

cudaError_t cudaDeviceSynchronize() { return wait_all(); }

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
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
     "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled",
     "peer access is already enabled"},
    {cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled",
     "peer access has not been enabled"},
    {cudaErrorIllegalState, "cudaErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
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
    *count = simt::sim::config().devices;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return fail(cudaErrorInvalidValue, "");
    *device = tls_device;
    return cudaSuccess;
}

namespace {
cudaError_t invalid_device(const std::string& call, int device) {
    const int n = simt::sim::config().devices;
    return fail(cudaErrorInvalidDevice, call + ": there is no device " + std::to_string(device) +
                                            "; the simulator has " + std::to_string(n) + " (0.." +
                                            std::to_string(n - 1) +
                                            "; SIMT_DEVICES sets how many)");
}
bool valid_device(int device) { return device >= 0 && device < simt::sim::config().devices; }
}  // namespace

cudaError_t cudaSetDevice(int device) {
    if (!valid_device(device))
        return invalid_device("cudaSetDevice(" + std::to_string(device) + ")", device);
    tls_device = device;
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
    if (!valid_device(peer) || peer == tls_device)
        return invalid_device(
            "cudaDeviceEnablePeerAccess from device " + std::to_string(tls_device), peer);
    std::lock_guard lock(peers_m);
    if (!peers.insert({tls_device, peer}).second)
        return fail(cudaErrorPeerAccessAlreadyEnabled, "");
    peer_device_bits[tls_device].fetch_or(static_cast<std::uint16_t>(1u << peer));
    return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer) {
    if (!valid_device(peer)) return invalid_device("cudaDeviceDisablePeerAccess", peer);
    std::lock_guard lock(peers_m);
    if (peers.erase({tls_device, peer}) == 0) return fail(cudaErrorPeerAccessNotEnabled, "");
    peer_device_bits[tls_device].fetch_and(static_cast<std::uint16_t>(~(1u << peer)));
    return cudaSuccess;
}

cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                           std::size_t bytes, std::source_location site) {
    if (!valid_device(dst_device)) return invalid_device("cudaMemcpyPeer" + at(site), dst_device);
    if (!valid_device(src_device)) return invalid_device("cudaMemcpyPeer" + at(site), src_device);
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice, site);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                std::size_t bytes, cudaStream_t stream, std::source_location site) {
    if (!valid_device(dst_device))
        return invalid_device("cudaMemcpyPeerAsync" + at(site), dst_device);
    if (!valid_device(src_device))
        return invalid_device("cudaMemcpyPeerAsync" + at(site), src_device);
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
            return fail(cudaErrorInvalidValue,
                        "cudaDeviceGetAttribute: " + std::to_string(int(attr)) +
                            " is not a cudaDeviceAttr (cudaErrorInvalidValue)");
    }
    *value = v;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags) {
    if (flags & ~unsigned(cudaDeviceScheduleSpin | cudaDeviceScheduleYield |
                          cudaDeviceScheduleBlockingSync | cudaDeviceMapHost |
                          cudaDeviceLmemResizeToMax))
        return fail(cudaErrorInvalidValue,
                    "cudaSetDeviceFlags: " + std::to_string(flags) + " are not cudaDevice* flags");
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

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
    if (!stream) return fail(cudaErrorInvalidValue, "cudaStreamCreate: the pointer is null");
    *stream = new CUstream_st{};
    (*stream)->stream.impl().device = tls_device;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
    if (flags & ~unsigned(cudaStreamNonBlocking))
        return fail(cudaErrorInvalidValue,
                    "cudaStreamCreateWithFlags: " + std::to_string(flags) +
                        " is not cudaStreamDefault or cudaStreamNonBlocking");
    if (cudaError_t e = cudaStreamCreate(stream)) return e;
    (*stream)->stream.impl().blocking = !(flags & cudaStreamNonBlocking);
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream)
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaStreamDestroy: the default stream cannot be destroyed");
    delete stream;  // queued work still runs: the queue lives while it has work
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    return collect(
        [&] { (stream ? stream->stream : simt::Stream::default_stream()).synchronize(); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    if (sticky()) return sticky();
    const simt::Stream* s = cuda_stream(stream);
    auto& impl = s ? s->impl() : simt::Stream::default_stream().impl();
    if (!impl.idle()) return cudaErrorNotReady;
    // Done: what the stream's work wrote happens before what the host does next, as after a
    // cudaStreamSynchronize.
    order_host_waits(impl.id);
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
    if (!event)
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: the event is null");
    (stream ? stream->stream : simt::Stream::default_stream()).wait(event->event);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return fail(cudaErrorInvalidValue, "cudaEventCreate: the pointer is null");
    *event = new CUevent_st{};
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
    return cudaEventCreate(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    if (!event) return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: the event is null");
    event->event.record(cuda_stream(stream));
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    if (!event)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: the event is null");
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

cudaError_t simt::sim::detail::cuda_memcpy_symbol(const void* symbol, void* other,
                                                  std::size_t bytes, std::size_t offset,
                                                  cudaMemcpyKind kind, bool to_symbol,
                                                  std::source_location site) {
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
    if (!other)
        return fail(cudaErrorInvalidValue, std::string(call) + at(site) + ": a pointer is null");
    if (cudaError_t e =
            resolve(call, to_symbol ? "source" : "destination", other, bytes,
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
    if (!address && !bytes)
        return fail(cudaErrorInvalidValue,
                    std::string(call) + at(site) + ": the result pointer is null");
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
                                               std::to_string(attr) +
                                               " is not one the simulator knows");
    const std::size_t optin = simt::device_properties().shared_mem_per_block_optin;
    if (value < 0 || static_cast<std::size_t>(value) > optin)
        return fail(cudaErrorInvalidValue,
                    "cudaFuncSetAttribute" + at(site) + ": " + std::to_string(value) +
                        " bytes of dynamic shared memory; a block of the simulated " +
                        simt::device_properties().name + " may have at most " +
                        std::to_string(optin) + " (cudaDevAttrMaxSharedMemoryPerBlockOptin)");
    std::lock_guard lock(runtime().m);
    runtime().dynamic_shared_optin =
        std::max(runtime().dynamic_shared_optin, static_cast<std::size_t>(value));
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
    std::lock_guard lock(runtime().m);
    attr->maxDynamicSharedSizeBytes = static_cast<int>(
        std::max<std::size_t>(runtime().dynamic_shared_optin, LaunchLimits::max_shared_bytes));
    return cudaSuccess;
}
