// A lower layer that reaches up: what the layer check exists to refuse.
#include "../high/upper.hpp"
