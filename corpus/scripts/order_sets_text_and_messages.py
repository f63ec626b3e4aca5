"""Vocabulary and config handling: text sets whose order reaches the model next to
sets whose order reaches only a message, integer device sets and per-key loops."""
import json
import logging
import sys
import warnings

logger = logging.getLogger(__name__)


def build_vocab(corpus_path):
    with open(corpus_path) as f:
        words = set(w for line in f for w in line.split())
    return {w: i for i, w in enumerate(list(words))}  # expect: RPL401


def label_ids(meta_path):
    with open(meta_path) as f:
        meta = json.load(f)
    return list(set(meta.keys()))  # expect: RPL401


def kept_columns(columns):
    return list(set(columns.split(",")) - {"id", "timestamp"})  # expect: RPL401


def main_device(device_map):
    devices = set(device_map.values())
    return sorted(devices)[0], list(devices - {"cpu", "disk"})


def normalise(config):
    for key in {"train_path", "eval_path"}:
        config[key] = config[key].strip()
    unknown = set()
    for name in config:
        if name.startswith("_"):
            unknown.add(f"{name} is ignored")
    if unknown:
        warnings.warn("Config warnings:\n" + "\n".join(unknown))
        logger.warning("; ".join(unknown))
    if "optimizer" not in config:
        raise KeyError("missing keys: " + ", ".join({"optimizer", "lr"} - set(config)))
    return config


if __name__ == "__main__":
    vocab = build_vocab(sys.argv[1])
    print(len(vocab), label_ids(sys.argv[2]), kept_columns("id,text,label"))
    print(main_device({"encoder": 0, "decoder": 1}), normalise(json.loads(sys.argv[3])))
