// The runtime API's memory: cudaMalloc and its kin, pinned host memory, managed memory's hints,
// copies and memsets in one, two and three dimensions, and device variables.
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "../launch/gpu_clock.hpp"
#include "../launch/streams.hpp"
#include "../memory/arena.hpp"
#include "../memory/memory.hpp"
#include "../launch/grid.hpp"
#include "../check/host_pointers.hpp"
#include "cuda_api.hpp"

namespace simt::sim::detail {

Allocation* allocate(std::size_t bytes, std::size_t elem_size, const char* elem_type, Loc site,
                     int device) {
    Allocation* a = new_device_array(bytes, elem_size, elem_type, site, device);
    checks_allocated(*a);
    return a;
}

void release(Allocation* a) {
    wait_all_quietly();  // like cudaFree: queued kernels may still use it
    if (a->freed) return;
    checks_freed(*a);
    free_device_array(a);
}

Allocation* find(const void* p, std::size_t& offset) {
    Allocation* a = arena::contains(p) ? arena::owner_in_range(p) : nullptr;
    auto b = static_cast<const std::byte*>(p);
    if (!a || a->freed || a->space == Space::shared || b < a->base ||
        b >= a->base + std::max<std::size_t>(a->size, 1))
        return nullptr;  // not device memory, freed, a red page, or a block's shared array
    offset = static_cast<std::size_t>(b - a->base);
    return a;
}

cudaError_t resolve(const char* call, const char* role, const void* p, std::size_t bytes,
                    bool device_expected, bool known, End& end, const std::source_location& site,
                    const RegionShape& region) {
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
    if (end.a && end.offset + bytes > end.a->size) {
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::past_allocation;
        r.call = call;
        r.site = site;
        r.role = role;
        r.array = end.a;
        r.bytes = bytes;
        r.offset = end.offset;
        r.region = region;
        return fail(cudaErrorInvalidValue, memory_refusal_text(r));
    }
    return cudaSuccess;
}

cudaError_t resolve_symbol(const char* call, const void* symbol, std::size_t bytes,
                           std::size_t offset, End& end, const std::source_location& site) {
    Allocation* a = arena::contains(symbol) ? arena::owner_in_range(symbol) : nullptr;
    if (!a || !a->symbol || a->base != symbol)
        return fail(cudaErrorInvalidSymbol,
                    std::string(call) + at(site) + ": the symbol is not a __device__ or "
                    "__constant__ variable; pass the variable itself (not its address). simt "
                    "makes device variables of the namespace-scope declarations in the .cu files "
                    "given to simt_add_executable, not of those in headers, const or extern ones");
    if (offset + bytes > a->size) {
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::past_variable;
        r.call = call;
        r.site = site;
        r.array = a;
        r.bytes = bytes;
        r.offset = offset;
        return fail(cudaErrorInvalidValue, memory_refusal_text(r));
    }
    end = {a, offset};
    return cudaSuccess;
}

void note_written(const End& e, std::size_t bytes) {
    if (e.a) checks_host_wrote(*e.a, e.offset, bytes);
}

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
        a = allocate(bytes, elem_size, elem_type, site, current_device());
    } catch (const simt::Error& e) {
        *ptr = nullptr;
        return fail(cudaErrorMemoryAllocation,
                    std::string(call) + " refused: " + without_prefix(e.what()) +
                        " (it returns cudaErrorMemoryAllocation and sets the pointer to null)");
    }
    a->cuda = true;
    if (!managed) a->device_bits = static_cast<std::uint16_t>(1u << current_device());
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
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::rows_overflow;
        r.call = call;
        r.site = site;
        r.region.rows = height;
        r.region.width = width;
        return fail(cudaErrorMemoryAllocation, memory_refusal_text(r));
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
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
        ApiErrorDraft e;
        e.problem = ApiErrorDraft::Problem::flags_must_be;
        e.call = "cudaMallocManaged";
        e.site = site;
        e.value = flags;
        e.accepted = "cudaMemAttachGlobal or cudaMemAttachHost";
        return fail(cudaErrorInvalidValue, api_error_text(e));
    }
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
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::slices_overflow;
        r.call = "cudaMalloc3D";
        r.site = site;
        r.region.slices = extent.depth;
        r.region.rows = extent.height;
        return fail(cudaErrorMemoryAllocation, memory_refusal_text(r));
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
    using Problem = MemoryRefusal::Problem;
    Allocation* a = arena::contains(ptr) ? arena::owner_in_range(ptr) : nullptr;
    auto* b = static_cast<const std::byte*>(ptr);
    MemoryRefusal r;
    r.call = call;
    r.site = site;
    r.array = a;
    if (!a) {
        bool pinned;
        {
            HostAllocations& h = host_allocations();
            std::lock_guard lock(h.m);
            pinned = h.live.count(ptr) > 0;
        }
        r.problem = pinned ? Problem::free_pinned : Problem::free_host;
    } else if (a->cuda && a->freed && b == a->base) {
        r.problem = Problem::free_twice;
    } else if (a->cuda && !a->freed && b >= a->base &&
               b < a->base + std::max<std::size_t>(a->size, 1)) {
        r.problem = Problem::free_inside;
        r.offset = static_cast<std::size_t>(b - a->base);
    } else if (a->symbol) {
        r.problem = Problem::free_variable;
    } else if (a->space == Space::global && !a->cuda) {
        r.problem = Problem::free_device_array;
    } else {
        r.problem = Problem::free_unknown;
    }
    return fail(cudaErrorInvalidValue, memory_refusal_text(r));
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
    if (flags &
        ~unsigned(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) {
        ApiErrorDraft e;
        e.problem = ApiErrorDraft::Problem::not_its_flags;
        e.call = call;
        e.site = site;
        e.value = flags;
        e.accepted = "cudaHostAlloc";
        return fail(cudaErrorInvalidValue, api_error_text(e));
    }
    if (sticky()) return sticky();
    // Pinned memory is the host's own, locked in place: no more than the machine has.
    const std::size_t host = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                             static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* p = bytes <= host ? std::aligned_alloc(256, (std::max<std::size_t>(bytes, 1) + 255) &
                                                          ~std::size_t(255))
                            : nullptr;
    if (!p) {
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::pinned_too_large;
        r.call = call;
        r.site = site;
        r.bytes = bytes;
        r.limit = host;
        return fail(cudaErrorMemoryAllocation, memory_refusal_text(r));
    }
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
    *free = *total - std::min(*total, global_bytes_in_use(current_device()));
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
    ApiErrorDraft e;
    e.problem = ApiErrorDraft::Problem::no_hint_device;
    e.call = call;
    e.site = site;
    e.value = device;
    e.devices = count;
    e.host_allowed = host_allowed;
    return fail(cudaErrorInvalidDevice, api_error_text(e));
}

