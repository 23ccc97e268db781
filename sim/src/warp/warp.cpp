// Warp intrinsics: lanes named in a mask meet as fibers; the last to arrive computes every result.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "../check/checker.hpp"

namespace simt::sim::detail {

namespace {

const char* op_name(WarpOp op) {
    switch (op) {
        case WarpOp::sync: return "__syncwarp()";
        case WarpOp::shfl: return "__shfl_sync()";
        case WarpOp::shfl_up: return "__shfl_up_sync()";
        case WarpOp::shfl_down: return "__shfl_down_sync()";
        case WarpOp::shfl_xor: return "__shfl_xor_sync()";
        case WarpOp::ballot: return "__ballot_sync()";
        case WarpOp::any: return "__any_sync()";
        case WarpOp::all: return "__all_sync()";
        case WarpOp::match_any: return "__match_any_sync()";
        case WarpOp::match_all: return "__match_all_sync()";
        case WarpOp::coalesce: return "coalesced_threads()";
        case WarpOp::reduce_add: return "__reduce_add_sync()";
        case WarpOp::reduce_min: return "__reduce_min_sync()";
        case WarpOp::reduce_max: return "__reduce_max_sync()";
        case WarpOp::reduce_and: return "__reduce_and_sync()";
        case WarpOp::reduce_or: return "__reduce_or_sync()";
        case WarpOp::reduce_xor: return "__reduce_xor_sync()";
        case WarpOp::collective: return "a warp-wide operation";
    }
    return "a warp intrinsic";
}

/// The lane whose value `lane` receives from a shuffle; its own when the source is out of range.
unsigned source_lane(WarpOp op, unsigned lane, int arg, int width) {
    unsigned w = (width >= 1 && width <= 32) ? static_cast<unsigned>(width) : 32;
    unsigned seg = lane & ~(w - 1);
    switch (op) {
        case WarpOp::shfl: return seg + (static_cast<unsigned>(arg) & (w - 1));
        case WarpOp::shfl_up:
            return lane >= seg + static_cast<unsigned>(arg) ? lane - static_cast<unsigned>(arg)
                                                            : lane;
        case WarpOp::shfl_down:
            return lane + static_cast<unsigned>(arg) < seg + w ? lane + static_cast<unsigned>(arg)
                                                               : lane;
        case WarpOp::shfl_xor: {
            unsigned s = lane ^ static_cast<unsigned>(arg);
            return (s & ~(w - 1)) == seg ? s : lane;
        }
        default: return lane;
    }
}

/// The lanes of `mask` holding the same value as `lane`.
unsigned matching(const WarpState& ws, unsigned mask, unsigned lane) {
    unsigned same = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l & 1) && ws.value[l] == ws.value[lane]) same |= 1u << l;
    return same;
}

/// __reduce_*_sync over the lanes of `mask`: 32-bit integers, signed when `is_signed`.
std::uint64_t reduce_lanes(const WarpState& ws, WarpOp op, unsigned mask, bool is_signed) {
    std::uint32_t acc = 0;
    bool first = true;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const auto v = static_cast<std::uint32_t>(ws.value[l]);
        const auto sv = static_cast<std::int32_t>(v), sacc = static_cast<std::int32_t>(acc);
        if (first) acc = v;
        else if (op == WarpOp::reduce_add) acc += v;
        else if (op == WarpOp::reduce_min) acc = is_signed ? std::uint32_t(std::min(sacc, sv)) : std::min(acc, v);
        else if (op == WarpOp::reduce_max) acc = is_signed ? std::uint32_t(std::max(sacc, sv)) : std::max(acc, v);
        else if (op == WarpOp::reduce_and) acc &= v;
        else if (op == WarpOp::reduce_or) acc |= v;
        else acc ^= v;
        first = false;
    }
    return acc;
}

/// A shuffle whose lane reads a lane that is in the warp but not in the mask: CUDA leaves the
/// value undefined (NVIDIA's own reduction sample did it, cuda-samples issue 398). Reported once
/// for the call's line; the lane gets its own value, as simt gives for any undefined source.
void report_outside_mask(const BlockState& b, unsigned warp, const WarpMeeting& m, unsigned lane,
                         unsigned src) {
    WarpMisuseDraft d;
    d.problem = WarpMisuseDraft::Problem::reads_outside_mask;
    d.thread = b.threads[warp * 32 + lane].idx;
    d.block = b.idx;
    d.lane = lane;
    d.warp = warp;
    d.what = m.what;
    d.site = m.site;
    d.mask = m.mask;
    d.source = src;
    checks_warp_misuse(FindingKind::warp_mask, d, /*ends_block=*/false);
}

