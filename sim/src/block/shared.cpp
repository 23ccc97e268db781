// A block's shared memory: a __shared__ array made fresh for each block, the extern __shared__
// area, and the switch a schedule may make inside a read-modify-write of it.
#include <cstring>

#include "../memory/arena.hpp"
#include "../state/grid_run.hpp"
#include "../state/worker.hpp"

namespace simt::sim::detail {

void refresh_shared(Allocation& a, std::uint64_t& epoch) {
    if (!tls::thread)
        throw simt::Error("simt: a __shared__ array was used outside a kernel (declared at " +
                          where(a.site) + ")");
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    epoch = tls::block_epoch;
    std::memset(a.base, arena::poison_byte, a.size);
    b.shared_bytes += a.size;
    const KernelLaunch& k = b.grid->k;
    std::size_t limit = k.shared_optin ? device_properties().shared_mem_per_block_optin
                                       : LaunchLimits::max_shared_bytes;
    if (b.shared_bytes + k.shared_bytes > limit) {
        OutOfMemory why;
        why.problem = OutOfMemory::Problem::shared_per_block;
        why.launch = k.site;
        why.site = a.site;
        why.static_bytes = b.shared_bytes;
        why.dynamic_bytes = k.shared_bytes;
        why.total = limit;
        w.fail_thread(out_of_memory_text(why));
    }
}

Allocation* dynamic_shared_area() {
    if (!tls::thread) throw simt::Error("simt::dynamic_shared() called outside a kernel");
    return &tls::worker->dyn_shared;
}

void interleave_point(Loc) {
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    if (!b.schedule.switch_inside_rmw()) return;
    ThreadState& ts = *tls::thread;
    ts.status = Status::waiting;
    ++b.waiting;
    w.make_ready(ts);
    w.yield_current(ts);
}

}  // namespace simt::sim::detail
