"""Module-name bookkeeping for a sharded model: sets of names walked by a recursion or
searched for the one match (order-free) next to look-alikes whose order reaches a list."""
import sys

QUOTE_PREFIXES = {"r", "u", "f", "b"}
OVERLAPPING_PREFIXES = {"r", "rb", "b"}


def group_devices(device_map, module_name=""):
    """Merge the entries of each child module that all sit on one device."""
    prefix = "" if module_name == "" else f"{module_name}."
    values = [v for k, v in device_map.items() if k.startswith(prefix)]
    if len(set(values)) == 1 and len(values) > 1:
        for k in [k for k in device_map if k.startswith(prefix)]:
            del device_map[k]
        device_map[module_name] = values[0]
    depth = len(module_name.split(".")) + 1 if module_name else 1
    children = set(".".join(k.split(".")[:depth]) for k in device_map if k.startswith(prefix) and k != module_name)
    for child in children:
        group_devices(device_map, module_name=child)
    return device_map


def module_order(device_map, module_name, out):
    """The modules in the order a pipeline stage visits them."""
    out.append(module_name)
    children = set(k.lower() for k in device_map if k.startswith(module_name))
    for child in children:  # expect: RPL401
        module_order(device_map, child, out)
    return out


def strip_prefix(token):
    for c in QUOTE_PREFIXES:
        if token.startswith(c):
            token = token[1:]
            break
    return token


def strip_overlapping(token):
    for p in OVERLAPPING_PREFIXES:  # expect: RPL401
        if token.startswith(p):
            token = token[len(p):]
            break
    return token


def strip_every(token):
    for c in QUOTE_PREFIXES:  # expect: RPL401
        if token.startswith(c):
            token = token[1:]
    return token


def find_split(name, splits):
    for split in set(s.lower() for s in splits):
        if name == split:
            return split
    return None


if __name__ == "__main__":
    print(group_devices({"enc.0": 0, "enc.1": 0, "dec.0": 1}), module_order({"a.x": 0}, "a", []))
    print(strip_prefix(sys.argv[1]), strip_overlapping(sys.argv[1]), strip_every(sys.argv[1]))
    print(find_split(sys.argv[2], ["Train", "Valid"]))