void complete(Worker& w, WarpState& ws, unsigned warp, const WarpMeeting& m) {
    BlockState& b = w.block;
    if (m.op == WarpOp::sync) {
        checks_warp_sync(b, warp, m.mask);
        for (unsigned l = 0; l < 32; ++l)
            if (m.mask >> l & 1) spin_forget(b, warp * 32 + l, 1);
    }
    if (tls_profile) profile_warp_meeting(b, warp, m.mask);
    if (m.op == WarpOp::collective) {
        WarpCollective* lanes[32] = {};
        for (unsigned l = 0; l < 32; ++l)
            if (m.mask >> l & 1) lanes[l] = std::bit_cast<WarpCollective*>(ws.value[l]);
        if (WarpCollective* first = lanes[std::countr_zero(m.mask)]; first && first->run)
            first->run(lanes);
    }
    unsigned votes = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((m.mask >> l & 1) && ws.value[l]) votes |= 1u << l;
    unsigned all_same =
        m.op == WarpOp::match_all ? matching(ws, m.mask, std::countr_zero(m.mask)) : 0;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(m.mask >> l & 1)) continue;
        switch (m.op) {
            case WarpOp::sync: ws.result[l] = 0; break;
            case WarpOp::ballot: ws.result[l] = votes; break;
            case WarpOp::any: ws.result[l] = votes != 0; break;
            case WarpOp::all: ws.result[l] = votes == m.mask; break;
            case WarpOp::match_any: ws.result[l] = matching(ws, m.mask, l); break;
            case WarpOp::match_all: ws.result[l] = all_same == m.mask ? m.mask : 0; break;
            case WarpOp::collective: ws.result[l] = 0; break;
            case WarpOp::reduce_add:
            case WarpOp::reduce_min:
            case WarpOp::reduce_max:
            case WarpOp::reduce_and:
            case WarpOp::reduce_or:
            case WarpOp::reduce_xor:
                ws.result[l] = reduce_lanes(ws, m.op, m.mask, ws.arg[l] != 0);
                break;
            default: {
                unsigned src = source_lane(m.op, l, ws.arg[l], ws.width[l]);
                // A source outside the mask is undefined in CUDA. A lane of the warp that the
                // mask leaves out gives 0: a reduction over the lanes a ballot picked (NVIDIA's
                // reduction sample) then sums right, as it does on GPUs, whose left-out lanes
                // hold 0 there (unverified on a GPU: docs/gpu-verification.md). Lanes past the
                // end of a partial last warp are no threads at all (warp_meet): the caller keeps
                // its own value, as a shuffle scan guarded by the lane's index expects.
                const bool left_out = !(m.mask >> src & 1) && warp * 32 + src < b.nthreads;
                if (left_out) report_outside_mask(b, warp, m, l, src);
                ws.result[l] = (m.mask >> src & 1) ? ws.value[src] : left_out ? 0 : ws.value[l];
            }
        }
    }
    b.lanes_grouped = true;
    for (unsigned i = 0; i < 32; ++i) {
        unsigned l = b.schedule.lane(i);
        if (m.mask >> l & 1) {
            b.threads[warp * 32 + l].group = m.mask;
            w.make_ready(b.threads[warp * 32 + l]);
        }
    }
}

/// The lanes of `warp` that have not exited (not-yet-started lanes count: they run alongside).
unsigned live_lanes(const BlockState& b, unsigned warp) {
    unsigned mask = 0;
    for (unsigned l = 0; l < 32 && warp * 32 + l < b.nthreads; ++l)
        if (b.threads[warp * 32 + l].status != Status::done) mask |= 1u << l;
    return mask;
}

}  // namespace

