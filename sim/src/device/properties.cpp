// The simulator describes itself as the GPU it models (SIMT_DEVICE, device/model.hpp): that GPU's
// published values for everything a program may read from cudaDeviceProp, and the limits it
// enforces. Nothing here depends on the host, so a report made on 2 cores is the one made on 64.
#include "model.hpp"
#include "simt/host/detect.hpp"

namespace simt {

DeviceProperties device_properties() {
    return sim::detail::properties_of(sim::detail::gpu_model());
}

bool detect() {
    return detail::print_devices("simt", {device_properties()}) > 0;
}

}  // namespace simt
