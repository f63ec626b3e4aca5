"""Imports `extract_features`, then defines its own: when the module runs, the `def`
rebinds the name, so its calls reach this definition, which draws nothing (the imported
one never runs in this program)."""
from features import extract_features


def extract_features(features, scale=2.0):
    return [f * scale for f in features]


if __name__ == "__main__":
    print(sum(extract_features([1.0, 2.0, 3.0])))
