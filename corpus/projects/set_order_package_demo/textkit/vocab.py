"""A vocabulary module of a package. Its `__main__` block is a smoke demo that prints a
character list taken from a set: no program trains with it, so its order is no result."""


def build_vocab(text):
    return {ch: i for i, ch in enumerate(sorted(set(text)))}


if __name__ == "__main__":
    sample = open(__file__).read()
    chars = list(set(sample))
    print(len(chars), chars[:10])
