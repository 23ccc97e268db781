// The runtime API's errors: the last error of each host thread, the sticky error of a failed
// kernel, and the names and texts of every cudaError_t.
#include <cstdio>
#include <cstring>

#include "cuda_api.hpp"
#include "../launch/streams.hpp"
#include "../state/block.hpp"
#include "../report/text.hpp"

namespace simt::sim::detail {

cudaError_t& last_error() {
    thread_local cudaError_t e = cudaSuccess;
    return e;
}

cudaError_t fail(cudaError_t e, const std::string& message) {
    if (!message.empty()) {
        std::fflush(stdout);
        std::fprintf(stderr, "simt: %s\n", message.c_str());
    }
    last_error() = e;
    return e;
}

cudaError_t kernel_failed(const simt::Error& e) {
    const cudaError_t code = kernel_error_code(e);
    runtime().sticky = code;
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n(the CUDA runtime now returns %s from every call, as after a kernel "
                         "fault on a GPU)\n", not_reported_yet(e).c_str(),
                 cudaGetErrorName(code));
    return fail(code, "");
}

cudaError_t sticky() {
    cudaError_t s = runtime().sticky;
    if (s != cudaSuccess) last_error() = s;
    return s;
}

cudaError_t wait_all() {
    return collect([] { wait_for_streams(); });
}

std::string without_prefix(const char* message) {
    return std::strncmp(message, "simt: ", 6) == 0 ? message + 6 : message;
}

std::string launch_message(const char* message) {
    std::string m = without_prefix(message);
    return m.starts_with("simt::launch: ") ? "launch refused: " + m.substr(14) : m;
}

std::string at(const std::source_location& site) { return " at " + where(site); }

cudaError_t cuda_fail(cudaError_t e, const std::string& message) { return fail(e, message); }
cudaError_t cuda_sticky_error() { return sticky(); }

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

cudaError_t cudaGetLastError() {
    cudaError_t e = last_error();
    last_error() = runtime().sticky;
    return e;
}

cudaError_t cudaPeekAtLastError() { return last_error(); }

namespace {
struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};
constexpr ErrorText error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
     "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled",
     "peer access is already enabled"},
    {cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled",
     "peer access has not been enabled"},
    {cudaErrorIllegalState, "cudaErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const ErrorText* text_of(cudaError_t e) {
    for (const ErrorText& t : error_texts)
        if (t.code == e) return &t;
    return nullptr;
}
}  // namespace

const char* cudaGetErrorString(cudaError_t e) {
    const ErrorText* t = text_of(e);
    return t ? t->text : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t e) {
    const ErrorText* t = text_of(e);
    return t ? t->name : "cudaErrorUnknown";
}
