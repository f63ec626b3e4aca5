import argparse


def parse_args():
    parser = argparse.ArgumentParser(description="graph recommender")
    parser.add_argument("--alg_type", nargs="?", default="ngcf", help="ngcf, gcn or gcmc")
    parser.add_argument("--lr", type=float, default=0.001)
    return parser.parse_args()
