// An upper layer's header, which the lower layer must not include.
#pragma once
#include "../low/lower.hpp"
