"""Cluster sentence embeddings and write a report. Only Python's `random` gets seeded."""
import argparse
import json
import random

import numpy as np
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.ensemble import IsolationForest
from sklearn.manifold import TSNE
from sklearn.neural_network import MLPClassifier
from sklearn.utils import shuffle


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emb", default="out/embeddings.npy")
    ap.add_argument("--meta", default="out/meta.json")
    ap.add_argument("--k", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    random.seed(args.seed)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    X = np.load(args.emb)
    with open(args.meta) as f:
        meta = json.load(f)

    X, meta = shuffle(X, meta)  # expect: RPL101
    reduced = PCA(n_components=64, svd_solver="randomized").fit_transform(X)  # expect: RPL101
    exact = PCA(n_components=2).fit_transform(X)
    labels = KMeans(n_clusters=args.k, n_init=10).fit_predict(reduced)  # expect: RPL101
    outliers = IsolationForest(contamination=0.01).fit_predict(reduced)  # expect: RPL101
    coords = TSNE(n_components=2, perplexity=30, random_state=args.seed).fit_transform(reduced)

    # Does the clustering transfer? A small probe classifier on half the data.
    half = len(X) // 2
    probe = MLPClassifier(hidden_layer_sizes=(128,), max_iter=300)  # expect: RPL101
    probe.fit(reduced[:half], labels[:half])
    print("probe accuracy", probe.score(reduced[half:], labels[half:]))

    report = {}
    for c in range(args.k):
        members = [i for i in range(len(meta)) if labels[i] == c]
        report[c] = {
            "size": len(members),
            "examples": [meta[i]["text"] for i in random.sample(members, min(5, len(members)))],
            "outliers": int((outliers[members] == -1).sum()),
            "centroid_2d": coords[members].mean(0).tolist(),
            "pca_2d": exact[members].mean(0).tolist(),
        }
    with open("out/cluster_report.json", "w") as f:
        json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
