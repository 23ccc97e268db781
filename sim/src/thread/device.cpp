// The simulator describes itself as a device with the limits it enforces.
#include <algorithm>
#include <thread>

#include "../runtime.hpp"
#include "simt/host/detect.hpp"

namespace simt {

DeviceProperties device_properties() {
    DeviceProperties p;
    p.name = "simt CPU simulator";
    p.major = 8;
    p.minor = 0;
    int workers = sim::config().workers;
    p.multi_processor_count =
        workers > 0 ? workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    p.total_global_mem = 0;
    p.simulator = true;
    return p;
}

bool detect() {
    return detail::print_devices("simt", {device_properties()}) > 0;
}

}  // namespace simt
