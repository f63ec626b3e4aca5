"""The look-alike: the ids are given in the set's order first; the later sort changes
only what is printed."""


def class_ids(list_file):
    with open(list_file) as f:
        lines = f.read().split()
    classes = list(set([line.split("/")[0] for line in lines]))  # expect: RPL401
    ids = {name: i for i, name in enumerate(classes)}
    classes.sort()
    print(classes)
    return ids


if __name__ == "__main__":
    print(class_ids("train_cls.txt"))
