// copy for the simt device system: the C++ system's, below simt's own (on_device.h).
#pragma once
#include <thrust/detail/config.h>
#include <thrust/system/cpp/detail/copy.h>
#include <thrust/system/simt/detail/on_device.h>