std::uint64_t warp_meet(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width, Loc loc,
                        const char* what) {
    if (!what) what = op_name(op);
    if (!tls::thread) called_on_host(what, loc, "warp intrinsics exist only inside kernels");
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls::thread;
    unsigned lane = ts.linear % 32, warp = ts.linear / 32;
    unsigned lanes = std::min(32u, b.nthreads - warp * 32);
    unsigned exists = lanes == 32 ? ~0u : (1u << lanes) - 1;
    // Built only for a report: every lane of every warp intrinsic passes here.
    auto fail = [&](WarpMisuseDraft::Problem problem, FindingKind kind, const WarpMeeting* other) {
        WarpMisuseDraft d;
        d.problem = problem;
        d.thread = ts.idx;
        d.block = b.idx;
        d.lane = lane;
        d.warp = warp;
        d.what = what;
        d.site = loc;
        d.mask = mask;
        if (other) d.other = other->what, d.other_site = other->site;
        checks_warp_misuse(kind, d, /*ends_block=*/true);
        w.fail_thread(warp_misuse_text(d));
    };
    if (!(mask >> lane & 1))
        fail(WarpMisuseDraft::Problem::caller_left_out, FindingKind::warp_mask, nullptr);
    // Lanes past the end of a partial last warp (a block of 120 threads) are no threads at all:
    // like exited ones, which CUDA's *_sync rule leaves out ("all non-exited threads named in
    // mask must execute the same intrinsic"), they are not waited for, and a shuffle from one
    // gives the caller its own value (undefined in CUDA). So a full mask in the last warp, as
    // NVIDIA's shfl_scan sample and every warp reduction written for blocks of any size pass it,
    // is the mask of the lanes that are there.
    mask &= exists;
    WarpState& ws = b.warps[warp];
    auto it = std::find_if(ws.open.begin(), ws.open.end(), [&](const WarpMeeting& m) {
        return m.mask == mask && m.op != WarpOp::coalesce;
    });
    if (it == ws.open.end()) {
        ws.open.push_back({mask, 0, op, loc, what});
        it = ws.open.end() - 1;
    } else if (it->op != op || (op == WarpOp::collective && std::strcmp(it->what, what) != 0)) {
        fail(WarpMisuseDraft::Problem::other_intrinsic, FindingKind::warp_divergence, &*it);
    }
    ws.value[lane] = value;
    ws.arg[lane] = arg;
    ws.width[lane] = width;
    it->arrived |= 1u << lane;
    start_waiting(b, ts, WaitKind::warp, loc, what);
    if (it->arrived == it->mask) {
        WarpMeeting m = *it;
        ws.open.erase(it);
        complete(w, ws, warp, m);
    }
    w.block_current(ts);
    // The first lane of the group to resume takes the snapshot for all of them. Every thread of
    // the block has started by now (block_current starts them first), so lanes that exit early
    // have exited: what the converged group would see on hardware.
    if (ts.group) {
        unsigned live = live_lanes(b, warp), group = ts.group;
        for (unsigned l = 0; l < 32; ++l)
            if (group >> l & 1)
                b.threads[warp * 32 + l].active = live, b.threads[warp * 32 + l].group = 0;
    }
    return ws.result[lane];
}

void warp_collective(unsigned mask, WarpCollective* mine, Loc loc, const char* what) {
    warp_meet(WarpOp::collective, mask, std::bit_cast<std::uint64_t>(mine), 0, 32, loc, what);
}

unsigned coalesced_lanes(Loc loc) {
    if (!tls::thread)
        called_on_host("coalesced_threads()", loc, "cooperative groups exist only inside kernels");
    Worker& w = *tls::worker;
    BlockState& b = w.block;
    ThreadState& ts = *tls::thread;
    unsigned lane = ts.linear % 32;
    WarpState& ws = b.warps[ts.linear / 32];
    auto it = std::find_if(ws.open.begin(), ws.open.end(), [&](const WarpMeeting& m) {
        return m.op == WarpOp::coalesce && same_site(m.site, loc);
    });
    if (it == ws.open.end()) {
        ws.open.push_back({0, 0, WarpOp::coalesce, loc, op_name(WarpOp::coalesce)});
        it = ws.open.end() - 1;
    }
    it->arrived |= 1u << lane;
    start_waiting(b, ts, WaitKind::warp, loc, op_name(WarpOp::coalesce));
    w.block_current(ts);  // the executor calls resolve_coalesced once nothing else can run
    return static_cast<unsigned>(ws.result[lane]);
}

bool resolve_coalesced(Worker& w) {
    BlockState& b = w.block;
    bool any = false;
    for (unsigned warp = 0; warp < b.warps.size(); ++warp) {
        WarpState& ws = b.warps[warp];
        for (auto it = ws.open.begin(); it != ws.open.end();) {
            if (it->op != WarpOp::coalesce) {
                ++it;
                continue;
            }
            unsigned group = it->arrived;
            b.lanes_grouped = true;
            for (unsigned i = 0; i < 32; ++i) {
                unsigned l = b.schedule.lane(i);
                if (!(group >> l & 1)) continue;
                ws.result[l] = group;
                b.threads[warp * 32 + l].active = group;  // what __activemask() says in there
                w.make_ready(b.threads[warp * 32 + l]);
            }
            it = ws.open.erase(it);
            any = true;
        }
    }
    return any;
}

unsigned active_mask() {
    if (!tls::thread) throw simt::Error("simt: __activemask() called on the host");
    // Lanes run one after another here, so "currently active" means: the lanes that were live
    // when this one left its last warp intrinsic (the group it converged with), else all live.
    ThreadState& ts = *tls::thread;
    settle_plain_run(tls::worker->block, ts.linear);  // the lanes before it have ended
    return ts.active ? ts.active : live_lanes(tls::worker->block, ts.linear / 32);
}

}  // namespace simt::sim::detail