cudaError_t check_hint_location(const char* call, cudaMemLocation where_to, bool host_allowed,
                                const std::source_location& site) {
    ApiErrorDraft e;
    e.call = call;
    e.site = site;
    e.host_allowed = host_allowed;
    switch (where_to.type) {
        case cudaMemLocationTypeDevice: return check_hint_device(call, where_to.id, false, site);
        case cudaMemLocationTypeHost:
        case cudaMemLocationTypeHostNumaCurrent:
            if (host_allowed) return cudaSuccess;
            break;
        case cudaMemLocationTypeHostNuma:
            if (host_allowed && where_to.id == 0) return cudaSuccess;
            if (host_allowed) {
                e.problem = ApiErrorDraft::Problem::no_numa_node;
                e.value = where_to.id;
                return fail(cudaErrorInvalidValue, api_error_text(e));
            }
            break;
        default: break;
    }
    e.problem = ApiErrorDraft::Problem::not_a_location_type;
    e.value = int(where_to.type);
    return fail(cudaErrorInvalidValue, api_error_text(e));
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
    if (offset + bytes > a->size) {
        MemoryRefusal r;
        r.problem = MemoryRefusal::Problem::past_managed;
        r.call = call;
        r.site = site;
        r.array = a;
        r.bytes = bytes;
        r.offset = offset;
        return fail(cudaErrorInvalidValue, memory_refusal_text(r));
    }
    return cudaSuccess;
}

bool advice_names_device(cudaMemoryAdvise advice) {
    return advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
}

