"""Compiling from Python: mlc.compile and mlc.from_torch.

Both call the compiler's C API (mlc/compiler.h) in libmlc_compiler.so, so
the flags, the defaults and the error messages are mlc-compile's:

    import mlc
    m = mlc.compile("model.onnx", opt_level=3,
                    input_shapes={"x": (1, 3, 224, 224)})
    y = m(x)

    m = mlc.from_torch(torch_module, (example_x,))
    y = m(torch_tensor)          # torch tensors are read without a copy

A model that does not compile raises mlc.CompileError, whose diagnostics
say where (the file, the ONNX node or model.json path) and what.

libmlc_compiler.so is found as $MLC_COMPILER_LIBRARY if set, else where
`cmake --install` put it for this package, else on the loader's path.
"""

import collections
import ctypes
import io
import os
import shutil
import tempfile

from . import Error, Model, _declare

__all__ = ["CompileError", "Diagnostic", "compile", "compile_flags_help",
           "compiler_version", "from_torch"]

# Must match MLC_COMPILER_API_VERSION in mlc/compiler.h.
_COMPILER_API_VERSION = 1

_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}

Diagnostic = collections.namedtuple(
    "Diagnostic", "severity file place line column message text")
Diagnostic.__doc__ = """One compiler diagnostic. severity: "error",
"warning", "note" or "remark"; file: the model file ("" for errors without
a place: flags, files, the linker); place: the ONNX node or model.json path
("" if none); line, column: in a text (.mlir) input, 0 if not known;
message: the text alone; text: as mlc-compile prints it."""


class CompileError(Error):
    """A model that did not compile, or options that are not valid.

    str() is every diagnostic as mlc-compile prints it; `diagnostics` holds
    them as Diagnostic tuples (errors and warnings), the first error's place
    is `file` and `place`."""

    def __init__(self, diagnostics):
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        first = errors[0] if errors else None
        self.file = first.file if first else ""
        self.place = first.place if first else ""
        super().__init__("".join(d.text for d in self.diagnostics).rstrip()
                         or "compile failed")


class _CDiagnostic(ctypes.Structure):
    _fields_ = [("severity", ctypes.c_int),
                ("file", ctypes.c_char_p),
                ("place", ctypes.c_char_p),
                ("line", ctypes.c_uint32),
                ("column", ctypes.c_uint32),
                ("message", ctypes.c_char_p),
                ("text", ctypes.c_char_p)]


_PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                                ctypes.c_uint, ctypes.c_uint)

_SIGNATURES = {
    "mlc_compiler_api_version": (ctypes.c_uint32, []),
    "mlc_compiler_version": (ctypes.c_char_p, []),
    "mlc_compiler_create": (ctypes.c_void_p, []),
    "mlc_compiler_destroy": (None, [ctypes.c_void_p]),
    "mlc_compiler_set_flags": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]),
    "mlc_compiler_compile": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]),
    "mlc_compiler_num_diagnostics": (ctypes.c_size_t, [ctypes.c_void_p]),
    "mlc_compiler_get_diagnostic": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_CDiagnostic)]),
    "mlc_compiler_set_progress": (None, [
        ctypes.c_void_p, _PROGRESS_FN, ctypes.c_void_p]),
    "mlc_compiler_flags_help": (ctypes.c_char_p, []),
}

_ERR_FLAGS = 2

_library = None


def _candidates():
    env = os.environ.get("MLC_COMPILER_LIBRARY")
    if env:
        return [env]
    paths = []
    try:
        from . import _install  # written by cmake --install
        paths.append(os.path.join(os.path.dirname(__file__),
                                  _install.LIBDIR, "libmlc_compiler.so.0"))
    except ImportError:
        pass
    paths.append("libmlc_compiler.so.0")  # the loader's search path
    return paths


def _load_library():
    """libmlc_compiler.so with its functions declared (loaded once)."""
    global _library
    if _library is not None:
        return _library
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append(f"{path}: {e}")
    else:
        raise Error("cannot load the mlc compiler library ("
                    + "; ".join(errors) + "); set MLC_COMPILER_LIBRARY to "
                    "libmlc_compiler.so's path")
    _declare(lib, _SIGNATURES)
    version = lib.mlc_compiler_api_version()
    if version != _COMPILER_API_VERSION:
        raise Error(f"libmlc_compiler has C API version {version}, this "
                    f"binding supports {_COMPILER_API_VERSION}")
    _library = lib
    return lib


