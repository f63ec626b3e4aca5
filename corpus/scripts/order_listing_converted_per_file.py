"""Preparing a corpus: archives in the working folder unpacked each into its own file (the write mode a module
name holds, chosen by Python version), JSON shards converted by a process pool whose
worker saves each shard's examples to its own `.pt` file while the loop over the pool
only waits, and a vocabulary built from every shard.

Positive: the vocabulary file, appended to shard after shard in the listing's order."""
import glob
import gzip
import json
import os
import sys
from multiprocessing import Pool

import torch

if sys.version_info >= (3, 0):
    WRITE_MODE = "wb"
else:
    WRITE_MODE = "w"


def unpack():
    for name in os.listdir("."):
        if not name.endswith(".gz"):
            continue
        with gzip.open(name, "rb") as packed, open(name[:-3], WRITE_MODE) as out:
            out.write(packed.read())


def convert_shard(job):
    source, target = job
    with open(source) as handle:
        records = json.load(handle)
    examples = [{"text": r["text"], "label": int(r["label"])} for r in records]
    torch.save(examples, target)


def convert(folder, out_dir, workers=4):
    jobs = []
    for source in glob.glob(os.path.join(folder, "*.json")):
        jobs.append((source, os.path.join(out_dir, os.path.basename(source).replace(".json", ".pt"))))
    with Pool(workers) as pool:
        for _ in pool.imap_unordered(convert_shard, jobs):
            pass


def build_vocab(folder, vocab_path):
    for source in glob.glob(os.path.join(folder, "*.json")):  # expect: RPL402
        with open(source) as handle, open(vocab_path, "a") as vocab:
            for record in json.load(handle):
                vocab.write(record["text"] + "\n")


if __name__ == "__main__":
    os.chdir("data/raw")
    unpack()
    os.chdir("../..")
    convert("data/raw", "data/pt")
    build_vocab("data/raw", "data/vocab.txt")
