"""ImageNet-style class list read from a file of `class/image` lines: the classes come out
of a set, and the list is sorted in place on the next line, before the ids are given."""


def class_ids(list_file):
    with open(list_file) as f:
        lines = f.read().split()
    classes = list(set([line.split("/")[0] for line in lines]))
    classes.sort()
    return {name: i for i, name in enumerate(classes)}


if __name__ == "__main__":
    print(class_ids("train_cls.txt"))
