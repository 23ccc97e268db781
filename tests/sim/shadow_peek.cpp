// What the race checker's shadow cell of an element holds, for tests that compare it between
// runs (parallel_checks_test.cu). Plain C++: the simulator's internal headers are not .cu code.
#include "shadow_peek.hpp"

#include "../../sim/src/check/shadow.hpp"
#include "../../sim/src/memory/arena.hpp"

namespace test {

namespace {

ShadowRead read_of(std::uint32_t exec, std::uint32_t tsite) {
    using namespace simt::sim::detail;
    if (exec == exec_host) return {false, 0, 0, 0, ShadowRead::Other::host_copy};
    if (exec == exec_aside) return {false, 0, 0, 0, ShadowRead::Other::set_aside};
    if (exec == exec_none) return {};
    uint3 block;
    const LaunchInfo& launch = launch_of(exec, block);
    return {true, block.x + std::uint64_t(block.y) * launch.grid.x, tsite & 0x3FF,
            site_of(tsite >> 12).line()};
}

}  // namespace

std::optional<ShadowReads> kept_reads(const void* element) {
    using namespace simt::sim::detail;
    const Allocation* a = arena::owner_in_range(element);
    if (!a || !a->shadow) return std::nullopt;
    const auto i = static_cast<std::size_t>(static_cast<const std::byte*>(element) - a->base) /
                   a->elem_size;
    const Cell cell = cell_of(*a, i);
    return ShadowReads{read_of(cell.r.exec, cell.r.tsite), read_of(cell.r2.exec, cell.r2.tsite),
                       read_of(cell.w.exec, cell.w.tsite)};
}

}  // namespace test
