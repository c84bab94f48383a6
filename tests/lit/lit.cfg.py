"""lit configuration of Ember's compiler tests (ember-opt + FileCheck)."""

import os
import shutil

import lit.formats

config.name = "Ember"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ember_obj_root, "tests", "lit")

# ember-opt / ember-translate first, then FileCheck and not from LLVM 22.
for path in (config.llvm_tools_dir, config.ember_tools_dir):
    config.environment["PATH"] = os.pathsep.join(
        (path, config.environment.get("PATH", ""))
    )

# nvcc compiles the emitted .cu files (Target/cuda); without it those RUN
# lines are skipped through `%if nvcc`.
_nvcc = shutil.which("nvcc") or (
    "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None
)
if _nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", _nvcc))
_src = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%ember_src", _src))
