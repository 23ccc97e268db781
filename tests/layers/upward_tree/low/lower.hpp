// A lower layer's header: the upper layer may include it.
#pragma once
