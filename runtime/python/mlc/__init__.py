"""Python binding for models compiled by mlc-compile.

Every model.so contains the mlc runtime, so this module needs nothing but
ctypes and numpy: it loads the model.so and calls the runtime's C API
(mlc/runtime.h) inside it.

    import mlc
    m = mlc.load("model.so")
    m.inputs            # [("x", dtype('float32'), (1, 784))]
    y = m(x)            # one output: an array; several: a tuple
    y = m(x=x)
    outs = m.run({"x": x})   # {"y": array}
    m.num_threads = 4        # threads of its parallel loops (0: one per CPU)

Profiling (time per kernel; CPU models):

    m.kernels                # [Kernel(index=0, name='conv1', ops='conv2d+...',
                             #         entry='run', flops=235200), ...]
    m.profiling = True       # the runs that start afterwards are timed
    m(x)
    m.kernel_times()         # [(total_seconds, calls), ...] per kernel
    m.reset_profile()

Trainable models (mlc-compile --train) also train in place:

    m.trainable              # True
    m.train_inputs           # [("x", dtype('float32'), (32, 784)), ("y", ...)]
    loss = m.train_step(x, y)          # one optimizer step; a float
    m.variables              # [("w", "param", dtype('float32'), (784, 10))]
    w = m.get_variable("w"); m.set_variable("w", w * 0)
    m.reset()                # initial values (optimizer state included)
    m.save("w.safetensors", include_state=False); m.load_weights(...)

Inputs must have the declared shape. numpy arrays must also have the
declared dtype (no silent casts); other values (lists, scalars) are converted
to it when that loses nothing. Failures raise TypeError/ValueError for bad
arguments and mlc.Error for anything the runtime reports.

numpy has no bfloat16: bf16 tensors are declared as float32 here; bf16
inputs take float32 values, rounded to nearest even (NaN stays NaN) before
the run, and bf16 outputs come back as float32 arrays (exactly).
"""

import collections
import ctypes
import operator
import os

import numpy as np

__all__ = ["CompileError", "Diagnostic", "Error", "Kernel", "Model",
           "compile", "compile_flags_help", "compiler_version", "from_torch",
           "load"]

# Must match MLC_RUNTIME_API_VERSION in mlc/runtime.h.
_API_VERSION = 1

# mlc_dtype values (mlc/runtime.h) -> numpy dtypes.
_DTYPES = {
    1: np.dtype(np.float32),
    2: np.dtype(np.float64),
    3: np.dtype(np.float16),
    4: np.dtype(np.int8),
    5: np.dtype(np.int16),
    6: np.dtype(np.int32),
    7: np.dtype(np.int64),
    8: np.dtype(np.uint8),
    9: np.dtype(np.bool_),
    11: np.dtype(np.uint16),
    12: np.dtype(np.uint32),
    13: np.dtype(np.uint64),
}
# bf16 (MLC_BF16): float32 on the Python side, uint16 bits for the runtime.
_BF16 = 10


def _to_bf16_bits(array):
    """float32 array -> uint16 bfloat16 bits, rounded to nearest even."""
    bits = np.ascontiguousarray(array, np.float32).view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1)))
               >> 16).astype(np.uint16)
    nan = np.isnan(array)
    return np.where(nan, ((bits >> 16) | np.uint32(0x40)).astype(np.uint16),
                    rounded)


def _from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


class Error(RuntimeError):
    """An error reported by the mlc runtime (its mlc_last_error() text)."""


class _Tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
    ]


# One kernel of a model (mlc_kernel_info): the source nodes it computes, its
# graph ops ("conv2d+add+relu"), its entry ("run", "train" or "init") and
# its FLOPs per call.
Kernel = collections.namedtuple("Kernel", "index name ops entry flops")


class _KernelInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("ops", ctypes.c_char_p),
        ("entry", ctypes.c_char_p),
        ("flops", ctypes.c_uint64),
    ]


class _TensorInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("num_elements", ctypes.c_uint64),
        ("size_bytes", ctypes.c_uint64),
    ]


