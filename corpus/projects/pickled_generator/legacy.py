"""Loads pickled networks (the pickle holds the modules with their trained weights)."""
import pickle

import networks


def load_network_pkl(f):
    data = _NetworkUnpickler(f).load()
    if "G" not in data:
        # an old format: rebuild the generator, then copy the stored tensors over it
        data["G"] = networks.Generator()
        data["G"].load_state_dict(data["state"])
    return data


class _NetworkUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        return super().find_class(module, name)
