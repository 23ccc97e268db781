// <cub/thread/thread_store.cuh> in a simulator build: the stores are in thread_load.cuh, beside
// the loads they mirror.
#pragma once
#include <cub/thread/thread_load.cuh>