cudaError_t check_advice(cudaMemoryAdvise advice, const std::source_location& site) {
    if (advice >= cudaMemAdviseSetReadMostly && advice <= cudaMemAdviseUnsetAccessedBy)
        return cudaSuccess;
    ApiErrorDraft e;
    e.problem = ApiErrorDraft::Problem::not_an_advice;
    e.call = "cudaMemAdvise";
    e.site = site;
    e.value = int(advice);
    return fail(cudaErrorInvalidValue, api_error_text(e));
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

namespace {

/// The stream a copy or memset belongs to: cudaMemcpy's is the legacy default stream.
StreamImpl& stream_of(cudaStream_t stream) {
    const simt::Stream* s = cuda_stream(stream);
    return s ? s->impl() : simt::Stream::default_stream().impl();
}

/// Places a copy of `bytes` between `d` and `s` on the GPU's clock (launch/gpu_clock.hpp):
/// the copy engine its direction takes, or the multiprocessors for device to device. The host
/// waits for it where CUDA's host would: a blocking call, or pageable host memory, which the
/// driver stages before the call returns.
void place_copy(cudaStream_t stream, const End& d, const End& s, const void* host,
                std::size_t bytes, bool blocking, double sim_start) {
    if (!gpu_clock_on() || (!d.a && !s.a)) return;  // host to host: no GPU work
    StreamImpl& impl = stream_of(stream);
    // On the clock a copy is an operation of its stream, ordered by the legacy default stream's
    // rule as a launch is. The simulator itself runs it after every stream (wait_all), so the
    // waits this queues order nothing more there: they are made only when the clock reads them.
    order_with_legacy_default(impl);
    const bool pinned = !(d.a && s.a) && pinned_host_memory(host);
    const Engine e = d.a && s.a ? Engine::multiprocessors
                     : d.a      ? Engine::to_device
                                : Engine::to_host;
    const ClockOp op = clock_copy(impl, e, bytes, pinned, false, sim_start);
    if (blocking || (e != Engine::multiprocessors && !pinned)) clock_host_waits(op);
}

cudaError_t copy(const char* call, void* dst, const void* src, std::size_t bytes,
                 cudaMemcpyKind kind, cudaStream_t stream, bool blocking,
                 const std::source_location& site) {
    if (cudaError_t e = check_kind(call, kind, site)) return e;
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return fail(cudaErrorInvalidValue, call + at(site) + ": a pointer is null");
    const Direction to = direction(kind);
    End d, s;
    if (cudaError_t e = resolve(call, "destination", dst, bytes, to.dst_device, to.known, d, site))
        return e;
    if (cudaError_t e = resolve(call, "source", src, bytes, to.src_device, to.known, s, site))
        return e;
    const double began = clock_now_us();
    std::memmove(dst, src, bytes);
    note_written(d, bytes);
    place_copy(stream, d, s, d.a ? src : dst, bytes, blocking, began);
    return cudaSuccess;
}

cudaError_t set(const char* call, void* ptr, int value, std::size_t bytes, cudaStream_t stream,
                bool blocking, const std::source_location& site) {
    if (cudaError_t e = wait_all()) return e;
    if (bytes == 0) return cudaSuccess;
    End d;
    if (cudaError_t e = resolve(call, "destination", ptr, bytes, true, true, d, site)) return e;
    const double began = clock_now_us();
    std::memset(ptr, value, bytes);
    note_written(d, bytes);
    if (gpu_clock_on()) {
        StreamImpl& impl = stream_of(stream);
        order_with_legacy_default(impl);  // as place_copy says
        const ClockOp op = clock_copy(impl, Engine::multiprocessors, bytes, false, true, began);
        if (blocking) clock_host_waits(op);
    }
    return cudaSuccess;
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       std::source_location site) {
    return copy("cudaMemcpy", dst, src, bytes, kind, nullptr, true, site);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream, std::source_location site) {
    if (captured_memcpy(stream, dst, src, bytes, kind, site)) return cudaSuccess;  // graph.cpp
    return copy("cudaMemcpyAsync", dst, src, bytes, kind, stream, false, site);
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes, std::source_location site) {
    return set("cudaMemset", ptr, value, bytes, nullptr, true, site);
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream,
                            std::source_location site) {
    if (captured_memset(stream, ptr, value, bytes, site)) return cudaSuccess;  // graph.cpp
    return set("cudaMemsetAsync", ptr, value, bytes, stream, false, site);
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

/// CUDA's rules for one end of a region: its rows fit in the pitch and, with more than one slice,
/// its rows fit in a slice. A pitch below the width is cudaErrorInvalidPitchValue for a copy and,
/// as CUDA documents it, cudaErrorInvalidValue for a memset, which ignores the pitch of one row.
cudaError_t check_shape(const char* call, const char* role, const Pitched& o, cudaExtent size,
                        bool copy, const std::source_location& site) {
    using Problem = MemoryRefusal::Problem;
    MemoryRefusal r;
    r.call = call;
    r.site = site;
    r.role = role;
    r.region = {size.depth, size.height, size.width, o.pitch};
    r.ysize = o.ysize;
    r.x = o.pos.x;
    r.y = o.pos.y;
    if (size.width > o.pitch && (copy || size.height > 1 || size.depth > 1)) {
        const cudaError_t code = copy ? cudaErrorInvalidPitchValue : cudaErrorInvalidValue;
        r.problem = Problem::width_past_pitch;
        r.error = cudaGetErrorName(code);
        return fail(code, memory_refusal_text(r));
    }
    if (copy && o.pitch > max_pitch) {
        r.problem = Problem::pitch_too_large;
        r.limit = max_pitch;
        return fail(cudaErrorInvalidPitchValue, memory_refusal_text(r));
    }
    if (size.width <= o.pitch && o.pos.x > o.pitch - size.width) {
        r.problem = Problem::past_row;
        return fail(cudaErrorInvalidValue, memory_refusal_text(r));
    }
    if (size.depth > 1 && (size.height > o.ysize || o.pos.y > o.ysize - size.height)) {
        r.problem = Problem::past_slice;
        return fail(cudaErrorInvalidValue, memory_refusal_text(r));
    }
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
    const RegionShape region{size.depth, size.height, size.width, o.pitch};
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