_c_model_p = ctypes.c_void_p
_SIGNATURES = {
    "mlc_runtime_api_version": (ctypes.c_uint32, []),
    "mlc_model_open": (_c_model_p, [ctypes.c_char_p]),
    "mlc_model_close": (None, [_c_model_p]),
    "mlc_model_num_inputs": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_num_outputs": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_input_info": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32,
                       ctypes.POINTER(_TensorInfo)]),
    "mlc_model_output_info": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32,
                       ctypes.POINTER(_TensorInfo)]),
    "mlc_model_workspace_size": (ctypes.c_uint64, [_c_model_p]),
    "mlc_model_run": (
        ctypes.c_int, [_c_model_p, ctypes.POINTER(_Tensor), ctypes.c_int32,
                       ctypes.POINTER(_Tensor), ctypes.c_int32]),
    "mlc_last_error": (ctypes.c_char_p, []),
}
# The training API; a model.so built before it existed lacks these symbols
# and loads as a plain model.
_TRAIN_SIGNATURES = {
    "mlc_model_is_trainable": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_num_train_inputs": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_train_input_info": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32,
                       ctypes.POINTER(_TensorInfo)]),
    "mlc_model_train_step": (
        ctypes.c_int, [_c_model_p, ctypes.POINTER(_Tensor), ctypes.c_int32,
                       ctypes.POINTER(ctypes.c_float)]),
    "mlc_model_num_variables": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_variable_info": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32,
                       ctypes.POINTER(_TensorInfo),
                       ctypes.POINTER(ctypes.c_int)]),
    "mlc_model_read_variable": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32, ctypes.c_void_p,
                       ctypes.c_uint64]),
    "mlc_model_write_variable": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32, ctypes.c_void_p,
                       ctypes.c_uint64]),
    "mlc_model_reset_variables": (ctypes.c_int, [_c_model_p]),
    "mlc_model_save_safetensors": (
        ctypes.c_int, [_c_model_p, ctypes.c_char_p, ctypes.c_int32]),
    "mlc_model_load_safetensors": (
        ctypes.c_int, [_c_model_p, ctypes.c_char_p]),
}
# The intra-op thread setting; a model.so built before it lacks these.
_THREAD_SIGNATURES = {
    "mlc_model_set_num_threads": (ctypes.c_int, [_c_model_p, ctypes.c_int32]),
    "mlc_model_num_threads": (ctypes.c_int32, [_c_model_p]),
}
# Optional too (model.so files built before CUDA models existed lack it).
_DEVICE_SIGNATURES = {
    "mlc_model_device": (ctypes.c_char_p, [_c_model_p]),
    "mlc_model_run_device": (
        ctypes.c_int, [_c_model_p, ctypes.POINTER(_Tensor), ctypes.c_int32,
                       ctypes.POINTER(_Tensor), ctypes.c_int32]),
}
# Profiling; a model.so built before it lacks these.
_PROFILE_SIGNATURES = {
    "mlc_model_num_kernels": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_kernel_info": (
        ctypes.c_int, [_c_model_p, ctypes.c_int32,
                       ctypes.POINTER(_KernelInfo)]),
    "mlc_model_set_profiling": (ctypes.c_int, [_c_model_p, ctypes.c_int32]),
    "mlc_model_profiling": (ctypes.c_int32, [_c_model_p]),
    "mlc_model_kernel_times": (
        ctypes.c_int, [_c_model_p, ctypes.POINTER(ctypes.c_uint64),
                       ctypes.POINTER(ctypes.c_uint64), ctypes.c_int32]),
    "mlc_model_reset_profile": (ctypes.c_int, [_c_model_p]),
}
# mlc_variable_kind values.
_VARIABLE_KINDS = {1: "param", 2: "buffer", 3: "state"}


