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
    auto fail = [&](std::string msg, FindingKind kind) {
        msg = "simt: thread " + coord(ts.idx) + " (rank " + std::to_string(rank) + " of tile " +
              std::to_string(first / size) + ") of block " + coord(b.idx) + " calls " + what +
              " at " + where(loc) + msg;
        checks_warp_misuse(kind, msg, loc, /*ends_block=*/true);
        w.fail_thread(std::move(msg));
    };
    // CUDA's tiles of several warps count their warps at a barrier of the tile: one with fewer
    // threads than its size never completes on a GPU.
    if (first + size > b.nthreads)
        fail(", in a tile of " + std::to_string(size) + " threads that holds only " +
                 std::to_string(b.nthreads - first) + " (the block has " +
                 std::to_string(b.nthreads) + "): a GPU's tile of several warps waits for all " +
                 std::to_string(size / 32) + " of its warps and would hang. Launch blocks of a "
                 "multiple of " + std::to_string(size) + " threads",
             FindingKind::warp_mask);
    auto it = std::find_if(b.tiles.begin(), b.tiles.end(), [&](const TileMeeting& m) {
        return m.first == first && m.size == size;
    });
    if (it == b.tiles.end()) {
        b.tiles.push_back({first, size, 0, orders, loc, what,
                           std::make_shared<std::vector<std::uint64_t>>(size),
                           std::vector<bool>(size)});
        it = b.tiles.end() - 1;
    } else if (std::strcmp(it->what, what) != 0) {
        fail(" while other threads of its tile wait in " + std::string(it->what) + " at " +
                 where(it->site) + "; every thread of a tile must call the same collective",
             FindingKind::warp_divergence);
    }
    (*it->values)[rank] = value;
    it->came[rank] = true;
    std::shared_ptr<const std::vector<std::uint64_t>> values = it->values;
    start_waiting(b, ts, WaitKind::warp, loc, what);
    if (++it->arrived == size) {
        const bool sync = it->orders;
        b.tiles.erase(it);
        if (sync) checks_tile_sync(b, first, size);
        // Warp by warp, each in the schedule's lane order, as a warp meeting releases its lanes.
        for (unsigned warp = first / 32; warp < (first + size) / 32; ++warp)
            for (unsigned i = 0; i < 32; ++i)
                w.make_ready(b.threads[warp * 32 + b.schedule.lane(i)]);
    }
    w.block_current(ts);
    return values;
}

}  // namespace simt::sim::detail
