"""lit configuration of Ember's compiler tests (ember-opt + FileCheck)."""

import os

import lit.formats

config.name = "Ember"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ember_obj_root, "tests", "lit")

# ember-opt / ember-translate first, then FileCheck and not from LLVM 22.
for path in (config.llvm_tools_dir, config.ember_tools_dir):
    config.environment["PATH"] = os.pathsep.join(
        (path, config.environment.get("PATH", ""))
    )
