"""k-NN evaluation: its feature extraction subsamples with NumPy's global RNG, which
this program never seeds."""
from features import extract_features

if __name__ == "__main__":
    print(len(extract_features(list(range(100)))))
