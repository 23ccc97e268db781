// simt::detect() and simt::device_properties() for the simulator, which is its own device.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include "simt/core/device_properties.hpp"

namespace simt {

/// Prints the devices found, like numba.cuda.detect(); returns true if there is one.
/// In the simulator: describes the simulator and the CUDA limits it enforces.
bool detect();
/// The properties of the device kernels run on.
DeviceProperties device_properties();

}  // namespace simt