def _declare(lib, signatures):
    """Sets restype and argtypes of lib's functions: {name: (res, args)}."""
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def _open_library(path):
    """Loads model.so with ctypes and declares the runtime's functions."""
    if not os.path.isfile(path):
        raise Error(f"cannot load model '{path}': no such file")
    try:
        lib = ctypes.CDLL(os.path.abspath(path))
    except OSError as e:
        raise Error(f"cannot load model '{path}': {e}") from None
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise Error(f"'{path}' does not contain the mlc runtime "
                        f"(missing symbol {name}); was it built by "
                        "mlc-compile?") from None
        fn.restype = restype
        fn.argtypes = argtypes
    lib.mlc_has_training = all(hasattr(lib, n) for n in _TRAIN_SIGNATURES)
    lib.mlc_has_threads = all(hasattr(lib, n) for n in _THREAD_SIGNATURES)
    lib.mlc_has_device = all(hasattr(lib, n) for n in _DEVICE_SIGNATURES)
    lib.mlc_has_profile = all(hasattr(lib, n) for n in _PROFILE_SIGNATURES)
    for present, signatures in ((lib.mlc_has_training, _TRAIN_SIGNATURES),
                                (lib.mlc_has_threads, _THREAD_SIGNATURES),
                                (lib.mlc_has_device, _DEVICE_SIGNATURES),
                                (lib.mlc_has_profile, _PROFILE_SIGNATURES)):
        if present:
            _declare(lib, signatures)
    version = lib.mlc_runtime_api_version()
    if version != _API_VERSION:
        raise Error(f"'{path}' contains runtime API version {version}, but "
                    f"this binding supports version {_API_VERSION}")
    return lib


