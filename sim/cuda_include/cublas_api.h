// <cublas_api.h> in a simulator build: the same as <cublas_v2.h>, which includes it in the toolkit.
#pragma once
#include "cublas_v2.h"
