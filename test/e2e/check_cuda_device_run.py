"""Runs a CUDA model.so twice: once with host arrays (mlc_model_run), once
with device buffers the test allocates through the CUDA driver
(mlc_model_run_device), and checks both outputs agree.

usage: check_cuda_device_run.py MODEL.so MODEL_DIR
"""
import ctypes
import os
import sys

import numpy as np

import mlc


def check(status, what):
    if status != 0:
        sys.exit("%s failed with CUDA error %d" % (what, status))


def main():
    so, model_dir = sys.argv[1], sys.argv[2]
    m = mlc.load(so)
    assert m.device == "cuda", m.device
    feeds = {name: np.load(os.path.join(model_dir, "inputs", name + ".npy"))
             for name, _, _ in m.inputs}
    host = m.run(feeds)

    # The model's context is the device's primary context; share it.
    cu = ctypes.CDLL("libcuda.so.1")
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    ctx = ctypes.c_void_p()
    check(cu.cuDeviceGet(ctypes.byref(dev), int(os.environ.get(
        "MLC_CUDA_DEVICE", "0"))), "cuDeviceGet")
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "retain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    ins, outs = {}, []

    def alloc(nbytes):
        p = ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(nbytes)),
              "cuMemAlloc")
        return p.value

    for name, _, _ in m.inputs:
        a = np.ascontiguousarray(feeds[name])
        d = alloc(a.nbytes)
        check(cu.cuMemcpyHtoD_v2(ctypes.c_uint64(d), a.ctypes.data_as(
            ctypes.c_void_p), ctypes.c_size_t(a.nbytes)), "cuMemcpyHtoD")
        ins[name] = d
    for name, _, _ in m.outputs:
        outs.append((alloc(host[name].nbytes), np.empty_like(host[name]),
                     name))
    m.run_device(ins, {name: d for d, _, name in outs})
    for d, a, name in outs:
        check(cu.cuMemcpyDtoH_v2(a.ctypes.data_as(ctypes.c_void_p),
                                 ctypes.c_uint64(d), ctypes.c_size_t(a.nbytes)),
              "cuMemcpyDtoH")
        if not np.array_equal(a, host[name]):
            sys.exit("MISMATCH %s: device run differs from host run" % name)
    print("OK device run matches host run")


if __name__ == "__main__":
    main()
