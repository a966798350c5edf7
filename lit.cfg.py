# -*- Python -*-
# lit configuration for mlc. The build directory's test/lit.site.cfg.py sets
# the paths below and then loads this file.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "mlc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".json"]
config.test_source_root = os.path.join(config.mlc_src_root, "test")
config.test_exec_root = os.path.join(config.mlc_obj_root, "test")
# Inputs that live next to tests but are not tests themselves.
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "Inputs", "malformed",
                   "data"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.mlc_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# mlc-compile verifies the IR after every pass in the tests (by default
# only after each pipeline: a third of the lowering's time).
config.environment["MLC_VERIFY_EACH"] = "1"

# Debian's python3 has numpy/torch; a python3 earlier on PATH may not.
python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"


def _sanitizer_preload():
    """The sanitizer runtimes an uninstrumented process (Python) must preload
    to load an instrumented library (libmlc_compiler.so of an MLC_SANITIZE
    build)."""
    import subprocess
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run(["cc", "-print-file-name=" + name],
                              capture_output=True, text=True).stdout.strip()
        if os.path.isabs(path):
            libs.append(path)
    return " ".join(libs)


# Environment assignments that let an uninstrumented program (Python, the
# examples) load this build's libmlc_compiler.so: under the sanitizers the
# library is instrumented and needs their runtimes loaded first (the
# program's own allocations are not ours to leak-check). Use after `env`.
_sanitizer_vars = ""
if config.mlc_sanitize in ("ON", "1", "TRUE", "YES"):
    _sanitizer_vars = ("LD_PRELOAD='%s' ASAN_OPTIONS=detect_leaks=0" %
                       _sanitizer_preload())
config.substitutions.append(("%sanitizer_vars", _sanitizer_vars))
# Python using the compiler library of this build (mlc.compile). (Not named
# %python...: LLVM's default substitutions replace %python first.)
config.substitutions.append(
    ("%compiler_python", "env %s MLC_COMPILER_LIBRARY=%s %s" % (
        _sanitizer_vars,
        os.path.join(config.mlc_lib_dir, "libmlc_compiler.so"), python)))
config.substitutions.append(("%python", python))
config.substitutions.append(("%mlc_lib_dir", config.mlc_lib_dir))
config.substitutions.append(("%mlc_obj_root", config.mlc_obj_root))
config.substitutions.append(("%mlc_src_root", config.mlc_src_root))
config.substitutions.append(
    ("%mlc_python_dir", os.path.join(config.mlc_src_root, "runtime", "python")))
config.substitutions.append(("%models", os.path.join(config.mlc_src_root, "models")))

tools = ["mlc-opt", "mlc-compile", "mlc-run", "mlc-runtime-tests",
         "mlc-npy-tests", "mlc-frontend-tests", "mlc-compiler-tests",
         "mlc-onnx-tests", "mlc-capi-test"]
llvm_config.add_tool_substitutions(tools, [config.mlc_tools_dir])

# Python packages some tests need (scripts/install-deps.sh --test installs
# them): onnx (python3-onnx) builds ONNX models, torch (python3-torch,
# python3-torchvision, python3-onnx) exports them from PyTorch.
import subprocess


def _python_imports(modules):
    try:
        return subprocess.run(
            [python, "-c", "import " + ", ".join(modules)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


# AVX-512 VNNI on this machine: tests that look for vpdpbusd in the code
# mlc-compile makes for it (the results are checked everywhere).
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        if " avx512_vnni" in _cpuinfo.read():
            config.available_features.add("avx512vnni")
except OSError:
    pass

if _python_imports(["onnx"]):
    config.available_features.add("onnx")
    if _python_imports(["torch", "torchvision"]):
        config.available_features.add("torch")

if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")

# The 8x8 digits dataset of python3-sklearn (the training demo's data).
if os.path.exists("/usr/lib/python3/dist-packages/sklearn/datasets/data/"
                  "digits.csv.gz"):
    config.available_features.add("digits")

# CUDA: the toolkit (ptxas, fatbinary) compiles CUDA models on any machine;
# running them needs an NVIDIA GPU, which nvidia-smi must list.
cuda_toolkit = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
config.substitutions.append(("%cuda_toolkit", cuda_toolkit))
config.substitutions.append(
    ("%list_fatbin", python + " " + os.path.join(config.mlc_src_root, "scripts",
                                                 "list-fatbin.py")))
if all(os.access(os.path.join(cuda_toolkit, "bin", t), os.X_OK)
       for t in ("ptxas", "fatbinary")):
    config.available_features.add("cuda-toolkit")


def _has_gpu():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                             text=True, timeout=60)
        return out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.SubprocessError):
        return False


if _has_gpu():
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("no NVIDIA GPU (nvidia-smi lists none): the CUDA "
                    "execution tests are skipped (UNSUPPORTED)")

# Python can only load a sanitized model.so with the sanitizer runtime
# preloaded; the Python binding tests are skipped in that configuration.
if config.mlc_sanitize in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
    # Compiled model code is not instrumented, and leak checks of the tools
    # cover the runtime; model.so loading via dlopen keeps ASan quiet.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
