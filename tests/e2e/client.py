"""The client side of an artifact, as a frontend would do it: read the
manifest, rebuild the parameters from its primes, generate exactly the keys
it lists, encrypt inputs at their level and scale, decrypt outputs. A BGV
manifest (params.scheme == "bgv") gets keys and encryptions with error
factor t, integer inputs at their level and factor (the scale) and integer
outputs in [0, t)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import ember_runtime as er
import numpy as np
from ember._toolchain import context_from_params
from ember.ranges import check_input


class Client:
    def __init__(self, manifest_path: Path) -> None:
        self.manifest = json.loads(Path(manifest_path).read_text())
        params = self.manifest["params"]
        self.ctx = context_from_params(params)
        self.bgv = params.get("scheme", "ckks") == "bgv"
        # BGV: t; the keys' and encryptions' errors are multiples of it.
        self.t = int(params["plaintext_modulus"]) if self.bgv else None
        factor = self.t or 1
        self.keygen = er.KeyGenerator(self.ctx, error_factor=factor)
        self.sk = self.keygen.secret_key()
        self.pk = self.keygen.public_key()
        self.encoder = (
            er.BgvEncoder(self.ctx, self.t) if self.bgv else er.Encoder(self.ctx)
        )
        self.encryptor = er.Encryptor(self.ctx, error_factor=factor)
        self.decryptor = er.Decryptor(self.ctx, self.sk)

    def evaluation_keys(self) -> er.EvaluationKeys:
        """Exactly the keys the manifest lists (never the secret key)."""
        keys = self.manifest["keys"]
        relin = self.keygen.relin_key() if keys["relin"] else None
        galois = (
            self.keygen.galois_keys([int(g) for g in keys["galois"]])
            if keys["galois"]
            else None
        )
        klss_relin = self.keygen.klss_relin_key() if keys.get("klss_relin") else None
        klss_galois = (
            self.keygen.klss_galois_keys([int(g) for g in keys["klss_galois"]])
            if keys.get("klss_galois")
            else None
        )
        return er.EvaluationKeys(
            relin=relin, galois=galois, klss_relin=klss_relin, klss_galois=klss_galois
        )

    def encrypt(self, values: list[np.ndarray]) -> list[er.Ciphertext]:
        """Each input at its level and scale; a value outside the input's
        range in the manifest is refused (ember.InputError). BGV: integers
        (taken mod t) with the input's factor."""
        out = []
        for spec, v in zip(self.manifest["inputs"], values, strict=True):
            if "range" in spec:
                check_input(spec["name"], v, spec["range"])
            if self.bgv:
                a = np.asarray(v)
                assert a.dtype.kind in "iu", f"input {spec['name']}: integers"
                pt = self.encoder.encode(
                    a,
                    level=spec["level"],
                    slots=spec["slots"],
                    factor=int(spec["scale"]),
                )
            else:
                pt = self.encoder.encode(
                    np.asarray(v, dtype=float),
                    level=spec["level"],
                    scale=spec["scale"],
                    slots=spec["slots"],
                )
            out.append(self.encryptor.encrypt(pt, self.pk))
        return out

    def decrypt(self, cts: list[er.Ciphertext]) -> list[np.ndarray]:
        """The outputs' values: real parts (CKKS), int64 in [0, t) (BGV)."""
        assert len(cts) == len(self.manifest["outputs"])
        out = []
        for spec, ct in zip(self.manifest["outputs"], cts, strict=True):
            assert ct.level == spec["level"] and math.isclose(ct.scale, spec["scale"])
            pt = self.decryptor.decrypt(ct)
            if self.bgv:
                out.append(np.asarray(self.encoder.decode(pt)).astype(np.int64))
            else:
                out.append(np.real(self.encoder.decode(pt)))
        return out

    def noise_budgets(self, cts: list[er.Ciphertext]) -> list[int]:
        """BGV: the noise budget (bits) measured on each output's decryption,
        to compare with the manifest's "noise_budget" estimates."""
        assert self.bgv, "noise budgets are BGV's"
        return [self.encoder.noise_budget(self.decryptor.decrypt(ct)) for ct in cts]
