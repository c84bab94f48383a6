"""Logistic regression inference on a batch of 4096 encrypted samples.

Each feature is one encrypted vector (one sample per slot); the model
(weights, bias) is plain, known to the server. The sigmoid is the degree-3
least-squares polynomial on [-6, 6] (Kim et al., "Logistic regression model
training based on the approximate homomorphic encryption", 2018), so the
whole program has multiplicative depth 3.

    ember run examples/logistic_regression.py
"""

import ember
import numpy as np

WEIGHTS = {"age": 0.8, "bmi": -1.3, "pressure": 0.55, "glucose": 1.7}
BIAS = -0.25
# sigmoid(t) ~ 0.5 + C1 t + C3 t^3 for |t| <= 6 (max error 0.03)
C1, C3 = 0.18055584, -0.00308879


# Standardized features, clipped to 3 standard deviations: the declared
# ranges let the compiler bound t = w.x + b (|t| <= 13.3) and t^2 c3t, and
# keep the 2^40 scale; a feature outside [-3, 3] is refused at encryption.
@ember.program(slots=4096, ranges={k: (-3, 3) for k in WEIGHTS})
def predict(age, bmi, pressure, glucose):
    """Probability of the positive class for every sample of the batch."""
    features = {"age": age, "bmi": bmi, "pressure": pressure, "glucose": glucose}
    # t = w.x + b, and C1 t, C3 t computed directly (scalars fold into the
    # weights, so each costs one level, not two).
    t = sum(w * features[k] for k, w in WEIGHTS.items()) + BIAS
    c3t = sum((C3 * w) * features[k] for k, w in WEIGHTS.items()) + C3 * BIAS
    c1t = sum((C1 * w) * features[k] for k, w in WEIGHTS.items()) + C1 * BIAS
    return 0.5 + c1t + (t * t) * c3t


def inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Standardized features, as a client would send them."""
    return {k: np.clip(rng.normal(0, 1, 4096), -3, 3) for k in WEIGHTS}