def compiler_version():
    """The version of the mlc compiler library, e.g. "0.1.0"."""
    return _load_library().mlc_compiler_version().decode()


def _diagnostics(lib, handle):
    out = []
    for i in range(lib.mlc_compiler_num_diagnostics(handle)):
        d = _CDiagnostic()
        if lib.mlc_compiler_get_diagnostic(handle, i, ctypes.byref(d)) == 0:
            text = lambda s: s.decode("utf-8", "replace") if s else ""
            out.append(Diagnostic(_SEVERITIES.get(d.severity, "error"),
                                  text(d.file), text(d.place), d.line,
                                  d.column, text(d.message), text(d.text)))
    return out


# Keyword options whose flag is not the keyword with dashes.
_FLAG_NAMES = {"opt_level": "O", "jobs": "j", "input_shapes": "input-shape",
               "bindings": "bind", "emit": "emit"}


def _flag_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def _flags_from_options(options):
    """Keyword options -> mlc-compile flags: opt_level=3 -> -O3,
    cpu="generic" -> --cpu=generic, input_shapes={"x": (1, 3)} ->
    --input-shape=x=1x3, quantize_keep=["a", "b"] -> --quantize-keep=a,b,
    winograd=False -> --winograd=false."""
    flags = []
    for key, value in options.items():
        if value is None:
            continue
        name = _FLAG_NAMES.get(key, key.replace("_", "-"))
        if key in ("input_shapes", "input_shape"):
            for input_name, dims in dict(value).items():
                flags.append("--input-shape=%s=%s" % (
                    input_name, "x".join(str(int(d)) for d in dims)))
        elif key in ("bindings", "bind"):
            for input_name, path in dict(value).items():
                flags.append(f"--bind={input_name}={os.fspath(path)}")
        elif len(name) == 1:
            flags.append(f"-{name}{_flag_value(value)}")
        else:
            flags.append(f"--{name}={_flag_value(value)}")
    return flags


# Suffixes mlc-compile writes something other than a model.so for.
_OTHER_OUTPUTS = (".mlir", ".dot", ".gv", ".ll", ".s", ".o", ".a")


def _check_shared_library_output(output, flags, options):
    """compile() returns a loaded model: it must write a model.so."""
    emits = [f.split("=", 1)[1] for f in flags if f.startswith("--emit=")]
    if options.get("emit") is not None:
        emits.append(str(options["emit"]))
    other = [e for e in emits if e != "so"]
    if output is not None and not emits and \
            os.fspath(output).endswith(_OTHER_OUTPUTS):
        other.append(os.path.splitext(os.fspath(output))[1])
    if other:
        raise ValueError(
            f"mlc.compile returns a loaded model, so it writes a model.so, "
            f"not {other[0]!r}; for other outputs use the mlc-compile tool or "
            f"the C API (mlc_compiler_compile)")


def _set_flags(lib, handle, flags):
    argv = (ctypes.c_char_p * max(len(flags), 1))(
        *[os.fsencode(f) for f in flags])
    return lib.mlc_compiler_set_flags(handle, len(flags), argv) == 0


def _model_file(model, workdir, name):
    """A path for `model`: the path itself, or the bytes / ModelProto
    written to workdir/<name>.onnx."""
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not os.path.exists(path):
            raise FileNotFoundError(f"mlc.compile: no such model file: "
                                    f"'{path}'")
        return path
    if hasattr(model, "SerializeToString"):  # onnx.ModelProto
        model = model.SerializeToString()
    if isinstance(model, (bytes, bytearray, memoryview)):
        path = os.path.join(workdir, f"{name}.onnx")
        with open(path, "wb") as f:
            f.write(model)
        return path
    raise TypeError("mlc.compile expects a model path (.onnx, .json, "
                    ".mlir), ONNX bytes or an onnx.ModelProto, got "
                    f"{type(model).__name__}")


