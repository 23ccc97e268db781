// temporary_buffer for the simt device system: the C++ system's, below simt's own (on_device.h).
#pragma once
#include <thrust/detail/config.h>
#include <thrust/system/cpp/detail/temporary_buffer.h>
#include <thrust/system/simt/detail/on_device.h>