class Model:
    """A loaded model. Calls are thread-safe (the GIL is released while the
    model runs)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self._handle = None
        self._lib = _open_library(self.path)
        handle = self._lib.mlc_model_open(
            os.path.abspath(self.path).encode())
        if not handle:
            raise Error(self._last_error())
        self._handle = handle
        self.inputs = self._describe(self._lib.mlc_model_input_info,
                                     self._lib.mlc_model_num_inputs(handle))
        self.outputs = self._describe(self._lib.mlc_model_output_info,
                                      self._lib.mlc_model_num_outputs(handle))
        self.workspace_bytes = int(
            self._lib.mlc_model_workspace_size(handle))
        # "cpu", or "cuda" (inputs and outputs are still numpy arrays; the
        # runtime copies them to and from the GPU).
        self.device = (self._lib.mlc_model_device(handle).decode()
                       if self._lib.mlc_has_device else "cpu")
        # ctypes shape arrays, built once: they never change.
        self._input_codes = self._codes(self._lib.mlc_model_input_info,
                                        len(self.inputs))
        self._output_codes = self._codes(self._lib.mlc_model_output_info,
                                         len(self.outputs))
        self._input_shapes = [self._c_shape(s) for _, _, s in self.inputs]
        self._output_shapes = [self._c_shape(s) for _, _, s in self.outputs]
        self.kernels = self._kernels()

        lib = self._lib
        self.trainable = (lib.mlc_has_training
                          and lib.mlc_model_is_trainable(handle) == 1)
        self.train_inputs, self.variables = [], []
        if self.trainable:
            self.train_inputs = self._describe(
                lib.mlc_model_train_input_info,
                lib.mlc_model_num_train_inputs(handle))
            self._train_codes = self._codes(lib.mlc_model_train_input_info,
                                            len(self.train_inputs))
            self._train_shapes = [self._c_shape(s)
                                  for _, _, s in self.train_inputs]
            self._variable_codes = []
            for i in range(lib.mlc_model_num_variables(handle)):
                info, kind = _TensorInfo(), ctypes.c_int()
                if lib.mlc_model_variable_info(handle, i, ctypes.byref(info),
                                               ctypes.byref(kind)) != 0:
                    raise Error(self._last_error())
                self._variable_codes.append(int(info.dtype))
                dtype = (np.dtype(np.float32) if info.dtype == _BF16
                         else _DTYPES[info.dtype])
                self.variables.append((
                    info.name.decode("utf-8", "replace"),
                    _VARIABLE_KINDS.get(kind.value, "unknown"), dtype,
                    tuple(int(info.shape[d]) for d in range(info.rank))))

    def _last_error(self):
        return self._lib.mlc_last_error().decode("utf-8", "replace")

    def _describe(self, info_fn, count):
        result = []
        for i in range(count):
            info = _TensorInfo()
            if info_fn(self._handle, i, ctypes.byref(info)) != 0:
                raise Error(self._last_error())
            shape = tuple(int(info.shape[d]) for d in range(info.rank))
            dtype = (np.dtype(np.float32) if info.dtype == _BF16
                     else _DTYPES.get(info.dtype))
            if dtype is None:
                raise Error(f"tensor {i} has an unsupported dtype code "
                            f"{info.dtype}")
            result.append((info.name.decode("utf-8", "replace"), dtype,
                           shape))
        return result

    def _codes(self, info_fn, count):
        codes = []
        for i in range(count):
            info = _TensorInfo()
            if info_fn(self._handle, i, ctypes.byref(info)) != 0:
                raise Error(self._last_error())
            codes.append(int(info.dtype))
        return codes

    @staticmethod
    def _c_shape(shape):
        return (ctypes.c_int64 * max(len(shape), 1))(*shape)

    def close(self):
        """Unloads the model; it cannot be used afterwards."""
        if self._handle is not None:
            self._lib.mlc_model_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # Attributes may be missing if __init__ failed.
        if getattr(self, "_handle", None) is not None:
            self.close()

    def __repr__(self):
        def fmt(tensors):
            return ", ".join(f"{n}: {d} {list(s)}" for n, d, s in tensors)
        return (f"<mlc.Model '{self.path}' inputs ({fmt(self.inputs)}) "
                f"outputs ({fmt(self.outputs)})>")

    @staticmethod
    def _convert(tensors, index, value, kind="input"):
        """Returns `value` as a C-contiguous array of the declared dtype and
        shape of tensors[index]."""
        name, dtype, shape = tensors[index]
        label = f"{kind} {index} ('{name}')"
        if not isinstance(value, np.ndarray) and hasattr(value,
                                                         "__dlpack__"):
            # torch tensors and other DLPack producers on the CPU: a view,
            # no copy; their dtype must match exactly, as an array's.
            try:
                value = np.from_dlpack(value)
            except Exception as e:
                raise TypeError(f"{label}: cannot view it through DLPack "
                                f"(a CPU tensor is needed): {e}") from None
        if isinstance(value, np.ndarray):
            if value.dtype != dtype:
                raise TypeError(
                    f"{label}: expected dtype {dtype} but got {value.dtype} "
                    f"(convert explicitly, e.g. x.astype(np.{dtype.name}))")
            array = value
        else:
            try:
                raw = np.asarray(value)
            except Exception as e:  # ragged lists and the like
                raise TypeError(f"{label}: cannot convert to an array: "
                                f"{e}") from None
            if raw.dtype == object or not np.can_cast(raw.dtype, dtype,
                                                      casting="same_kind"):
                raise TypeError(f"{label}: expected {dtype} values but got "
                                f"{raw.dtype}")
            array = raw.astype(dtype)
            if dtype.kind in "iub" and not np.array_equal(array, raw):
                raise ValueError(f"{label}: values out of range for {dtype}")
        if array.shape != shape:
            raise ValueError(f"{label}: expected shape {list(shape)} but got "
                             f"{list(array.shape)}")
        if not (array.flags.c_contiguous and array.flags.aligned):
            array = array.copy(order="C")
        return array

    def _bind(self, args, kwargs, tensors=None, kind="input"):
        """Maps positional and keyword arguments to the inputs (or other
        `tensors`), in order."""
        tensors = self.inputs if tensors is None else tensors
        if len(args) > len(tensors):
            raise TypeError(f"the model takes {len(tensors)} {kind}s but "
                            f"{len(args)} were given")
        values = list(args) + [None] * (len(tensors) - len(args))
        given = [True] * len(args) + [False] * (len(tensors) - len(args))
        names = [name for name, _, _ in tensors]
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"the model has no {kind} named '{key}' "
                                f"({kind}s: {', '.join(names)})")
            i = names.index(key)
            if given[i]:
                raise TypeError(f"{kind} '{key}' given twice")
            values[i], given[i] = value, True
        missing = [n for n, g in zip(names, given) if not g]
        if missing:
            raise TypeError(f"missing {kind}s: {', '.join(missing)}")
        return [self._convert(tensors, i, v, kind)
                for i, v in enumerate(values)]

    def _out_buffers(self, out):
        """The caller's output arrays (`out=`: one array per output, in
        order, or name -> array), checked: exactly the declared dtype and
        shape, C-contiguous, writeable. None: new arrays."""
        if out is None:
            return None
        if isinstance(out, dict):
            names = [name for name, _, _ in self.outputs]
            unknown = [k for k in out if k not in names]
            if unknown:
                raise TypeError(f"out: the model has no output named "
                                f"'{unknown[0]}' (outputs: {', '.join(names)})")
            missing = [n for n in names if n not in out]
            if missing:
                raise TypeError(f"out: missing outputs: {', '.join(missing)}")
            out = [out[n] for n in names]
        elif isinstance(out, np.ndarray):
            out = [out]
        out = list(out)
        if len(out) != len(self.outputs):
            raise TypeError(f"out: the model has {len(self.outputs)} outputs "
                            f"but {len(out)} arrays were given")
        for i, (array, (name, dtype, shape), code) in enumerate(
                zip(out, self.outputs, self._output_codes)):
            label = f"out {i} ('{name}')"
            if not isinstance(array, np.ndarray):
                raise TypeError(f"{label}: expected a numpy array, got "
                                f"{type(array).__name__}")
            if code == _BF16:
                raise TypeError(f"{label}: bfloat16 outputs cannot be "
                                f"written into a caller's array")
            if array.dtype != dtype:
                raise TypeError(f"{label}: expected dtype {dtype} but got "
                                f"{array.dtype}")
            if array.shape != shape:
                raise ValueError(f"{label}: expected shape {list(shape)} but "
                                 f"got {list(array.shape)}")
            if not (array.flags.c_contiguous and array.flags.aligned and
                    array.flags.writeable):
                raise ValueError(f"{label}: the array must be C-contiguous, "
                                 f"aligned and writeable")
        return out

    def _run(self, arrays, out=None):
        if self._handle is None:
            raise Error("the model has been closed")
        arrays = [_to_bf16_bits(a) if code == _BF16 else a
                  for a, code in zip(arrays, self._input_codes)]
        outputs = self._out_buffers(out)
        if outputs is None:
            outputs = [np.empty(shape, np.uint16 if code == _BF16 else dtype)
                       for (_, dtype, shape), code in zip(
                           self.outputs, self._output_codes)]
        c_inputs = (_Tensor * max(len(arrays), 1))()
        for i, (array, (_, _, shape)) in enumerate(zip(arrays, self.inputs)):
            c_inputs[i] = _Tensor(array.ctypes.data, self._input_codes[i],
                                  len(shape), self._input_shapes[i])
        c_outputs = (_Tensor * len(outputs))()
        for i, (array, (_, _, shape)) in enumerate(zip(outputs,
                                                       self.outputs)):
            c_outputs[i] = _Tensor(array.ctypes.data, self._output_codes[i],
                                   len(shape), self._output_shapes[i])
        status = self._lib.mlc_model_run(self._handle, c_inputs, len(arrays),
                                         c_outputs, len(outputs))
        if status != 0:
            raise Error(self._last_error())
        return [_from_bf16_bits(a) if code == _BF16 else a
                for a, code in zip(outputs, self._output_codes)]

    @property
    def num_threads(self):
        """Threads the model's parallel loops use: the setting (at most 64),
        by default one per CPU the process may run on. 1 for a model.so whose runtime
        predates the setting. Assign n >= 1, or 0 for the default."""
        if self._handle is None:
            raise Error("the model has been closed")
        if not self._lib.mlc_has_threads:
            return 1
        return int(self._lib.mlc_model_num_threads(self._handle))

    @num_threads.setter
    def num_threads(self, n):
        if self._handle is None:
            raise Error("the model has been closed")
        n = operator.index(n)  # TypeError for non-integers
        if not 0 <= n < 2**31:
            raise ValueError(f"num_threads must be >= 1, or 0 for the "
                             f"default (one per usable CPU), got {n}")
        if not self._lib.mlc_has_threads:
            raise Error(f"'{self.path}' was built before thread settings "
                        "existed; recompile it to set num_threads")
        if self._lib.mlc_model_set_num_threads(self._handle, n) != 0:
            raise Error(self._last_error())

    # Profiling.

    def _kernels(self):
        if not self._lib.mlc_has_profile:
            return []
        kernels = []
        for i in range(self._lib.mlc_model_num_kernels(self._handle)):
            info = _KernelInfo()
            if self._lib.mlc_model_kernel_info(self._handle, i,
                                               ctypes.byref(info)) != 0:
                raise Error(self._last_error())
            kernels.append(Kernel(i, info.name.decode("utf-8", "replace"),
                                  info.ops.decode(), info.entry.decode(),
                                  int(info.flops)))
        return kernels

    def _require_profile(self):
        if self._handle is None:
            raise Error("the model has been closed")
        if not self._lib.mlc_has_profile:
            raise Error(f"'{self.path}' was built before profiling existed; "
                        "recompile it to profile it")

    @property
    def profiling(self):
        """Whether runs (and train steps) that start now are profiled.
        Setting it to True raises mlc.Error for a model without a kernel
        table."""
        self._require_profile()
        return bool(self._lib.mlc_model_profiling(self._handle))

    @profiling.setter
    def profiling(self, on):
        self._require_profile()
        if self._lib.mlc_model_set_profiling(self._handle,
                                             int(bool(on))) != 0:
            raise Error(self._last_error())

    def kernel_times(self):
        """Per kernel (in m.kernels order): (total seconds, calls) of the
        profiled calls since the model was opened or reset_profile()."""
        self._require_profile()
        n = len(self.kernels)
        ns, calls = (ctypes.c_uint64 * max(n, 1))(), (ctypes.c_uint64 *
                                                     max(n, 1))()
        if self._lib.mlc_model_kernel_times(self._handle, ns, calls, n) != 0:
            raise Error(self._last_error())
        return [(ns[i] / 1e9, int(calls[i])) for i in range(n)]

    def reset_profile(self):
        """Sets every kernel's time and call count back to zero."""
        self._require_profile()
        if self._lib.mlc_model_reset_profile(self._handle) != 0:
            raise Error(self._last_error())

    def __call__(self, *args, out=None, **kwargs):
        """Runs the model: an array if it has one output, else a tuple.
        Inputs are numpy arrays (exactly the declared dtype), values numpy
        converts without loss, or CPU tensors with `__dlpack__` (torch
        tensors: viewed, not copied). `out`: the output array (one output)
        or a sequence of them, written in place and returned, for repeated
        calls without allocation."""
        outputs = self._run(self._bind(args, kwargs), out)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def run(self, feeds, out=None):
        """Runs the model on a dict name -> value; returns name -> array.
        `out`: a dict name -> array for every output, written in place."""
        outputs = self._run(self._bind((), dict(feeds)), out)
        return {name: array for (name, _, _), array in zip(self.outputs,
                                                           outputs)}

    def run_device(self, inputs, outputs):
        """CUDA models: runs on device memory. `inputs` and `outputs` map
        every input/output name to a CUDA device pointer (an int, e.g. a
        CUdeviceptr or torch's tensor.data_ptr()) holding dense data of its
        declared dtype and shape, in the model's GPU's primary context
        (mlc_model_run_device)."""
        if self._handle is None:
            raise Error("the model has been closed")
        if not self._lib.mlc_has_device:
            raise Error(f"'{self.path}' predates CUDA models")
        def tensors(pointers, infos, codes, shapes, kind):
            missing = [n for n, _, _ in infos if n not in pointers]
            extra = set(pointers) - {n for n, _, _ in infos}
            if missing or extra:
                raise KeyError(f"{kind}s: missing {missing}, unknown "
                               f"{sorted(extra)}")
            arr = (_Tensor * max(len(infos), 1))()
            for i, (name, _, shape) in enumerate(infos):
                arr[i] = _Tensor(int(pointers[name]), codes[i], len(shape),
                                 shapes[i])
            return arr
        c_inputs = tensors(inputs, self.inputs, self._input_codes,
                           self._input_shapes, "input")
        c_outputs = tensors(outputs, self.outputs, self._output_codes,
                            self._output_shapes, "output")
        if self._lib.mlc_model_run_device(self._handle, c_inputs,
                                          len(self.inputs), c_outputs,
                                          len(self.outputs)) != 0:
            raise Error(self._last_error())


    # Training.

    def _require_trainable(self):
        if self._handle is None:
            raise Error("the model has been closed")
        if not self.trainable:
            raise Error(f"'{self.path}' is not a trainable model (compile it "
                        "with mlc-compile --train)")

    def train_step(self, *args, **kwargs):
        """One optimizer step on a batch (the train inputs, positionally or
        by name); the variables are updated in place. Returns the loss."""
        self._require_trainable()
        arrays = self._bind(args, kwargs, self.train_inputs, "train input")
        arrays = [_to_bf16_bits(a) if code == _BF16 else a
                  for a, code in zip(arrays, self._train_codes)]
        c_inputs = (_Tensor * max(len(arrays), 1))()
        for i, (array, (_, _, shape)) in enumerate(zip(arrays,
                                                       self.train_inputs)):
            c_inputs[i] = _Tensor(array.ctypes.data, self._train_codes[i],
                                  len(shape), self._train_shapes[i])
        loss = ctypes.c_float()
        if self._lib.mlc_model_train_step(self._handle, c_inputs, len(arrays),
                                          ctypes.byref(loss)) != 0:
            raise Error(self._last_error())
        return float(loss.value)

    def _variable_index(self, name):
        self._require_trainable()
        for i, (n, _, _, _) in enumerate(self.variables):
            if n == name:
                return i
        raise KeyError(f"the model has no variable named '{name}' "
                       f"(variables: "
                       f"{', '.join(n for n, _, _, _ in self.variables)})")

    def get_variable(self, name):
        """A copy of the variable's current value."""
        i = self._variable_index(name)
        _, _, dtype, shape = self.variables[i]
        bf16 = self._variable_codes[i] == _BF16
        array = np.empty(shape, np.uint16 if bf16 else dtype)
        if self._lib.mlc_model_read_variable(self._handle, i,
                                             array.ctypes.data,
                                             array.nbytes) != 0:
            raise Error(self._last_error())
        return _from_bf16_bits(array) if bf16 else array

    def set_variable(self, name, value):
        """Overwrites a variable (same dtype rules as inputs)."""
        i = self._variable_index(name)
        tensors = [(n, d, s) for n, _, d, s in self.variables]
        array = self._convert(tensors, i, value, "variable")
        if self._variable_codes[i] == _BF16:
            array = _to_bf16_bits(array)
        if self._lib.mlc_model_write_variable(self._handle, i,
                                              array.ctypes.data,
                                              array.nbytes) != 0:
            raise Error(self._last_error())

    def reset(self):
        """Sets every variable back to its initial value."""
        self._require_trainable()
        if self._lib.mlc_model_reset_variables(self._handle) != 0:
            raise Error(self._last_error())

    def save(self, path, include_state=False):
        """Writes the params and buffers (and optimizer state if asked) to a
        safetensors file."""
        self._require_trainable()
        if self._lib.mlc_model_save_safetensors(
                self._handle, os.fsencode(path), int(bool(include_state))):
            raise Error(self._last_error())

    def load_weights(self, path):
        """Loads variables from a safetensors file (all or nothing)."""
        self._require_trainable()
        if self._lib.mlc_model_load_safetensors(self._handle,
                                                os.fsencode(path)) != 0:
            raise Error(self._last_error())


def load(path):
    """Loads a model.so built by mlc-compile."""
    return Model(path)


# The compiler (libmlc_compiler.so, loaded on first use): after Model, which
# it returns.
from .compiler import (CompileError, Diagnostic, compile,  # noqa: E402
                       compile_flags_help, compiler_version, from_torch)
