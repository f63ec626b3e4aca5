"""A name -> builder table filled by a decorator."""
BUILDERS = {}


def register(name):
    def add(fn):
        BUILDERS[name] = fn
        return fn
    return add
