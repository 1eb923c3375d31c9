# lit configuration for attn's tests. Tests mirror the source tree (docs/ARCHITECTURE.md).
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "attn"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attn_obj_root, "test")
config.excludes = ["Inputs", "lit-tools", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()

# Debian's numpy lives in the system Python; a pyenv `python3` on PATH may not have it.
config.substitutions.insert(0, ("%python", "/usr/bin/python3"))
config.substitutions.append(("%attn_src", config.attn_src_root))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%attn_tools", config.attn_tools_dir))
config.substitutions.append(("%llvm_tools", config.llvm_tools_dir))
config.substitutions.append(
    ("%compare_npy", "/usr/bin/python3 " + os.path.join(config.test_source_root, "lit-tools", "compare-npy.py")))
config.substitutions.append(("%examples", os.path.join(config.attn_src_root, "examples")))
# `%expect_exit N cmd...`: cmd must exit with exactly N (a crash never passes).
config.substitutions.append(
    ("%expect_exit", "/usr/bin/python3 " + os.path.join(config.test_source_root, "lit-tools", "expect-exit.py")))

tool_dirs = [config.attn_tools_dir, config.llvm_tools_dir]
tools = ["attn-opt", "attn-compile", "attn-run", "attn-tune", "attn-bench", "tanh-split-error", "autoscheduler-note",
         "tuner-results-agree", "tuner-decisions"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Kernels run on 2 threads at most: lit already runs tests side by side.
config.environment["HL_NUM_THREADS"] = "2"

# GPU schedules are run on PoCL (OpenCL on the CPU) when it is installed (scripts/setup.sh installs
# it), with its kernel cache off so that every run compiles its kernels (docs/TOOLCHAIN.md: the cache once
# hid a crash in the compile path).
import ctypes.util
if config.attn_sanitize:
    config.available_features.add("sanitize")
# Not in the sanitizer build: PoCL must be loaded with RTLD_DEEPBIND (docs/TOOLCHAIN.md), which the
# sanitizer runtimes refuse (google/sanitizers#611).
if (os.path.exists("/etc/OpenCL/vendors/pocl.icd") and ctypes.util.find_library("pocl")
        and not config.attn_sanitize):
    config.available_features.add("opencl")
config.environment["POCL_KERNEL_CACHE"] = "0"
# The conformance sweep's OpenCL cases run where the OpenCL tests do.
config.substitutions.append(
    ("%sweep_opencl", "--opencl=yes" if "opencl" in config.available_features else "--opencl=no"))
config.substitutions.append(
    ("%rerun_on_target", "/usr/bin/python3 " + os.path.join(config.test_source_root, "lit-tools", "rerun-on-target.py")
     + " " + os.path.join(config.attn_tools_dir, "attn-run")))

# Kernels for an AVX-512 target (Halide's avx512_skylake: F, CD, BW, DQ, VL) run only where the CPU
# has them; without, tests compile such kernels but do not run them.
try:
    cpu_flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
except OSError:
    cpu_flags = []
if all(f in cpu_flags for f in ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")):
    config.available_features.add("avx512")

# A CUDA driver (a machine with an NVIDIA GPU): the tools then run CUDA targets instead of refusing.
try:
    ctypes.CDLL("libcuda.so.1")  # as the tools look for it (find_library also finds toolkit stubs)
    config.available_features.add("cuda-driver")
except OSError:
    pass

# CUDA's assembler, to prove the emitted PTX assembles for Hopper (there is no GPU here).
import shutil
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
config.substitutions.append(("%attn_build", config.attn_obj_root))

# The report's pages are rendered by headless Chromium (Debian's `chromium`, installed by
# scripts/setup.sh) to prove their scripts run and they draw something.
config.substitutions.append(
    ("%check_page", "/usr/bin/python3 " + os.path.join(config.test_source_root, "lit-tools", "check-page.py")))
if shutil.which("chromium"):
    config.available_features.add("chromium")
config.substitutions.append(("%report_py", os.path.join(config.attn_src_root, "tools", "attn-bench", "report.py")))
config.substitutions.append(("%heatmap_py", os.path.join(config.attn_src_root, "tools", "attn-run", "heatmap.py")))

# The sanitizer build (scripts/sanitize.sh) sets these for every tool a test runs.
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
