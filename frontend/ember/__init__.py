"""Ember: an ahead-of-time compiler for CKKS programs over encrypted vectors.

```python
import numpy as np
import ember

@ember.program(slots=4096)
def f(x: ember.Encrypted, y: ember.Encrypted):
    w = np.linspace(-1, 1, 4096)          # numpy constants become plaintexts
    z = x * w + y.rotate(3) - 0.5
    return z * z, x.rotate(-1)

c = ember.compile(f, target="cpu")       # options: ember.CompileOptions
keys = c.keygen()
cts = c.encrypt(keys, x=np.random.rand(4096), y=np.random.rand(4096))
z, r = c.decrypt(keys, c.run(keys.evaluation, cts))
```
"""

from ember.compiled import (
    Ciphertexts,
    Compiled,
    EvaluationKeys,
    Keys,
    SecretKey,
    compile,
    load,
)
from ember.errors import (
    ArgumentNameError,
    CompileError,
    DepthError,
    EmberError,
    InputError,
    KeyMismatchError,
    MissingKeyError,
    NotAvailableError,
    OptionError,
    SecurityError,
    SerializationError,
    TraceError,
)
from ember.linear import matvec
from ember.options import CompileOptions
from ember.polynomials import approx, chebyshev_fit, poly
from ember.tfhe import Bit, Int, UInt, lut
from ember.tracing import Encrypted, Plain, Program, program, sum

__all__ = [
    "ArgumentNameError",
    "Bit",
    "Ciphertexts",
    "CompileError",
    "CompileOptions",
    "Compiled",
    "DepthError",
    "EmberError",
    "Encrypted",
    "EvaluationKeys",
    "InputError",
    "Int",
    "KeyMismatchError",
    "Keys",
    "MissingKeyError",
    "NotAvailableError",
    "OptionError",
    "Plain",
    "Program",
    "SecretKey",
    "SecurityError",
    "SerializationError",
    "TraceError",
    "UInt",
    "approx",
    "chebyshev_fit",
    "compile",
    "load",
    "lut",
    "matvec",
    "poly",
    "program",
    "sum",
]
__version__ = "0.1.0"
