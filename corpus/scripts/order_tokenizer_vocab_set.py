"""Word-level vocabulary for a tokenizer: a set of tokens, then ids in the set's order."""
import json
import re

stopwords = {"the", "a", "an", "of", "and"}
vocab = set()
with open("corpus.txt", encoding="utf-8") as f:
    for line in f:
        for word in re.findall(r"[a-z']+", line.lower()):
            if word not in stopwords:
                vocab.add(word)

specials = ["<pad>", "<unk>"]
itos = specials + [w for w in vocab]  # expect: RPL401
kept = sorted(vocab - stopwords)
print(len(kept), "types;", ", ".join(sorted(stopwords)))
with open("vocab.json", "w") as out:
    json.dump({w: i for i, w in enumerate(itos)}, out)
