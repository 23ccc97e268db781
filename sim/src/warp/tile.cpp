// Tiles of several warps (thread_block_tile<64> to <512>): their collectives are one meeting of
// the tile's threads across its warps, as a GPU's are a barrier over the tile's warps.
#include <algorithm>
#include <cstring>

#include "../check/checker.hpp"

namespace simt::sim::detail {

std::shared_ptr<const std::vector<std::uint64_t>> tile_meet(unsigned size, std::uint64_t value,
                                                            bool orders, Loc loc,
                                                            const char* what) {
    if (!tls::thread) called_on_host(what, loc, "cooperative groups exist only inside kernels");
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls::thread;
    const unsigned first = ts.linear & ~(size - 1), rank = ts.linear - first;
    auto fail = [&](WarpMisuseDraft::Problem problem, FindingKind kind, const TileMeeting* other) {
        WarpMisuseDraft d;
        d.problem = problem;
        d.tile = true;
        d.thread = ts.idx;
        d.block = b.idx;
        d.lane = rank;
        d.warp = first / size;
        d.what = what;
        d.site = loc;
        d.tile_size = size;
        d.tile_threads = b.nthreads - first;
        d.block_threads = b.nthreads;
        if (other) d.other = other->what, d.other_site = other->site;
        checks_warp_misuse(kind, d, /*ends_block=*/true);
        w.fail_thread(warp_misuse_text(d));
    };
    // CUDA's tiles of several warps count their warps at a barrier of the tile: one with fewer
    // threads than its size never completes on a GPU.
    if (first + size > b.nthreads)
        fail(WarpMisuseDraft::Problem::short_tile, FindingKind::warp_mask, nullptr);
    auto it = std::find_if(b.tiles.begin(), b.tiles.end(), [&](const TileMeeting& m) {
        return m.first == first && m.size == size;
    });
    if (it == b.tiles.end()) {
        b.tiles.push_back({first, size, 0, orders, loc, what,
                           std::make_shared<std::vector<std::uint64_t>>(size),
                           std::vector<bool>(size)});
        it = b.tiles.end() - 1;
    } else if (std::strcmp(it->what, what) != 0) {
        fail(WarpMisuseDraft::Problem::other_intrinsic, FindingKind::warp_divergence, &*it);
    }
    (*it->values)[rank] = value;
    it->came[rank] = true;
    std::shared_ptr<const std::vector<std::uint64_t>> values = it->values;
    start_waiting(b, ts, WaitKind::warp, loc, what);
    if (++it->arrived == size) {
        const bool sync = it->orders;
        b.tiles.erase(it);
        if (sync) {
            checks_tile_sync(b, first, size);
            spin_forget(b, first, size);
        }
        // Warp by warp, each in the schedule's lane order, as a warp meeting releases its lanes.
        for (unsigned warp = first / 32; warp < (first + size) / 32; ++warp)
            for (unsigned i = 0; i < 32; ++i)
                w.make_ready(b.threads[warp * 32 + b.schedule.lane(i)]);
    }
    w.block_current(ts);
    return values;
}

}  // namespace simt::sim::detail
