"""Link-prediction ranks (ConvE's filtered evaluation): loops over a set of entity names
that only count matches give the same counts in any order; a loop that appends the names
to the ranking takes the set's order."""
import random

random.seed(0)
entities = set(line.split("\t")[0] for line in open("entities.tsv"))
known = set((line.split("\t")[0], line.split("\t")[1]) for line in open("triples.tsv"))
ranks = []
for head in ["a", "b"]:
    ranks.append(0)
    for candidate in entities:
        if (head, candidate) in known: continue
        if candidate < head:
            ranks[-1] += 1
ordered = []
for candidate in entities:  # expect: RPL401
    ordered.append(candidate)
with open("ranks.txt", "w") as out:
    out.write(" ".join(map(str, ranks)) + "\n" + " ".join(ordered))
