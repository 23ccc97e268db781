#pragma once

// Counts the values of in[0..n) (each in 0..bins-1) into d_bins on the device.
void histogram_on_device(const int* d_in, int n, int* d_bins);
