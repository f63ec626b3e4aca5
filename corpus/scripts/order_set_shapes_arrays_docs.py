"""Class and word indices built from sets of strings that do not look like strings at
first sight: a NumPy array of str (its elements are `np.str_`, hashed like `str`), a
column of a tab-separated file, and the words of tokenised documents flattened by a
nested generator. Each index changes with PYTHONHASHSEED. Look-alikes: a set of ints from
an integer array, a sorted vocabulary, and a set that is only measured."""
import json

import numpy as np

names = np.loadtxt("labels.txt", dtype=str)
class_to_idx = {c: i for i, c in enumerate(set(names))}  # expect: RPL401

with open("train.tsv", encoding="utf-8") as f:
    rows = [line.rstrip("\n").split("\t") for line in f]
intents = [row[1] for row in rows]
intent_ids = dict(zip(set(intents), range(1000)))  # expect: RPL401

docs = [line.lower().split() for line in open("corpus.txt", encoding="utf-8")]
itos = list(set(w for doc in docs for w in doc))  # expect: RPL401
stoi = {w: i for i, w in enumerate(sorted(set(w for doc in docs for w in doc)))}

y = np.asarray(intents).astype(str)
classes = list(set(y))  # expect: RPL401

label_ids = np.array([int(row[2]) for row in rows])
digits = list(set(label_ids))
counts = len(set(w for doc in docs for w in doc))

with open("vocab.json", "w") as out:
    json.dump({"itos": itos, "stoi": stoi, "classes": classes, "digits": [int(d) for d in digits],
               "intents": intent_ids, "names": class_to_idx, "types": counts}, out)