def compile(model, output=None, *, flags=(), source_name="model",
            progress=None, **options):
    """Compiles `model` and returns the loaded Model.

    model: a path to model.onnx, model.json or graph-dialect .mlir; ONNX
      bytes; or an onnx.ModelProto (bytes and protos are written to a
      temporary <source_name>.onnx, the file their diagnostics name).
    output: where to write the model.so; default a temporary file, removed
      once the model is loaded (the loaded model does not need it).
    flags: mlc-compile flags as strings, e.g. ["-O3", "--cpu=generic"].
    progress: called as progress(phase, done, total) as the compile
      advances (done/total count the back end's parts, else 0).
    options: the same as keywords: opt_level=3, cpu="generic", jobs=2,
      input_shapes={"x": (1, 3, 224, 224)}, bindings={"shape": "s.pb"},
      train=True, quantize="int8", calibration="samples/", winograd=False,
      ... (every mlc-compile flag, its dashes as underscores; see
      mlc.compile_flags_help()).

    Raises CompileError for models that do not compile and for flags or
    option combinations that are not valid (nothing is left at `output`
    then); TypeError for an unknown keyword option or a model of an
    unsupported type; ValueError for a keyword option's malformed value;
    FileNotFoundError for a missing model file.
    """
    lib = _load_library()
    raw_flags = [os.fspath(f) for f in flags]
    _check_shared_library_output(output, raw_flags, options)
    workdir = tempfile.mkdtemp(prefix="mlc-compile-")
    handle = lib.mlc_compiler_create()
    if not handle:
        shutil.rmtree(workdir, ignore_errors=True)
        raise MemoryError("mlc_compiler_create failed")
    try:
        path = _model_file(model, workdir, source_name)
        if not _set_flags(lib, handle, raw_flags):
            raise CompileError(_diagnostics(lib, handle))
        # Each keyword on its own, so an error names it.
        for key, value in options.items():
            if not _set_flags(lib, handle, _flags_from_options({key: value})):
                message = _diagnostics(lib, handle)[0].message
                kind = TypeError if message.startswith("unknown flag") \
                    else ValueError
                raise kind(f"mlc.compile: option {key}={value!r}: {message}")
        callback = None  # kept alive until the compile returns
        if progress is not None:
            def report(_, phase, done, total):
                progress(phase.decode() if phase else "", done, total)
            callback = _PROGRESS_FN(report)
            lib.mlc_compiler_set_progress(handle, callback, None)
        target = os.fspath(output) if output is not None else os.path.join(
            workdir, f"{source_name}.so")
        status = lib.mlc_compiler_compile(handle, os.fsencode(path),
                                          os.fsencode(target))
        if status != 0:
            raise CompileError(_diagnostics(lib, handle))
        return Model(target)
    finally:
        lib.mlc_compiler_destroy(handle)
        shutil.rmtree(workdir, ignore_errors=True)


def compile_flags_help():
    """Every compile flag with its description (mlc-compile --help)."""
    return _load_library().mlc_compiler_flags_help().decode()


def _as_tuple(example_inputs):
    if isinstance(example_inputs, (list, tuple)):
        return tuple(example_inputs)
    return (example_inputs,)


def from_torch(module, example_inputs, *, input_names=None,
               output_names=None, opset_version=17, output=None, **options):
    """Exports a torch.nn.Module through torch.onnx (TorchScript exporter,
    eval mode, shapes of `example_inputs` fixed) and compiles it.

    example_inputs: a tensor or a tuple of tensors, as module(*inputs).
    input_names / output_names: the model's tensor names (default: the
      forward() parameter names, and "output" or output0, output1, ...).
    The other keywords are mlc.compile's. Returns the loaded Model; its
    inputs accept numpy arrays and torch tensors (viewed, not copied).
    """
    import inspect

    import torch

    inputs = _as_tuple(example_inputs)
    if input_names is None:
        try:
            params = [p.name for p in inspect.signature(
                module.forward).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            params = []
        input_names = (params[:len(inputs)] if len(params) >= len(inputs)
                       else [f"input{i}" for i in range(len(inputs))])
    was_training = module.training
    module.eval()
    try:
        if output_names is None:
            with torch.no_grad():
                result = module(*inputs)
            count = len(result) if isinstance(result, (tuple, list)) else 1
            output_names = (["output"] if count == 1 else
                            [f"output{i}" for i in range(count)])
        # Not under no_grad: there nn.TransformerEncoderLayer takes its
        # fused inference path, which has no ONNX export.
        buffer = io.BytesIO()
        torch.onnx.export(module, inputs, buffer,
                          input_names=list(input_names),
                          output_names=list(output_names),
                          opset_version=opset_version,
                          do_constant_folding=True,
                          training=torch.onnx.TrainingMode.EVAL)
    finally:
        module.train(was_training)
    return compile(buffer.getvalue(), output,
                   source_name=type(module).__name__, **options)
